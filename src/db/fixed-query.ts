// Fixed queries of the hot paths (project writes, read-model pages), prepared once instead of built per request.
// Each is still defined in one place, with Kysely (so it stays typed and dialect-correct), but compiled only once per
// dialect (and shape), with placeholders where its arguments go; a call substitutes the arguments into the compiled
// parameters and runs the CompiledQuery through the executor it is given (a transaction or the handle). SQLite then
// reuses the prepared statement by its text (src/db/database.ts); PostgreSQL runs it as a named prepared statement,
// parsed and planned once per connection.
import type { CompiledQuery, Compilable, QueryResult, RawBuilder } from 'kysely';
import type SQLite from 'better-sqlite3';
import { isPostgres, type Executor } from './database.ts';

/** SQL text of every fixed query -> its PostgreSQL statement name (database.ts sends these as named statements). */
export const NAMED_STATEMENTS = new Map<string, string>();
const MAX_NAMED = 200;

/** A placeholder for an argument while the query is compiled: a text no real value is. */
const slot = (name: string) => `\u0000fixed-query-arg:${name}\u0000`;

interface Compiled<R> {
  query: CompiledQuery<R>;
  /** Per compiled parameter: the argument's name, or the constant the definition itself put there. */
  sources: Array<{ arg: string } | { value: unknown }>;
  /** The statement prepared on the connection of a direct transaction (see `runDirectly`). */
  direct?: { sqlite: SQLite.Database; stmt: SQLite.Statement };
}

/** Transactions that hold their SQLite connection for their whole life, with that connection. */
const DIRECT = new WeakMap<Executor, SQLite.Database>();

/**
 * Lets the fixed queries run inside `trx` straight on better-sqlite3 (same statement, same result as through
 * Kysely's SQLite driver, without its executor around each call). For a transaction that holds `sqlite`'s
 * connection until it ends: the write queue's batch (src/db/write-queue.ts).
 */
export function runDirectly(trx: Executor, sqlite: SQLite.Database): void {
  DIRECT.set(trx, sqlite);
}

/** What Kysely's SQLite driver answers for the statement. */
function runOn<R>(sqlite: SQLite.Database, compiled: Compiled<R>, parameters: unknown[]): QueryResult<R> {
  if (compiled.direct?.sqlite !== sqlite) compiled.direct = { sqlite, stmt: sqlite.prepare(compiled.query.sql) };
  const { stmt } = compiled.direct;
  if (stmt.reader) return { rows: stmt.all(parameters) as R[] };
  const { changes, lastInsertRowid } = stmt.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

type Args = Record<string, unknown>;

export interface FixedQuery<A extends Args, R> {
  execute(db: Executor, args: A): Promise<QueryResult<R>>;
  /** The first row (e.g. of an INSERT ... RETURNING or a read by key), or undefined. */
  first(db: Executor, args: A): Promise<R | undefined>;
}

/**
 * A query built once per dialect by `build`, whose `args` are placeholders: `build` must pass each argument
 * straight through as a value (a where operand, an inserted value, an item of `sql.join`), never look at it.
 * `names` lists the arguments.
 */
export function fixedQuery<A extends Args, R>(
  names: ReadonlyArray<keyof A & string>,
  build: (db: Executor, args: A) => Compilable<R> | RawBuilder<R>,
): FixedQuery<A, R> {
  const byDialect: { sqlite?: Compiled<R>; postgres?: Compiled<R> } = {};
  const compile = (db: Executor): Compiled<R> => {
    const dialect = isPostgres(db) ? 'postgres' : 'sqlite';
    let compiled = byDialect[dialect];
    if (!compiled) {
      const placeholders = Object.fromEntries(names.map((n) => [n, slot(n)])) as unknown as A;
      const bySlot = new Map(names.map((n) => [slot(n), n]));
      // A query builder compiles with its own executor; a raw `sql` query is given one (the builder ignores it).
      const query = (build(db, placeholders) as RawBuilder<R>).compile(db);
      const sources = query.parameters.map((p) => {
        const arg = typeof p === 'string' ? bySlot.get(p) : undefined;
        return arg === undefined ? { value: p } : { arg };
      });
      // Bounded: each name is a prepared statement on every pooled connection (families of many shapes run the
      // rest unnamed).
      if (dialect === 'postgres' && !NAMED_STATEMENTS.has(query.sql) && NAMED_STATEMENTS.size < MAX_NAMED)
        NAMED_STATEMENTS.set(query.sql, `wohnapi_fixed_${NAMED_STATEMENTS.size + 1}`);
      compiled = byDialect[dialect] = { query, sources };
    }
    return compiled;
  };
  const execute = (db: Executor, args: A): Promise<QueryResult<R>> => {
    const compiled = compile(db);
    const parameters = compiled.sources.map((s) => ('arg' in s ? args[s.arg] : s.value));
    const sqlite = DIRECT.get(db);
    if (sqlite) {
      try {
        return Promise.resolve(runOn(sqlite, compiled, parameters));
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    }
    return db.executeQuery<R>({ ...compiled.query, parameters });
  };
  return { execute, first: async (db, args) => (await execute(db, args)).rows[0] };
}

/** A family of fixed queries (or of such families) keyed by their shape (e.g. the kind and the number of ids of an
 *  IN list): each made once, a bounded number kept. */
export function fixedQueries<K, Q>(make: (key: K) => Q, keyText: (key: K) => string, max = 256): (key: K) => Q {
  const made = new Map<string, Q>();
  return (key) => {
    const text = keyText(key);
    let q = made.get(text);
    if (!q) {
      if (made.size >= max) made.clear();
      made.set(text, (q = make(key)));
    }
    return q;
  };
}

/**
 * A query of several shapes whose arguments are the defined values of each call (a value left undefined decides the
 * shape and stays undefined for `build`, which may test it with `=== undefined` and must pass every other value
 * straight through): one fixed query per shape, named by the defined values' names and `shape`, for what else
 * decides it. Used by read paths whose optional filters vary.
 */
export function fixedQueryByShape<A extends Args, R>(
  build: (db: Executor, args: A) => Compilable<R> | RawBuilder<R>,
  shape: (args: A) => string = () => '',
): { rows(db: Executor, args: A): Promise<R[]> } {
  const defined = (args: A) => Object.keys(args).filter((k) => args[k] !== undefined);
  const family = fixedQueries(
    (args: A) => fixedQuery<A, R>(defined(args), build),
    (args: A) => `${shape(args)}|${defined(args).join(',')}`,
    500,
  );
  return { rows: async (db, args) => (await family(args).execute(db, args)).rows };
}
