import type { LanguageModelV2StreamPart, LanguageModelV2Usage, SharedV2ProviderMetadata } from '@ai-sdk/provider';
import type { CallWarning, ToolSet } from 'ai';
import { NO_USAGE } from './add-usage.js';
import type { ParsedToolCall } from './parse-tool-call.js';
import type { StepContentPart } from './step-content.js';
import { TextAccumulator } from './text-accumulator.js';
import type { PausedCall } from '../approval/approval-types.js';

/** How a step ended: the provider's reason, `error` after an error part, `unknown` while none came. */
export type StepFinishReason = Extract<LanguageModelV2StreamPart, { type: 'finish' }>['finishReason'] | 'error';

type OpenBlock = Extract<StepContentPart, { type: 'text' | 'reasoning' }>;

/** What one model step has read so far: its content for the next step, its tool calls, and how it finished. */
export class StepState {
  /** What the step produced, in order: what the next step's prompt is built from. */
  readonly content: StepContentPart[] = [];
  readonly calls: ParsedToolCall[] = [];
  /** Valid calls of tools this process runs once the model call has finished. */
  readonly pending: ParsedToolCall[] = [];
  /** The step's calls, when one of them waits for the user's approval (none of them ran). */
  awaiting: PausedCall[] | null = null;
  /** Each valid call's parsed input, by call id (a provider's result carries none). */
  readonly inputs = new Map<string, unknown>();
  /** The tool name of each tool input being streamed, by its id. */
  readonly inputTools = new Map<string, string>();
  warnings: CallWarning[] = [];
  finishReason: StepFinishReason = 'unknown';
  usage: LanguageModelV2Usage = NO_USAGE;
  providerMetadata: SharedV2ProviderMetadata | undefined;
  response: { id: string; timestamp: Date; modelId: string };
  /** Text and reasoning blocks still open, by id (each is also in `content`), with their text's accumulator. */
  private readonly open = new Map<string, { block: OpenBlock; text: TextAccumulator }>();

  constructor(
    readonly tools: ToolSet,
    modelId: string,
  ) {
    this.response = { id: '', timestamp: new Date(), modelId };
  }

  openBlock(id: string, type: OpenBlock['type'], providerMetadata: SharedV2ProviderMetadata | undefined): void {
    const block: OpenBlock = { type, text: '', providerMetadata };
    this.open.set(id, { block, text: new TextAccumulator() });
    this.content.push(block);
  }

  appendText(id: string, delta: string, providerMetadata: SharedV2ProviderMetadata | undefined): void {
    const open = this.open.get(id);
    if (!open) return;
    // `block.text` is the whole text after every delta, held flat (see TextAccumulator).
    open.block.text = open.text.append(delta);
    if (providerMetadata != null) open.block.providerMetadata = providerMetadata;
  }

  closeBlock(id: string, providerMetadata: SharedV2ProviderMetadata | undefined): void {
    const block = this.open.get(id)?.block;
    if (block && providerMetadata != null) block.providerMetadata = providerMetadata;
    this.open.delete(id);
  }
}
