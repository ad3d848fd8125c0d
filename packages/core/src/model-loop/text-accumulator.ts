/** Deltas joined into one flat piece of the text. */
const PIECE_DELTAS = 32;

/**
 * A text built from streamed deltas, held at about one byte per character. `text += delta` in V8 makes a
 * cons string: a 32-byte node per append that also keeps the delta's own string alive, so a 1,000-delta answer
 * holds ~60 KB per accumulator for 3 KB of text. This keeps the same always-complete string (`append`
 * returns it), but joins every `PIECE_DELTAS` deltas into one flat piece (`Array.prototype.join` copies
 * whenever it has two or more non-empty parts) and appends the piece instead: the text is then a chain of one
 * cons node per piece, plus the nodes of at most `PIECE_DELTAS` recent deltas. Only the recent deltas are
 * ever copied (copying the whole text again would make a long answer quadratic), and reading the string
 * flattens it once as it would have anyway.
 */
export class TextAccumulator {
  /** The text up to the recent deltas: a chain of flat pieces. */
  private pieces: string;
  private full: string;
  private readonly recent: string[] = [];

  constructor(initial = '') {
    this.pieces = initial;
    this.full = initial;
  }

  /** The whole text so far. */
  get text(): string {
    return this.full;
  }

  /** The whole text after `delta`. */
  append(delta: string): string {
    this.full += delta;
    if (this.recent.push(delta) >= PIECE_DELTAS) {
      this.full = this.pieces += this.recent.join('');
      this.recent.length = 0;
    }
    return this.full;
  }
}
