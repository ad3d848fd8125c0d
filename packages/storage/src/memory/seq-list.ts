import type { MemoryRow } from './memory-row.js';

/**
 * Rows sorted by insertion sequence, in two parallel arrays (sequences and rows). `remove` frees the row
 * at once (its slot keeps only the sequence number) and the freed slots are compacted away once they are
 * at least half the list, so removals stay O(log n) amortised and a deleted row is never kept alive. A
 * list whose last row is removed holds nothing.
 */
export class SeqList {
  private seqs: number[] = [];
  private rows: (MemoryRow | null)[] = [];
  private freed = 0;

  /** Rows in the list. */
  get size(): number {
    return this.rows.length - this.freed;
  }

  /** Slots held, freed ones included (for memory accounting). */
  get slots(): number {
    return this.rows.length;
  }

  /** Adds the row at its sequence position unless it is already there. */
  add(row: MemoryRow): void {
    const n = this.seqs.length;
    if (n === 0 || (this.seqs[n - 1] as number) < row.seq) {
      this.seqs.push(row.seq);
      this.rows.push(row);
      return;
    }
    const i = this.lowerBound(row.seq);
    if (this.seqs[i] === row.seq) {
      if (this.rows[i] === null) this.freed--;
      this.rows[i] = row;
      return;
    }
    this.seqs.splice(i, 0, row.seq);
    this.rows.splice(i, 0, row);
  }

  /** Removes the row; false when it was not in the list. */
  remove(row: MemoryRow): boolean {
    const i = this.lowerBound(row.seq);
    if (this.seqs[i] !== row.seq || this.rows[i] === null || this.rows[i] === undefined) return false;
    this.rows[i] = null;
    this.freed++;
    if (this.freed === this.rows.length) {
      this.seqs = [];
      this.rows = [];
      this.freed = 0;
    } else if (this.freed * 2 >= this.rows.length) {
      this.compact();
    }
    return true;
  }

  private compact(): void {
    const seqs: number[] = [];
    const rows: MemoryRow[] = [];
    for (let i = 0; i < this.rows.length; i++) {
      const row = this.rows[i];
      if (row) {
        seqs.push(this.seqs[i] as number);
        rows.push(row);
      }
    }
    this.seqs = seqs;
    this.rows = rows;
    this.freed = 0;
  }

  /** Index of the first entry with `seq >= target`. */
  private lowerBound(target: number): number {
    let lo = 0;
    let hi = this.seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.seqs[mid] as number) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Appends to `out` the rows `accept` takes (every row when null), ascending after `boundary` or
   * descending before it (exclusive; none: from the start or the end), until `out` holds `stopAt` rows.
   * Returns how many rows were looked at. A plain loop: the generators below cost more per row.
   */
  collect(
    direction: 'asc' | 'desc',
    boundary: number | undefined,
    stopAt: number,
    accept: ((row: MemoryRow) => boolean) | null,
    out: MemoryRow[],
  ): number {
    const rows = this.rows;
    let examined = 0;
    if (out.length >= stopAt) return 0;
    if (direction === 'asc') {
      for (let i = boundary === undefined ? 0 : this.lowerBound(boundary + 1); i < rows.length; i++) {
        const row = rows[i];
        if (!row) continue;
        examined++;
        if ((accept === null || accept(row)) && out.push(row) >= stopAt) break;
      }
    } else {
      for (let i = boundary === undefined ? rows.length - 1 : this.lowerBound(boundary) - 1; i >= 0; i--) {
        const row = rows[i];
        if (!row) continue;
        examined++;
        if ((accept === null || accept(row)) && out.push(row) >= stopAt) break;
      }
    }
    return examined;
  }

  /** Rows in ascending sequence, starting after `afterSeq` (exclusive). */
  *ascending(afterSeq = -Infinity): Generator<MemoryRow> {
    const rows = this.rows;
    for (let i = afterSeq === -Infinity ? 0 : this.lowerBound(afterSeq + 1); i < rows.length; i++) {
      const row = rows[i];
      if (row) yield row;
    }
  }

  /** Rows in descending sequence, starting before `beforeSeq` (exclusive). */
  *descending(beforeSeq = Infinity): Generator<MemoryRow> {
    const rows = this.rows;
    for (let i = beforeSeq === Infinity ? rows.length - 1 : this.lowerBound(beforeSeq) - 1; i >= 0; i--) {
      const row = rows[i];
      if (row) yield row;
    }
  }
}
