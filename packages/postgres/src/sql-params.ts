/**
 * Collects statement parameters. Every value that comes from input (collection, record id, field names,
 * filter values, cursors) goes through `add` and appears in the SQL text only as `$n`.
 */
export class SqlParams {
  readonly values: (string | null)[] = [];

  /** Adds a parameter and returns its placeholder. */
  add(value: string | null): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** A data field as jsonb: `(data->$n::text)`. */
  field(name: string): string {
    return `(data->${this.add(name)}::text)`;
  }

  /** A JSON value (scalar, object or array) as jsonb: `$n::jsonb`. */
  json(value: unknown): string {
    return `${this.add(JSON.stringify(value))}::jsonb`;
  }
}
