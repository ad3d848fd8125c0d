import { parsePartialJson, type UIMessageChunk } from 'ai';
import { TextAccumulator } from '../model-loop/text-accumulator.js';

/**
 * A stored assistant part: the AI SDK v5 UIMessage part shapes (`text`, `step-start`, `file`, `tool-<name>`,
 * `dynamic-tool`).
 */
export type StoredPart = Record<string, unknown> & { type: string };

export interface ToolCallSummary {
  toolCallId: string;
  toolName: string;
  state: string;
}

/**
 * Builds the stored assistant message from the chunks the client was sent, so what is stored is what was
 * shown. It folds chunks into parts the way the AI SDK's own reader (`readUIMessageStream`, `useChat`) does,
 * so the stored parts equal the message the client ends up with: text parts, one `step-start` per model
 * step, files, and tool parts (`tool-<name>`, or `dynamic-tool` for dynamic tools) in the shapes that
 * `convertToModelMessages` reads back. No field is ever set to `undefined`: rows are plain JSON.
 *
 * Tool parts are found by call id within the current step first, then anywhere in the message (newest
 * first), as the SDK does: a provider that reuses call ids across steps gets one part per step.
 */
export class AssistantMessageBuilder {
  readonly parts: StoredPart[] = [];
  /** Text parts by id, with the accumulator that holds their text flat while it streams. */
  private readonly texts = new Map<string, { part: StoredPart; text: TextAccumulator }>();
  /** The streamed `rawInput` of tool parts whose input is streaming. */
  private readonly rawInputs = new WeakMap<StoredPart, TextAccumulator>();
  /** Tool parts of the current step, by call id. */
  private stepTools = new Map<string, StoredPart>();
  /** The newest tool part of each call id in the whole message. */
  private readonly tools = new Map<string, StoredPart>();

  apply(chunk: UIMessageChunk): void {
    switch (chunk.type) {
      case 'start-step':
        this.parts.push({ type: 'step-start' });
        this.stepTools = new Map();
        break;
      case 'text-start': {
        const part: StoredPart = { type: 'text', text: '', state: 'streaming' };
        this.texts.set(chunk.id, { part, text: new TextAccumulator() });
        this.parts.push(part);
        break;
      }
      case 'text-delta':
        this.appendText(chunk.id, chunk.delta);
        break;
      case 'text-end': {
        const part = this.texts.get(chunk.id)?.part;
        if (part) part.state = 'done';
        break;
      }
      case 'file':
        this.parts.push({ type: 'file', mediaType: chunk.mediaType, url: chunk.url });
        break;
      case 'tool-input-start':
        this.startTool(chunk.toolCallId, chunk.toolName, chunk.dynamic === true, { state: 'input-streaming' }, chunk.providerExecuted);
        break;
      case 'tool-input-delta': {
        // The SDK reader keeps the streamed text as `rawInput` and its partial parse as `input`; the parse
        // is async there, so it happens in `settle()`, which only matters for a call the stream never finished.
        const part = this.stepTools.get(chunk.toolCallId);
        if (part && part.state === 'input-streaming') this.appendRawInput(part, chunk.inputTextDelta);
        break;
      }
      case 'tool-input-available':
        this.startTool(chunk.toolCallId, chunk.toolName, chunk.dynamic === true, { state: 'input-available', input: chunk.input }, chunk.providerExecuted);
        break;
      case 'tool-input-error':
        // A static tool part keeps the input that failed as `rawInput`; a dynamic one has no schema to fail.
        this.startTool(
          chunk.toolCallId,
          chunk.toolName,
          chunk.dynamic === true,
          chunk.dynamic === true
            ? { state: 'output-error', input: chunk.input, errorText: chunk.errorText }
            : { state: 'output-error', rawInput: chunk.input, errorText: chunk.errorText },
          chunk.providerExecuted,
        );
        break;
      case 'tool-output-available': {
        const part = this.toolPart(chunk.toolCallId);
        if (!part) break;
        this.updateTool(
          part,
          { state: 'output-available', input: part.input, output: chunk.output, preliminary: chunk.preliminary },
          // As in the SDK, a dynamic tool's output does not change its providerExecuted.
          part.type === 'dynamic-tool' ? undefined : chunk.providerExecuted,
        );
        break;
      }
      case 'tool-output-error': {
        const part = this.toolPart(chunk.toolCallId);
        if (!part) break;
        const rawInput = part.type === 'dynamic-tool' ? undefined : part.rawInput;
        this.updateTool(
          part,
          { state: 'output-error', input: part.input, ...(rawInput !== undefined ? { rawInput } : {}), errorText: chunk.errorText },
          chunk.providerExecuted,
        );
        break;
      }
      default:
        if (chunk.type.startsWith('data-')) this.applyData(chunk as { type: `data-${string}`; id?: string; data: unknown; transient?: boolean });
        break;
    }
  }

