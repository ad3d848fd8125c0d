import type { Caller, TurnLease } from '@chatwire/storage';
import { AssistantMessageBuilder } from './assistant-message-builder.js';
import { preparePrompt, type PreparedPrompt } from './prepare-prompt.js';
import { settleTurn } from './settle-turn.js';
import { streamModel, type StreamOutcome } from './stream-model.js';
import { TurnInterrupt, type InterruptKind, type TurnEnding } from './turn-ending.js';
import { TurnOutput } from './turn-output.js';
import type { TurnPlan } from './turn-plan.js';
import type { TurnModel, TurnRuntime } from './turn-runtime.js';
import { releaseLease } from './release-lease.js';
import type { TurnObserver } from './turn-observer.js';
import { safeErrorText } from './error-text.js';
import { branchStartMetadata } from '../branches/place-turn.js';
import type { ToolSourceProblem } from '../tools/tool-source.js';

const EMPTY_USAGE = { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined };

export interface TurnInit {
  /** The assistant message id: `X-Asst-Id`, the `start` chunk's messageId, the assistant and turn rows' id. */
  id: string;
  chatId: string;
  caller: Caller;
  plan: TurnPlan;
  model: TurnModel;
  lease: TurnLease;
  /** The caller's token: the provider bills the caller. Omitted: the app owner pays. */
  authToken: string | undefined;
  /** The chat does not exist yet: it is created with the turn's rows. */
  newChatTitle: string | null;
}

/**
 * One turn of one chat, from the moment it holds the chat's lease to the moment it frees it. It runs three
 * phases, each in its own file: `preparePrompt` (history and compaction), `streamModel` (model steps, the
 * tool loop, chunks to the client) and `settleTurn` (store or discard). Whatever happens, `run` ends with a
 * `TurnEnding`, the lease released and the stream closed with `[DONE]`.
 *
 * A turn belongs to its chat, not to the connection that started it: the connection is one reader of its
 * output, `interrupt` can come from the client leaving, the stop route, a timeout or a lost lease.
 */
export class Turn {
  readonly id: string;
  readonly chatId: string;
  readonly caller: Caller;
  readonly plan: TurnPlan;
  readonly model: TurnModel;
  readonly lease: TurnLease;
  readonly authToken: string | undefined;
  readonly newChatTitle: string | null;
  readonly startedAt = Date.now();
  /** Watches this turn's phases (telemetry). */
  readonly observer: TurnObserver;
  /** The assistant message as the client was sent it: what a completed or stopped turn stores. */
  readonly answer = new AssistantMessageBuilder();
  readonly output: TurnOutput;
  /** Tool sources (MCP servers) or their tools left out of this turn: stored with the turn's row. */
  readonly toolSourceErrors: { server: string; tool?: string; message: string }[] = [];
  /** Settles with the ending once the turn's rows are stored (or discarded) and its lease is released. */
  readonly ended: Promise<TurnEnding>;
  private readonly controller = new AbortController();
  private resolveEnded!: (ending: TurnEnding) => void;

  constructor(
    init: TurnInit,
    private readonly runtime: TurnRuntime,
  ) {
    this.id = init.id;
    this.chatId = init.chatId;
    this.caller = init.caller;
    this.plan = init.plan;
    this.model = init.model;
    this.lease = init.lease;
    this.authToken = init.authToken;
    this.newChatTitle = init.newChatTitle;
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    this.output = new TurnOutput(runtime.hub.open(this.chatId, this.id), () => this.disconnected());
    this.observer = runtime.observe({
      id: this.id,
      chatId: this.chatId,
      userId: this.caller.userId,
      modelId: this.model.modelId,
      provider: this.model.provider,
      trigger: this.plan.trigger,
    });
  }

  /** Aborted when the turn is interrupted; the reason is a `TurnInterrupt`. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Interrupts the running turn (the first reason wins). */
  interrupt(kind: InterruptKind): void {
    if (!this.controller.signal.aborted) this.controller.abort(new TurnInterrupt(kind));
  }

  /** The request that started the turn went away: abort, or keep going for readers that attach later. */
  disconnected(): void {
    if (this.runtime.onDisconnect === 'abort') this.interrupt('disconnect');
  }

  report(error: unknown, stage: Parameters<TurnRuntime['report']>[1]['stage']): void {
    this.runtime.report(error, { stage, chatId: this.chatId, userId: this.caller.userId });
  }

  /** A tool source, or one of its tools, left out of this turn: reported and recorded with the turn. */
  toolSourceProblem({ server, tool, error }: ToolSourceProblem): void {
    this.report(error, 'tool');
    const message = error instanceof Error ? error.message : String(error);
    this.toolSourceErrors.push({ server, ...(tool === undefined ? {} : { tool }), message });
  }

  /** Runs the turn to its ending. Called once, right after the turn took its chat's lease. */
  async run(): Promise<TurnEnding> {
    const rt = this.runtime;
    const renew = this.keepLease();
    let ending: TurnEnding;
    let outcome: StreamOutcome | null = null;
    try {
      this.output.send({ type: 'start', messageId: this.id, ...branchStartMetadata(this.plan.branch) });
      let prompt: PreparedPrompt | null = null;
      try {
        prompt = await this.observer.prepare(() => preparePrompt(this, rt));
        outcome = await streamModel(this, prompt, rt);
      } catch (error) {
        outcome = this.signal.aborted
          ? { kind: 'interrupted', interrupt: TurnInterrupt.kindOf(this.signal), usage: EMPTY_USAGE, steps: 0 }
          : { kind: 'failed', error, stage: 'history' };
        if (outcome.kind === 'failed') this.report(error, 'history');
      }
      ending = await settleTurn(this, prompt, outcome, rt);
    } catch (error) {
      // A bug, not a turn outcome: still end the stream cleanly and free the chat.
      this.report(error, 'internal');
      const errorText = safeErrorText(error);
      this.output.send({ type: 'error', errorText });
      ending = { kind: 'failed', errorText };
    }
    clearInterval(renew);
    // Ends the provider call and tools of a turn that is over, whatever ended it.
    this.interrupt('ended');
    // Freed before [DONE]: a client that sends its next message on [DONE] must not get CHAT_BUSY.
    await releaseLease(this.lease, rt.leaseTtlMs, (error) => this.report(error, 'lease'));
    await this.output.end().catch((error: unknown) => this.report(error, 'internal'));
    const usage = outcome !== null && outcome.kind !== 'failed' ? outcome.usage : EMPTY_USAGE;
    this.resolveEnded(ending);
    try {
      this.observer.ended(ending, usage);
      if (ending.kind === 'completed' || ending.kind === 'stopped' || ending.kind === 'awaiting-approval') rt.limits?.used?.(this.caller, usage);
    } catch (error) {
      this.report(error, 'internal');
    }
    if (rt.bus) {
      await rt.bus
        .publish(this.chatId, { type: 'ended', turnId: this.id, ending: ending.kind })
        .catch((error: unknown) => this.report(error, 'internal'));
    }
    return ending;
  }

  /** Renews the lease while the turn runs; a lease that cannot be renewed was taken over: stop. */
  private keepLease(): ReturnType<typeof setInterval> {
    const timer = setInterval(() => {
      this.lease.renew().then(
        (held) => {
          if (!held) this.interrupt('lost-lease');
        },
        (error: unknown) => this.report(error, 'lease'),
      );
    }, Math.max(50, Math.floor(this.runtime.leaseTtlMs / 3)));
    timer.unref?.();
    return timer;
  }
}
