import type { ChatMessage } from '@chatwire/client';
import { el } from './element.js';
import { renderFeedback, type Rating } from './render-feedback.js';
import { renderMarkdown } from './render-markdown.js';
import { renderApproval, type ApprovalView } from './tool-approvals.js';
import { renderBranchSwitcher } from './render-branch-switcher.js';
import { renderAttachments } from './render-attachments.js';
import type { BranchPosition } from '@chatwire/client';

/** A tool call as shown, from a live `ToolCallPart` or a stored UI part (`{ type: 'tool-<name>', ... }`). */
interface ToolView {
  toolName: string;
  state: string;
  input: unknown;
  output?: unknown;
  errorText?: string;
}

type Piece = { kind: 'text'; text: string } | { kind: 'tool'; tool: ToolView };

/** A message as the page shows it: the client's merged message plus what this page adds around it. */
export interface MessageView extends ChatMessage {
  /** The user stopped this answer (stored with status "stopped", or stopped on this page). */
  stopped?: boolean;
  /** Buttons offered under the message: "Edit" (user messages), "Regenerate" (the last answer). */
  actions?: ReadonlyArray<'edit' | 'regenerate'>;
  /** A user message being edited: its text in a box with "Send edit" and "Cancel". */
  editing?: boolean;
  /** Tool calls this answer waits on, each with "Approve" and "Deny". */
  approvals?: readonly ApprovalView[];
  /** A stored answer's rating (null: none yet); absent: no thumbs (user messages, answers in flight). */
  feedback?: Rating | null;
  /** Tree history: its place among its versions, shown as "‹ n/m ›" (the arrows are disabled while `branchLocked`). */
  branch?: BranchPosition;
  branchLocked?: boolean;
}

const ACTION_LABELS = { edit: 'Edit', regenerate: 'Regenerate' } as const;

/**
 * One `<article>` for a message, named "You" or "Assistant": the user's text as typed, the assistant's text as
 * Markdown with its tool calls in order, a status line while it is not done, and its action buttons. Buttons and
 * the edit form carry `data-action`; the page handles them with one listener on the list.
 */
export function renderMessage(message: MessageView): HTMLElement {
  const isUser = message.role === 'user';
  const item = el('article', {
    class: `message ${message.role}`,
    'aria-label': isUser ? 'You' : message.role === 'assistant' ? 'Assistant' : message.role,
    'data-role': message.role,
    'data-id': message.id,
  });
  if (isUser && message.editing) {
    item.append(renderEditForm(message));
    return item;
  }
  const body = isUser ? el('div', { class: 'bubble' }) : item;
  if (body !== item) item.append(body);
  piecesOf(message).forEach((piece, index) => {
    if (piece.kind === 'tool') body.append(renderTool(piece.tool));
    else if (isUser) body.append(el('p', { class: 'plain' }, piece.text));
    else if (piece.text.trim() !== '') {
      const idPrefix = `m-${message.id.replace(/[^\w-]/g, '')}-${index}-`;
      body.append(el('div', { class: 'markdown' }, renderMarkdown(piece.text, idPrefix)));
    }
  });
  // A user message's files: images inline, a chip for PDFs and text (the stored parts carry signed URLs).
  const files = isUser ? renderAttachments(message.parts, (url) => new URL(url, document.baseURI).href) : null;
  if (files) body.append(files);
  for (const approval of message.approvals ?? []) item.append(renderApproval(approval));
  const status = message.streaming?.status;
  if (status === 'streaming') item.append(el('div', { class: 'status typing' }, 'typing…'));
  else if (status === 'aborted' || message.stopped) item.append(el('div', { class: 'status' }, 'stopped'));
  if (status === 'error') item.append(el('div', { class: 'status error' }, `error: ${message.streaming?.errorText ?? 'unknown'}`));
  if (message.actions?.length) {
    item.append(
      el(
        'div',
        { class: 'message-actions' },
        ...message.actions.map((action) => el('button', { type: 'button', class: 'ghost small', 'data-action': action }, ACTION_LABELS[action])),
      ),
    );
  }
  const versions = renderBranchSwitcher(message.branch, message.branchLocked === true);
  if (versions) item.append(versions);
  if (message.feedback !== undefined) item.append(renderFeedback(message.feedback));
  return item;
}

function renderEditForm(message: MessageView): HTMLFormElement {
  const box = el('textarea', { name: 'content', 'aria-label': 'Edit message', rows: '3', required: '' });
  box.value = message.content;
  return el(
    'form',
    { class: 'edit-form', 'data-action': 'send-edit' },
    box,
    el(
      'div',
      { class: 'row' },
      el('button', { type: 'button', class: 'small', 'data-action': 'cancel-edit' }, 'Cancel'),
      el('button', { type: 'submit', class: 'primary small' }, 'Send edit'),
    ),
  );
}

function piecesOf(message: ChatMessage): Piece[] {
  if (message.streaming) {
    return message.streaming.parts.map((part): Piece =>
      part.type === 'text'
        ? { kind: 'text', text: part.text }
        : {
            kind: 'tool',
            tool: {
              toolName: part.toolName,
              state: part.state,
              input: part.input,
              ...(part.output === undefined ? {} : { output: part.output }),
              ...(part.errorText === undefined ? {} : { errorText: part.errorText }),
            },
          },
    );
  }
  if (message.role === 'assistant' && Array.isArray(message.parts)) {
    const pieces = message.parts.flatMap((raw): Piece[] => {
      const part = raw as Record<string, unknown>;
      const type = typeof part.type === 'string' ? part.type : '';
      if (type === 'text') return [{ kind: 'text', text: String(part.text ?? '') }];
      if (!type.startsWith('tool-')) return [];
      const tool: ToolView = { toolName: type.slice('tool-'.length), state: String(part.state ?? ''), input: part.input };
      if ('output' in part) tool.output = part.output;
      if (typeof part.errorText === 'string') tool.errorText = part.errorText;
      return [{ kind: 'tool', tool }];
    });
    if (pieces.length > 0) return pieces;
  }
  return [{ kind: 'text', text: message.content }];
}

const TOOL_STATE_LABELS: Record<string, string> = {
  'input-streaming': 'preparing…',
  'input-available': 'running…',
  'output-available': 'done',
  'output-error': 'failed',
};

/** A collapsed "Tool <name> · <state>" block; opened, it shows the input and the result or error. */
function renderTool(tool: ToolView): HTMLDetailsElement {
  const state = TOOL_STATE_LABELS[tool.state] ?? tool.state;
  const details = el(
    'details',
    { class: 'tool-call', 'data-tool': tool.toolName, 'data-state': tool.state },
    el('summary', {}, `Tool ${tool.toolName} · ${state}`),
    el('div', { class: 'tool-label' }, 'Input'),
    el('pre', { class: 'tool-input' }, pretty(tool.input)),
  );
  if (tool.output !== undefined) details.append(el('div', { class: 'tool-label' }, 'Result'), el('pre', { class: 'tool-output' }, pretty(tool.output)));
  if (tool.errorText !== undefined) details.append(el('div', { class: 'tool-label' }, 'Error'), el('pre', { class: 'tool-error' }, tool.errorText));
  return details;
}

function pretty(value: unknown): string {
  if (value === undefined) return '…';
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}
