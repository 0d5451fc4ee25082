// Fixed queries of the hot read paths built by Kysely once per shape instead of on every request. The query is still
// defined in one place, by its Kysely builder: the builder runs once per shape (which optional parts it has) with
// named markers in place of the values, and the compiled SQL is kept with the names of its parameters in order; a
// request then only fills the values in and runs the SQL (on SQLite through the prepared-statement cache of
// database.ts). The SQL and parameters are exactly those the builder would produce for the same values.
import { CompiledQuery, type Compilable } from 'kysely';
import { isPostgres, type Executor } from './database.ts';

const MARK = Symbol('parameter');

interface Marker {
  readonly [MARK]: string;
}

/** A marker for the named value (typed as whatever the builder expects there). */
export const param = <T = never>(name: string): T => ({ [MARK]: name }) as Marker as T;

interface Compiled {
  sql: string;
  names: string[];
}

/** A query of several shapes: `shape(values)` names the shape, `build` builds it with markers for the values. */
export interface OnceQuery<V extends Record<string, unknown>> {
  rows<R>(db: Executor, values: V): Promise<R[]>;
}

export function compiledOnce<V extends Record<string, unknown>>(
  shape: (values: V) => string,
  build: (db: Executor, values: V) => Compilable<unknown>,
): OnceQuery<V> {
  const cache = new Map<string, Compiled>();
  return {
    async rows<R>(db: Executor, values: V): Promise<R[]> {
      const key = `${isPostgres(db) ? 'pg' : 'sqlite'}|${shape(values)}`;
      let c = cache.get(key);
      if (!c) {
        // the builder sees a marker named after each defined value (undefined stays undefined: it decides the shape)
        const markers = Object.fromEntries(
          Object.entries(values).map(([k, v]) => [k, v === undefined ? undefined : param(k)]),
        ) as V;
        const compiled = build(db, markers).compile();
        const names = compiled.parameters.map((p) => {
          const name = (p as Partial<Marker> | null)?.[MARK];
          if (name === undefined) throw new Error(`compiledOnce: a parameter of ${key} is not a marked value`);
          return name;
        });
        c = { sql: compiled.sql, names };
        if (cache.size >= 500) cache.clear();
        cache.set(key, c);
      }
      const parameters = c.names.map((n) => values[n]);
      return (await db.executeQuery<R>(CompiledQuery.raw(c.sql, parameters))).rows;
    },
  };
}
