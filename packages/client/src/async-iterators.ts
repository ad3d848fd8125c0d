import type { BatchReader } from './batch-reader.js';

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * One item per `next()`, served from the current batch without touching the network. A hand-written
 * iterator rather than an async generator: much cheaper per item. Calls to `next()` are serialised.
 * `return()` (a `break` in `for await`) cancels the body.
 */
export class ItemIterator<T> implements AsyncIterableIterator<T> {
  private batch: T[] = [];
  private index = 0;
  private pending: Promise<IteratorResult<T, undefined>> | undefined;

  constructor(private readonly reader: BatchReader<T>) {}

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.pending) return this.pending.then(() => this.next());
    if (this.index < this.batch.length) return Promise.resolve({ done: false, value: this.batch[this.index++]! });
    const pending = this.reader.nextBatch().then(
      (batch): IteratorResult<T, undefined> => {
        this.pending = undefined;
        if (batch === undefined) return DONE;
        this.batch = batch;
        this.index = 1;
        return { done: false, value: batch[0]! };
      },
      (error: unknown) => {
        this.pending = undefined;
        throw error;
      },
    );
    this.pending = pending;
    return pending;
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    this.batch = [];
    this.index = 0;
    await this.reader.cancel();
    return DONE;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/** One array per network read (never empty). `return()` cancels the body. */
export class BatchIterator<T> implements AsyncIterableIterator<T[]> {
  constructor(private readonly reader: BatchReader<T>) {}

  async next(): Promise<IteratorResult<T[], undefined>> {
    const batch = await this.reader.nextBatch();
    return batch === undefined ? DONE : { done: false, value: batch };
  }

  async return(): Promise<IteratorResult<T[], undefined>> {
    await this.reader.cancel();
    return DONE;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
