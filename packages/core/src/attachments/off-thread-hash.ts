import { createHash, type Hash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/**
 * SHA-256 of an upload, computed on a worker thread so that the thread serving requests only copies bytes
 * (hashing is ~0.7 ms per MiB; the copy into shared memory ~0.08). Bytes are copied into 256 KiB slots of
 * shared memory (a pool reused across uploads: transferring or allocating a fresh buffer per batch costs more
 * than the hash it moves away), a full slot goes to the worker, and at most two slots of one upload wait
 * there: past that, `update` returns a promise to await (the upload stops being read until the worker caught
 * up), so memory stays bounded when the worker is slower than the socket.
 *
 * An upload that ends within its first batch never reaches the worker: it is hashed on this thread, where
 * that is cheaper than a round trip. Without a usable worker (it failed to start or died), new uploads are
 * hashed on this thread; uploads the dead worker held fail their `digest`.
 */
export interface UploadHash {
  /** Adds bytes (copied: the caller may reuse `chunk`). A promise means: wait before the next update. */
  update(chunk: Uint8Array): Promise<void> | undefined;
  /** The SHA-256 of all bytes, hex. Call once, after the last update. */
  digest(): Promise<string>;
  /** Forgets the upload (an upload that failed): frees what the worker holds for it. */
  dispose(): void;
}

const SLOT = 256 * 1024;
/** Slots of one upload at the worker at once. */
const MAX_IN_FLIGHT = 2;
/** Free slots kept for reuse; more are left to the garbage collector. */
const POOL_KEEP = 16;

// The worker keeps one hash per upload id; it acknowledges every slot and answers the final digest.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
parentPort.on('message', (m) => {
  if (m.drop) return void hashes.delete(m.id);
  let hash = hashes.get(m.id);
  if (!hash) hashes.set(m.id, (hash = createHash('sha256')));
  if (m.slot) hash.update(new Uint8Array(m.slot, 0, m.length));
  if (m.end) {
    hashes.delete(m.id);
    parentPort.postMessage({ id: m.id, hex: hash.digest('hex'), slot: m.slot });
  } else parentPort.postMessage({ id: m.id, slot: m.slot });
});
`;

interface Pending {
  acked(slot: SharedArrayBuffer): void;
  done(hex: string): void;
  failed(error: Error): void;
}

interface HashWorker {
  post(message: { id: number; slot?: SharedArrayBuffer; length?: number; end?: boolean; drop?: boolean }): void;
  open(id: number, pending: Pending): void;
  close(id: number): void;
  /** A digest was answered. */
  digested(): void;
}

let shared: HashWorker | null | undefined;

/** The process's hashing worker, started on first use; null once it could not start or died. */
function hashWorker(): HashWorker | null {
  if (shared !== undefined) return shared;
  let worker: Worker;
  try {
    worker = new Worker(WORKER_SOURCE, { eval: true });
  } catch {
    return (shared = null);
  }
  worker.unref();
  const open = new Map<number, Pending>();
  const fail = (error: Error) => {
    shared = null; // new uploads hash on this thread
    for (const pending of open.values()) pending.failed(error);
    open.clear();
  };
  worker.on('message', (m: { id: number; slot?: SharedArrayBuffer; hex?: string }) => {
    const pending = open.get(m.id);
    if (m.slot) release(m.slot);
    if (m.hex !== undefined) shared?.digested();
    if (!pending) return;
    if (m.hex !== undefined) pending.done(m.hex);
    else if (m.slot) pending.acked(m.slot);
  });
  worker.on('error', (error) => fail(error));
  worker.on('exit', (code) => fail(new Error(`The hashing worker exited (code ${code})`)));
  let digests = 0;
  return (shared = {
    post(message) {
      // Referenced while a digest is awaited, so that promise keeps the process alive (an upload's socket does until then).
      if (message.end && digests++ === 0) worker.ref();
      worker.postMessage(message);
    },
    open: (id, pending) => void open.set(id, pending),
    close(id) {
      open.delete(id);
    },
    digested() {
      if (--digests === 0) worker.unref();
    },
  });
}

const pool: SharedArrayBuffer[] = [];
const acquire = (): SharedArrayBuffer => pool.pop() ?? new SharedArrayBuffer(SLOT);
function release(slot: SharedArrayBuffer): void {
  if (pool.length < POOL_KEEP) pool.push(slot);
}

let nextId = 0;

/** A new upload's hash (see `UploadHash`). */
export function createUploadHash(): UploadHash {
  const id = nextId++;
  let slot: Uint8Array | null = null; // the slot being filled
  let filled = 0;
  let local: Hash | null = null; // set when this upload is hashed on this thread
  let worker: HashWorker | null = null;
  let inFlight = 0;
  let waiting: { resolve(): void; reject(error: Error): void } | null = null;
  let finished: { resolve(hex: string): void; reject(error: Error): void } | null = null;
  let failure: Error | null = null;

  const start = (): void => {
    worker = hashWorker();
    if (!worker) {
      local = createHash('sha256');
      return;
    }
    worker.open(id, {
      acked() {
        inFlight--;
        if (waiting && inFlight < MAX_IN_FLIGHT) {
          waiting.resolve();
          waiting = null;
        }
      },
      done(hex) {
        worker!.close(id);
        finished?.resolve(hex);
      },
      failed(error) {
        failure = error;
        waiting?.reject(error);
        finished?.reject(error);
      },
    });
  };
  /** Hands the slot to the worker (or hashes it here without one). */
  const flush = (end: boolean): void => {
    if (!worker && !local) start();
    if (local) {
      if (slot) local.update(slot.subarray(0, filled));
    } else {
      worker!.post({ id, slot: slot?.buffer as SharedArrayBuffer | undefined, length: filled, end });
      if (slot && !end) inFlight++;
    }
    if (local && slot) release(slot.buffer as SharedArrayBuffer);
    slot = null;
    filled = 0;
  };

  return {
    update(chunk) {
      if (failure) return Promise.reject(failure);
      if (local) {
        local.update(chunk);
        return undefined;
      }
      for (let offset = 0; offset < chunk.byteLength; ) {
        slot ??= new Uint8Array(acquire());
        const n = Math.min(SLOT - filled, chunk.byteLength - offset);
        slot.set(chunk.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === SLOT) flush(false);
        const started = local as Hash | null; // set by flush when no worker could start
        if (started) {
          started.update(chunk.subarray(offset)); // no worker: the rest hashes here
          return undefined;
        }
      }
      if (inFlight < MAX_IN_FLIGHT) return undefined;
      return new Promise<void>((resolve, reject) => (waiting = { resolve, reject }));
    },
    digest() {
      if (failure) return Promise.reject(failure);
      if (local) return Promise.resolve(local.digest('hex'));
      if (!worker) {
        // Within one slot: hashing here is cheaper than a round trip.
        const hex = createHash('sha256').update(slot ? slot.subarray(0, filled) : new Uint8Array(0)).digest('hex');
        if (slot) release(slot.buffer as SharedArrayBuffer);
        slot = null;
        return Promise.resolve(hex);
      }
      const result = new Promise<string>((resolve, reject) => (finished = { resolve, reject }));
      flush(true);
      return result;
    },
    dispose() {
      if (worker && !failure) {
        worker.post({ id, drop: true });
        worker.close(id);
      }
      if (slot) release(slot.buffer as SharedArrayBuffer);
      slot = null;
    },
  };
}
