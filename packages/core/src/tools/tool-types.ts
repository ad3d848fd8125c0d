import type { Caller, RecordAccess } from '@chatwire/storage';
import type { ToolSet } from 'ai';
import type { z } from 'zod';

/** What every tool call receives: the caller, record access with the caller's rights, and the turn's abort signal. */
export interface ToolContext {
  caller: Caller;
  records: RecordAccess;
  abortSignal: AbortSignal;
}

/** A catalog or custom tool. `inputSchema` is sent to the model and validates input at run time. */
export interface ChatwireTool<TInput = any, TOutput = unknown> {
  description: string;
  inputSchema: z.ZodType<TInput>;
  /**
   * Told to the model when a result is cut to `toolResultCap` bytes: how to ask for less
   * (e.g. "Ask for a smaller `limit`."). Default: a generic hint.
   */
  resultCapHint?: string;
  execute(input: TInput, context: ToolContext): Promise<TOutput> | TOutput;
}

export interface ToolCatalog {
  /** Catalog names (dotted, e.g. `records.query`) of the tools offered to the model. */
  readonly names: readonly string[];
  /** The AI SDK tool set for one turn, keyed by wire name (`records_query`), bound to the caller. */
  forTurn(context: ToolContext): ToolSet;
}
