import type { ChatMessage } from '@chatwire/client';
import { el } from './element.js';

/** A tool call as shown, from a live `ToolCallPart` or a stored UI part (`{ type: 'tool-<name>', ... }`). */
interface ToolView {
  toolName: string;
  state: string;
  input: unknown;
  output?: unknown;
  errorText?: string;
}

type Piece = { kind: 'text'; text: string } | { kind: 'tool'; tool: ToolView };

/** One `<li>` for a message: its text and tool calls in order, plus a status line while it is not done. */
export function renderMessage(message: ChatMessage): HTMLLIElement {
  const item = el('li', { class: `message ${message.role}`, 'data-role': message.role, 'data-id': message.id });
  for (const piece of piecesOf(message)) {
    item.append(piece.kind === 'text' ? el('span', { class: 'text' }, piece.text) : renderTool(piece.tool));
  }
  const status = message.streaming?.status;
  if (status === 'streaming') item.append(el('div', { class: 'status' }, 'typing…'));
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

function renderTool(tool: ToolView): HTMLDetailsElement {
  const details = el(
    'details',
    { class: 'tool-call', 'data-tool': tool.toolName, 'data-state': tool.state },
    el('summary', {}, `tool ${tool.toolName} · ${tool.state}`),
    el('div', {}, 'input'),
    el('pre', { class: 'tool-input' }, pretty(tool.input)),
  );
  if (tool.output !== undefined) details.append(el('div', {}, 'result'), el('pre', { class: 'tool-output' }, pretty(tool.output)));
  if (tool.errorText !== undefined) details.append(el('div', {}, 'error'), el('pre', { class: 'tool-error' }, tool.errorText));
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
