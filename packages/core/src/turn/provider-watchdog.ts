import type { InterruptKind } from './turn-ending.js';

/**
 * Ends a turn whose provider stalls: no first chunk within `firstByteMs` of a model call, or no chunk for
 * `idleMs` once it started answering. Time spent running tools is not provider time, so the clock stops
 * while tool calls are pending and restarts (as a first-byte wait) when the next model call begins.
 *
 * One timer per turn, not one per chunk: a chunk only records the time, and the timer re-arms itself for
 * whatever is left when it fires early.
 */
export class ProviderWatchdog {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pendingTools = 0;
  private waitingFor: InterruptKind = 'first-byte-timeout';
  private since = 0;
  private stopped = false;

  constructor(
    private readonly firstByteMs: number,
    private readonly idleMs: number,
    private readonly onTimeout: (kind: InterruptKind) => void,
  ) {}

  /** A model call was sent: wait for its first chunk. */
  modelCallStarted(): void {
    this.watch('first-byte-timeout');
  }

  /** A part of the full stream arrived. */
  saw(type: string): void {
    // The SDK's own opening part, not a byte from the provider.
    if (type === 'start') return;
    if (type === 'tool-call') this.pendingTools++;
    else if (type === 'tool-result' || type === 'tool-error') this.pendingTools = Math.max(0, this.pendingTools - 1);
    else if (type === 'finish-step') {
      // The next step (if any) is a new model call; its tools were all answered within this step.
      this.pendingTools = 0;
      return this.watch('first-byte-timeout');
    }
    if (this.pendingTools > 0) this.pause();
    else if (this.waitingFor === 'idle-timeout' && this.timer !== null) this.since = Date.now();
    else this.watch('idle-timeout');
  }

  /** The model phase is over. */
  clear(): void {
    this.stopped = true;
    this.pause();
  }

  private pause(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private watch(kind: InterruptKind): void {
    this.waitingFor = kind;
    this.since = Date.now();
    this.pause();
    this.schedule(this.limit());
  }

  private limit(): number {
    return this.waitingFor === 'first-byte-timeout' ? this.firstByteMs : this.idleMs;
  }

  private schedule(ms: number): void {
    if (this.stopped || !Number.isFinite(ms) || ms <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const left = this.since + this.limit() - Date.now();
      if (left > 0) this.schedule(left);
      else this.onTimeout(this.waitingFor);
    }, ms);
    this.timer.unref?.();
  }
}
