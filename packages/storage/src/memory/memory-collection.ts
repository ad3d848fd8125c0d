import type { DriverQuery } from '../store-driver.js';
import type { FieldCondition, Filter } from '../filter.js';
import { compareSortValues, matchesCondition, toCondition } from '../filter-semantics.js';
import type { MemoryRow } from './memory-row.js';
import { SeqList } from './seq-list.js';
import { decodeMemoryCursor, encodeMemoryCursor } from './memory-cursor.js';

/** How the last query found its rows: through which index, and how many rows it looked at. */
export interface QueryPlan {
  collection: string;
  /** `index:<field>` or `scan`. */
  access: string;
  /** Rows read from the index or the table before filtering. */
  examined: number;
}

/** Hash-index key of a scalar (Map keys keep types apart: 1, '1' and true are three keys); else undefined. */
type IndexKey = string | number | boolean;
function indexKey(value: unknown): IndexKey | undefined {
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' ? (value as IndexKey) : undefined;
}

/** A condition holding nothing but `eq`. */
function onlyEq(condition: FieldCondition): boolean {
  for (const op in condition) if (op !== 'eq' && condition[op as keyof FieldCondition] !== undefined) return false;
  return true;
}

type Source = Pick<SeqList, 'ascending' | 'descending' | 'collect' | 'size'>;

/** What a collection holds, for tests that check deleted rows leave nothing behind. */
export interface MemoryCollectionStats {
  /** Live rows. */
  rows: number;
  /** Slots of the insertion-order list and of every per-value index list (freed slots included). */
  indexEntries: number;
  /** Per-value index lists (one per field and value). */
  indexValues: number;
}

/**
 * One collection of the memory driver: rows by id, rows in insertion order, and hash indexes built lazily
 * for every field a query filters with `eq` or `in` (then maintained on every write). Removing a row
 * takes it out of every list at once, and an index value without rows is dropped.
 */
export class MemoryCollection {
  readonly byId = new Map<string, MemoryRow>();
  private readonly all = new SeqList();
  private readonly indexes = new Map<string, Map<IndexKey, SeqList>>();

  constructor(readonly name: string) {}

  private addTo(index: Map<IndexKey, SeqList>, key: IndexKey | undefined, row: MemoryRow): void {
    if (key === undefined) return;
    let list = index.get(key);
    if (!list) index.set(key, (list = new SeqList()));
    list.add(row);
  }

  private removeFrom(index: Map<IndexKey, SeqList>, key: IndexKey | undefined, row: MemoryRow): void {
    if (key === undefined) return;
    const list = index.get(key);
    if (list?.remove(row) && list.size === 0) index.delete(key);
  }

  private index(field: string): Map<IndexKey, SeqList> {
    let index = this.indexes.get(field);
    if (!index) {
      index = new Map();
      for (const row of this.all.ascending()) this.addTo(index, indexKey(row.data[field]), row);
      this.indexes.set(field, index);
    }
    return index;
  }

  add(row: MemoryRow): void {
    this.byId.set(row.recordId, row);
    this.all.add(row);
    for (const [field, index] of this.indexes) this.addTo(index, indexKey(row.data[field]), row);
  }

  remove(row: MemoryRow): void {
    this.byId.delete(row.recordId);
    this.all.remove(row);
    for (const [field, index] of this.indexes) this.removeFrom(index, indexKey(row.data[field]), row);
  }

  setData(row: MemoryRow, data: MemoryRow['data'], updatedAt: string): void {
    for (const [field, index] of this.indexes) {
      const oldKey = indexKey(row.data[field]);
      const newKey = indexKey(data[field]);
      if (oldKey === newKey) continue;
      this.removeFrom(index, oldKey, row);
      this.addTo(index, newKey, row);
    }
    row.data = data;
    row.updatedAt = updatedAt;
  }

  stats(): MemoryCollectionStats {
    let indexEntries = this.all.slots;
    let indexValues = 0;
    for (const index of this.indexes.values()) {
      indexValues += index.size;
      for (const list of index.values()) indexEntries += list.slots;
    }
    return { rows: this.byId.size, indexEntries, indexValues };
  }

