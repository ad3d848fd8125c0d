import type { MemoryRow } from './memory-row.js';

/**
 * Rows sorted by insertion sequence. Removal is lazy: entries whose row is no longer valid for this list
 * (deleted, or moved to another index value) are skipped while iterating and swept out once they
 * outnumber the live ones, so deleting from a list of a million rows stays O(1) amortised.
 */
export class SeqList {
  private rows: MemoryRow[] = [];
  private stale = 0;

  constructor(private readonly isValid: (row: MemoryRow) => boolean) {}

  get size(): number {
    return this.rows.length - this.stale;
  }

  /** Adds the row at its sequence position unless it is already there (then it counts as live again). */
  add(row: MemoryRow): void {
    const last = this.rows[this.rows.length - 1];
    if (last === undefined || last.seq < row.seq) {
      this.rows.push(row);
      return;
    }
    const i = this.lowerBound(row.seq);
    if (this.rows[i]?.seq === row.seq) {
      this.stale = Math.max(0, this.stale - 1);
      return;
    }
    this.rows.splice(i, 0, row);
  }

  /** Call when an entry stopped being valid for this list. */
  markStale(): void {
    this.stale++;
    if (this.stale > 64 && this.stale * 2 > this.rows.length) {
      this.rows = this.rows.filter(this.isValid);
      this.stale = 0;
    }
  }

  /** Index of the first entry with `seq >= target`. */
  private lowerBound(target: number): number {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.rows[mid] as MemoryRow).seq < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Valid rows in ascending sequence, starting after `afterSeq` (exclusive). */
  *ascending(afterSeq = -Infinity): Generator<MemoryRow> {
    const rows = this.rows;
    for (let i = afterSeq === -Infinity ? 0 : this.lowerBound(afterSeq + 1); i < rows.length; i++) {
      const row = rows[i] as MemoryRow;
      if (this.isValid(row)) yield row;
    }
  }

  /** Valid rows in descending sequence, starting before `beforeSeq` (exclusive). */
  *descending(beforeSeq = Infinity): Generator<MemoryRow> {
    const rows = this.rows;
    for (let i = beforeSeq === Infinity ? rows.length - 1 : this.lowerBound(beforeSeq) - 1; i >= 0; i--) {
      const row = rows[i] as MemoryRow;
      if (this.isValid(row)) yield row;
    }
  }
}