  /**
   * Starts from a stored answer (a turn continued after approvals): its parts, with its tool parts findable by
   * call id for the outputs that follow. The next chunk opens no text of the stored ones.
   */
  restore(parts: readonly unknown[]): void {
    for (const raw of parts) {
      if (typeof raw !== 'object' || raw === null || typeof (raw as StoredPart).type !== 'string') continue;
      const part = structuredClone(raw) as StoredPart;
      this.parts.push(part);
      if (typeof part.toolCallId === 'string') this.tools.set(part.toolCallId, part);
    }
  }

  /** A `data-*` chunk as the SDK reader keeps it: a part, replaced in place by a later chunk of the same type and id; transient ones are not kept. */
  private applyData(chunk: { type: `data-${string}`; id?: string; data: unknown; transient?: boolean }): void {
    if (chunk.transient) return;
    const existing = chunk.id === undefined ? undefined : this.parts.find((part) => part.type === chunk.type && part.id === chunk.id);
    if (existing) existing.data = chunk.data;
    else this.parts.push(chunk.id === undefined ? { type: chunk.type, data: chunk.data } : { type: chunk.type, id: chunk.id, data: chunk.data });
  }

  /**
   * Call once the stream has ended, before storing `parts`: a tool call whose input was still streaming gets
   * the partial parse of its input, as the SDK reader gives it.
   */
  async settle(): Promise<void> {
    for (const part of this.parts) {
      if (part.state !== 'input-streaming' || typeof part.rawInput !== 'string') continue;
      const { value } = await parsePartialJson(part.rawInput);
      if (value !== undefined) part.input = value;
    }
  }

  /** `apply({ type: 'text-delta', id, delta })` without the chunk object (the turn's hot path). */
  appendText(id: string, delta: string): void {
    const open = this.texts.get(id);
    // `part.text` is the whole text after every delta, held flat (see TextAccumulator).
    if (open) open.part.text = open.text.append(delta);
  }

  /** `part.rawInput += delta`, held flat; starts over from the part's `rawInput` when something else set it. */
  private appendRawInput(part: StoredPart, delta: string): void {
    const current = (part.rawInput as string | undefined) ?? '';
    let acc = this.rawInputs.get(part);
    if (acc === undefined || acc.text !== current) {
      acc = new TextAccumulator(current);
      this.rawInputs.set(part, acc);
    }
    part.rawInput = acc.append(delta);
  }

  /** The concatenated text of every text part: the row's `content`. */
  text(): string {
    let out = '';
    for (const part of this.parts) if (part.type === 'text') out += part.text as string;
    return out;
  }

  /** One entry per tool part, in message order. */
  toolCalls(): ToolCallSummary[] {
    const out: ToolCallSummary[] = [];
    for (const part of this.parts) {
      const toolName = part.type === 'dynamic-tool' ? (part.toolName as string) : part.type.startsWith('tool-') ? part.type.slice('tool-'.length) : undefined;
      if (toolName !== undefined) out.push({ toolCallId: part.toolCallId as string, toolName, state: part.state as string });
    }
    return out;
  }

  /** The tool part a chunk about `toolCallId` updates: the current step's, else the newest in the message. */
  private toolPart(toolCallId: string): StoredPart | undefined {
    return this.stepTools.get(toolCallId) ?? this.tools.get(toolCallId);
  }

  /** Updates the current step's part of this call, or adds one. */
  private startTool(
    toolCallId: string,
    toolName: string,
    dynamic: boolean,
    fields: Record<string, unknown>,
    providerExecuted: boolean | undefined,
  ): void {
    const existing = this.stepTools.get(toolCallId);
    if (existing) {
      if (existing.type === 'dynamic-tool') existing.toolName = toolName;
      this.updateTool(existing, fields, providerExecuted);
      return;
    }
    const part: StoredPart = dynamic ? { type: 'dynamic-tool', toolName, toolCallId } : { type: `tool-${toolName}`, toolCallId };
    this.updateTool(part, fields, providerExecuted);
    this.stepTools.set(toolCallId, part);
    this.tools.set(toolCallId, part);
    this.parts.push(part);
  }

  /**
   * Replaces the part's state fields (`input`, `rawInput`, `output`, `errorText`, `preliminary`) with
   * `fields`; `providerExecuted` is kept unless the chunk carries one.
   */
  private updateTool(part: StoredPart, fields: Record<string, unknown>, providerExecuted: boolean | undefined): void {
    for (const key of STATE_FIELDS) delete part[key];
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) part[key] = value;
    if (providerExecuted != null) part.providerExecuted = providerExecuted;
  }
}

const STATE_FIELDS = ['state', 'input', 'rawInput', 'output', 'errorText', 'preliminary'] as const;