  /**
   * Picks the smallest index list among `eq`/`in` conditions, or the whole table. `exact`: the field whose
   * condition is a lone `eq` read through its index, so every row of the source satisfies it already.
   */
  private plan(conditions: [string, FieldCondition][]): { source: Source; access: string; exact: string | null } {
    let best: { source: Source; access: string; exact: string | null } = { source: this.all, access: 'scan', exact: null };
    for (const [field, condition] of conditions) {
      let source: SeqList | undefined;
      let exact = false;
      if (condition.eq !== undefined && condition.eq !== null) {
        const key = indexKey(condition.eq);
        if (key !== undefined) {
          source = this.index(field).get(key) ?? new SeqList();
          // Index keys keep types apart and compare like `eq` (no null key): the list holds exactly the matches.
          exact = onlyEq(condition);
        }
      } else if (condition.in !== undefined && condition.in.every((v) => indexKey(v) !== undefined)) {
        const index = this.index(field);
        const keys = new Set(condition.in.map((v) => indexKey(v) as IndexKey));
        const rows = [...keys].flatMap((key) => [...(index.get(key)?.ascending() ?? [])]);
        const merged = new SeqList();
        for (const row of rows.sort((a, b) => a.seq - b.seq)) merged.add(row);
        source = merged;
      }
      if (source && (best.access === 'scan' || source.size < best.source.size)) {
        best = { source, access: `index:${field}`, exact: exact ? field : null };
      }
    }
    return best;
  }

  /** Every row matching `filter`, in insertion order, read through the best index (as `query` does). */
  select(filter: Filter | undefined): { rows: MemoryRow[]; plan: QueryPlan } {
    const conditions = Object.entries(filter ?? {}).map(([field, value]) => [field, toCondition(value)] as [string, FieldCondition]);
    const { source, access } = this.plan(conditions);
    const rows: MemoryRow[] = [];
    let examined = 0;
    for (const row of source.ascending()) {
      examined++;
      if (conditions.every(([f, c]) => matchesCondition(row.data[f], c))) rows.push(row);
    }
    return { rows, plan: { collection: this.name, access, examined } };
  }

  query(query: DriverQuery): { rows: MemoryRow[]; nextCursor: string | null; plan: QueryPlan } {
    const conditions = Object.entries(query.filter ?? {}).map(
      ([field, value]) => [field, toCondition(value)] as [string, FieldCondition],
    );
    const field = query.orderBy?.field ?? 'createdAt';
    const direction = query.orderBy?.direction ?? 'asc';
    const cursor = query.cursor === undefined ? null : decodeMemoryCursor(this.name, query.cursor, field, direction);
    const { source, access, exact } = this.plan(conditions);
    const checks = exact === null ? conditions : conditions.filter(([f]) => f !== exact);
    const matches = (row: MemoryRow) => {
      for (const [f, c] of checks) if (!matchesCondition(row.data[f], c)) return false;
      return true;
    };
    const limit = query.limit;
    let examined = 0;
    let page: MemoryRow[] = [];
    if (field === 'createdAt') {
      // createdAt never goes backwards (the driver clock is monotonic), so it is insertion order.
      examined = source.collect(direction, cursor?.seq, limit + 1, checks.length === 0 ? null : matches, page);
    } else {
      const sign = direction === 'asc' ? 1 : -1;
      const cmp = (aKey: unknown, aSeq: number, b: MemoryRow) =>
        sign * (compareSortValues(aKey, b.data[field]) || aSeq - b.seq);
      const matched: MemoryRow[] = [];
      for (const row of source.ascending()) {
        examined++;
        if (matches(row)) matched.push(row);
      }
      matched.sort((a, b) => cmp(a.data[field], a.seq, b));
      let start = 0;
      if (cursor) {
        let hi = matched.length;
        while (start < hi) {
          const mid = (start + hi) >>> 1;
          if (cmp(cursor.key, cursor.seq, matched[mid] as MemoryRow) >= 0) start = mid + 1;
          else hi = mid;
        }
      }
      page = matched.slice(start, start + limit + 1);
    }
    const more = page.length > limit;
    if (more) page.length = limit;
    const last = page[page.length - 1];
    return {
      rows: page,
      nextCursor: more && last ? encodeMemoryCursor(last, field, direction) : null,
      plan: { collection: this.name, access, examined },
    };
  }
}
