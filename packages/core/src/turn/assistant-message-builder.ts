import type { UIMessageChunk } from 'ai';

/** A stored assistant part: the AI SDK v5 UIMessage part shapes (`text`, `step-start`, `tool-<name>`). */
export type StoredPart = Record<string, unknown> & { type: string };

export interface ToolCallSummary {
  toolCallId: string;
  toolName: string;
  state: string;
}

/**
 * Builds the stored assistant message from the chunks the client was sent, so what is stored is what
 * was shown: text parts, one `step-start` per model step, and tool parts in the UIMessage shapes that
 * `convertToModelMessages` and `useChat` read back.
 */
export class AssistantMessageBuilder {
  readonly parts: StoredPart[] = [];
  private readonly texts = new Map<string, StoredPart>();
  private readonly tools = new Map<string, StoredPart>();

  apply(chunk: UIMessageChunk): void {
    switch (chunk.type) {
      case 'start-step':
        this.parts.push({ type: 'step-start' });
        break;
      case 'text-start': {
        const part: StoredPart = { type: 'text', text: '', state: 'streaming' };
        this.texts.set(chunk.id, part);
        this.parts.push(part);
        break;
      }
      case 'text-delta':
        this.appendText(chunk.id, chunk.delta);
        break;
      case 'text-end': {
        const part = this.texts.get(chunk.id);
        if (part) part.state = 'done';
        break;
      }
      case 'tool-input-start':
        this.tool(chunk.toolCallId, chunk.toolName, { state: 'input-streaming', input: undefined });
        break;
      case 'tool-input-available':
        this.tool(chunk.toolCallId, chunk.toolName, { state: 'input-available', input: chunk.input });
        break;
      case 'tool-input-error':
        this.tool(chunk.toolCallId, chunk.toolName, {
          state: 'output-error',
          input: undefined,
          rawInput: chunk.input,
          errorText: chunk.errorText,
        });
        break;
      case 'tool-output-available': {
        const part = this.tools.get(chunk.toolCallId);
        if (part) Object.assign(part, { state: 'output-available', output: chunk.output });
        break;
      }
      case 'tool-output-error': {
        const part = this.tools.get(chunk.toolCallId);
        // After a tool-input-error the part already holds the more precise input error.
        if (part && part.state !== 'output-error') Object.assign(part, { state: 'output-error', errorText: chunk.errorText });
        break;
      }
      default:
        break;
    }
  }

  /** `apply({ type: 'text-delta', id, delta })` without the chunk object (the turn's hot path). */
  appendText(id: string, delta: string): void {
    const part = this.texts.get(id);
    if (part) part.text = (part.text as string) + delta;
  }

  /** The concatenated text of every text part: the row's `content`. */
  text(): string {
    let out = '';
    for (const part of this.parts) if (part.type === 'text') out += part.text as string;
    return out;
  }

  toolCalls(): ToolCallSummary[] {
    return [...this.tools.entries()].map(([toolCallId, part]) => ({
      toolCallId,
      toolName: part.type.slice('tool-'.length),
      state: part.state as string,
    }));
  }

  private tool(toolCallId: string, toolName: string, fields: Record<string, unknown>): void {
    const existing = this.tools.get(toolCallId);
    if (existing) {
      Object.assign(existing, fields);
      return;
    }
    const part: StoredPart = { type: `tool-${toolName}`, toolCallId, ...fields };
    this.tools.set(toolCallId, part);
    this.parts.push(part);
  }
}
