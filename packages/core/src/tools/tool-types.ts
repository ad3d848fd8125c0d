import type { Caller, RecordAccess } from '@chatwire/storage';
import type { ToolSet } from 'ai';
import type { z } from 'zod';
import type { ToolSourceProblem } from './tool-source.js';
import type { NeedsApproval } from '../approval/approval-rule.js';

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
  /**
   * Ask the user before each call runs: `true`, or a function of the input and the caller (the caller's
   * fields plus `toolCallId` and `messages`, so an AI SDK 6/7 tool's function works as it is). The turn
   * pauses with a `data-tool-approval` chunk; `POST /chat` with `trigger: "approval"` answers it.
   */
  needsApproval?: NeedsApproval;
  execute(input: TInput, context: ToolContext): Promise<TOutput> | TOutput;
}

export interface ToolCatalog {
  /** Catalog names (dotted, e.g. `records.query`) of the tools offered to the model. */
  readonly names: readonly string[];
  /** The AI SDK tool set for one turn, keyed by wire name (`records_query`), bound to the caller. */
  forTurn(context: ToolContext): ToolSet;
  /**
   * The tools of one turn, with those of tool sources (MCP servers) opened as the caller. When present, a turn
   * uses it instead of `forTurn` and calls `close()` when its model phase ends (completed, stopped or aborted).
   */
  openTurn?(context: ToolContext): Promise<TurnTools>;
}

/** Where an offered tool comes from: chatwire's own, the app's, or an MCP server (named by `server`). */
export type ToolOrigin = { source: 'built-in' } | { source: 'custom' } | { source: 'mcp'; server: string };

/** One tool a turn offers, as `GET /tools` lists it. */
export type OfferedTool = { name: string; description: string } & ToolOrigin;

/** The tools of one turn. */
export interface TurnTools {
  /** The AI SDK tool set, keyed by wire name. */
  tools: ToolSet;
  /** The same tools as `GET /tools` lists them. */
  offered: readonly OfferedTool[];
  /** Parts of tool sources left out of this turn (an unreachable MCP server, a changed tool definition). */
  problems: readonly ToolSourceProblem[];
  /** Lets go of the tool sources' connections; never throws. */
  close(): Promise<void>;
}
