import type { AssistantMessage, AssistantPart, MessageRecord } from '@chatwire/client';
import { el } from './element.js';

/** A tool call a stored answer waits on: the user approves or denies it. */
export interface ApprovalView {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** What the user chose already, while other calls of the same answer still wait. */
  decided?: boolean;
}

type Part = Record<string, unknown>;

/**
 * The calls a stored answer (status `awaiting-approval`) asks about: its `data-tool-approval` parts whose tool
 * call has no output yet. After a reload the stored row carries them, so the buttons come back.
 */
export function pendingApprovalsOf(record: MessageRecord | undefined): ApprovalView[] {
  if (!record || record.data.role !== 'assistant' || record.data.status !== 'awaiting-approval') return [];
  const parts = (Array.isArray(record.data.parts) ? record.data.parts : []) as Part[];
  const waiting = new Set(parts.filter((p) => p.state === 'input-available' && typeof p.toolCallId === 'string').map((p) => p.toolCallId as string));
  return parts.flatMap((part): ApprovalView[] => {
    const data = part.data as Partial<ApprovalView> | undefined;
    if (part.type !== 'data-tool-approval' || typeof data?.toolCallId !== 'string' || !waiting.has(data.toolCallId)) return [];
    return [{ toolCallId: data.toolCallId, toolName: String(data.toolName ?? ''), input: data.input }];
  });
}

/** "The assistant wants to run <tool>" with the call's input and the "Approve" and "Deny" buttons. */
export function renderApproval(approval: ApprovalView): HTMLElement {
  const button = (label: 'Approve' | 'Deny', action: string, primary: boolean) =>
    el('button', { type: 'button', class: primary ? 'primary small' : 'small', 'data-action': action, 'data-tool-call-id': approval.toolCallId }, label);
  const box = el(
    'div',
    { class: 'tool-approval', role: 'group', 'aria-label': `Approve ${approval.toolName}?` },
    el('p', {}, `The assistant wants to run ${approval.toolName} with:`),
    el('pre', { class: 'tool-input' }, JSON.stringify(approval.input, null, 2) ?? ''),
  );
  if (approval.decided) box.append(el('p', { class: 'status' }, 'answered; waiting for the other calls'));
  else box.append(el('div', { class: 'row' }, button('Approve', 'approve', true), button('Deny', 'deny', false)));
  return box;
}

/**
 * The live state a continued answer starts from: the stored answer's text and tool calls, so the page keeps
 * showing them while the continuation streams into the same message.
 */
export function assistantFromStored(id: string, record: MessageRecord | undefined): AssistantMessage {
  const parts = (Array.isArray(record?.data.parts) ? record.data.parts : []) as Part[];
  const out: AssistantPart[] = [];
  parts.forEach((part, index) => {
    const type = typeof part.type === 'string' ? part.type : '';
    if (type === 'text') out.push({ type: 'text', id: `stored-${index}`, text: String(part.text ?? '') });
    else if (type.startsWith('tool-') && typeof part.toolCallId === 'string') {
      const state = part.state === 'output-available' || part.state === 'output-error' || part.state === 'input-streaming' ? part.state : 'input-available';
      out.push({
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: type.slice('tool-'.length),
        state,
        input: part.input,
        inputText: '',
        ...('output' in part ? { output: part.output } : {}),
      });
    }
  });
  const text = out.map((p) => (p.type === 'text' ? p.text : '')).join('');
  return { id, status: 'streaming', text, parts: out };
}
