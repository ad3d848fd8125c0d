import type { ChatMessage } from '@chatwire/client';
import { el } from './element.js';
import { renderMarkdown } from './render-markdown.js';

/** A tool call as shown, from a live `ToolCallPart` or a stored UI part (`{ type: 'tool-<name>', ... }`). */
interface ToolView {
  toolName: string;
  state: string;
  input: unknown;
  output?: unknown;
  errorText?: string;
}

type Piece = { kind: 'text'; text: string } | { kind: 'tool'; tool: ToolView };

/**
 * One `<article>` for a message, named "You" or "Assistant": the user's text as typed, the assistant's text as
 * Markdown with its tool calls in order, plus a status line while it is not done.
 */
export function renderMessage(message: ChatMessage): HTMLElement {
  const isUser = message.role === 'user';
  const item = el('article', {
    class: `message ${message.role}`,
    'aria-label': isUser ? 'You' : message.role === 'assistant' ? 'Assistant' : message.role,
    'data-role': message.role,
    'data-id': message.id,
  });
  for (const piece of piecesOf(message)) {
    if (piece.kind === 'tool') item.append(renderTool(piece.tool));
    else if (isUser) item.append(el('p', { class: 'plain' }, piece.text));
    else if (piece.text.trim() !== '') item.append(el('div', { class: 'markdown' }, renderMarkdown(piece.text)));
  }
  const status = message.streaming?.status;
  if (status === 'streaming') item.append(el('div', { class: 'status typing' }, 'typing…'));
  if (status === 'aborted') item.append(el('div', { class: 'status' }, 'stopped'));
  if (status === 'error') item.append(el('div', { class: 'status error' }, `error: ${message.streaming?.errorText ?? 'unknown'}`));
  return item;
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
