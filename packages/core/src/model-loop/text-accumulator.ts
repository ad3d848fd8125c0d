/** How many appends a text may hold as a tree of pieces before it is copied into one flat string. */
const FLATTEN_EVERY = 32;

/**
 * A text built from streamed deltas, held at about one byte per character. `text += delta` in V8 makes a
 * cons string: a 32-byte node per append that also keeps the delta's own string alive, so a 1,000-delta answer
 * holds ~60 KB per accumulator for 3 KB of text. This keeps the same always-complete string (`append`
 * returns it), but every `FLATTEN_EVERY` appends it joins the flat text so far and the recent deltas into
 * one new flat string (`Array.prototype.join` always copies when it has two or more non-empty pieces), so
 * at most `FLATTEN_EVERY` cons nodes hang off the flat part. The copy costs the text's length every
 * `FLATTEN_EVERY` deltas: negligible next to the per-delta work for any answer a model writes.
 */
export class TextAccumulator {
  private flat: string;
  private full: string;
  private readonly recent: string[] = [];

  constructor(initial = '') {
    this.flat = initial;
    this.full = initial;
  }

  /** The whole text so far. */
  get text(): string {
    return this.full;
  }

  /** The whole text after `delta`. */
  append(delta: string): string {
    this.full += delta;
    if (this.recent.push(delta) >= FLATTEN_EVERY) {
      this.recent.unshift(this.flat);
      this.flat = this.full = this.recent.join('');
      this.recent.length = 0;
    }
    return this.full;
  }
}
