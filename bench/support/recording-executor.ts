import type { SqlExecutor, SqlValue } from '@chatwire/postgres';

/** The statement a recording executor saw last. */
export interface Statement {
  text: string;
  params: SqlValue[];
}

/** Records the statements a driver sends, so a bench can EXPLAIN exactly what it timed. */
export function recording(executor: SqlExecutor, last: Statement): SqlExecutor {
  return {
    ...executor,
    query: (text, params) => {
      last.text = text;
      last.params = [...(params ?? [])];
      return executor.query(text, params);
    },
  };
}
