// Opens the database named by DATABASE_URL: SQLite (better-sqlite3) or PostgreSQL (pg), behind one Kysely handle.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { Kysely, PostgresDialect, PostgresAdapter, type Transaction } from 'kysely';
import type { DB } from './schema.ts';
import { NAMED_STATEMENTS, fixedQuery } from './fixed-query.ts';
import { WriteLockingSqliteDialect } from './sqlite-dialect.ts';
import { redactUrl } from '../config.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: DialectName;
  url: string;
  /** Versions of the read model and of users/tokens/keys: each moves on whenever a change to it commits, in this or
   *  any other process sharing the database. Caches (page-cache.ts, auth-cache.ts) are valid only for the version
   *  they were filled at. */
  versions(): Promise<DataVersions>;
  /** The better-sqlite3 handle behind `db` on SQLite (bulk import and demo load prepare and reuse statements on it). */
  sqlite?: SQLite.Database;
  /** PostgreSQL: the connection pool's state now (for /metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export type Executor = Kysely<DB> | Transaction<DB>;

export interface DataVersions {
  read: string;
  auth: string;
}

let pgModule: typeof pg | undefined;
/** pg, loaded when a PostgreSQL database is first opened: a process on SQLite never loads it (it and what it loads
 * took ~50 ms of every CLI command's start). */
function loadPg(): typeof pg {
  if (!pgModule) {
    pgModule = createRequire(import.meta.url)('pg') as typeof pg;
    // Keep DATE and NUMERIC as strings (exact round-trip), parse BIGINT counts as numbers.
    pgModule.types.setTypeParser(1082, (v: string) => v);
    pgModule.types.setTypeParser(20, (v: string) => Number(v));
  }
  return pgModule;
}

/** The part of a better-sqlite3 statement Kysely's SQLite driver calls. */
interface KyselyStatement {
  reader: boolean;
  all(params: unknown[]): unknown[];
  run(params: unknown[]): SQLite.RunResult;
  iterate(params: unknown[]): IterableIterator<unknown>;
}

/**
 * A reading statement whose rows come from better-sqlite3 as arrays and become objects in a function compiled for
 * its columns: the same row objects (same keys, order and values; a repeated name keeps its first place and last
 * value, as better-sqlite3's own objects do), at a fraction of the cost of better-sqlite3 setting each property of a
 * wide row from C++.
 */
function withFastRows(stmt: SQLite.Statement): KyselyStatement {
  if (!stmt.reader) return stmt;
  const names = stmt.columns().map((c) => c.name);
  if (names.includes('__proto__')) return stmt;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const build = new Function('a', `return {${names.map((n, i) => `${JSON.stringify(n)}: a[${i}]`).join(', ')}};`) as (
    a: unknown[],
  ) => unknown;
  const raw = stmt.raw(true);
  return {
    reader: true,
    all(params) {
      const rows = raw.all(params) as unknown[][];
      const out = new Array<unknown>(rows.length);
      for (let i = 0; i < rows.length; i++) out[i] = build(rows[i] as unknown[]);
      return out;
    },
    run: (params) => raw.run(params),
    *iterate(params) {
      for (const row of raw.iterate(params) as IterableIterator<unknown[]>) yield build(row);
    },
  };
}

/** pg's error when a statement had no answer within query_timeout. */
const QUERY_TIMEOUT = 'Query read timeout';
/** How much longer than the server's statement timeout the client waits for an answer before it gives up. */
const UNANSWERED_MARGIN_MS = 1000;

export interface OpenOptions {
  poolSize?: number;
  sqliteCacheMb?: number;
  /**
   * PostgreSQL: a statement that runs this long is cancelled by the server (and waiting this long for a connection
   * fails), so a statement stuck behind a lock, or a server that stalls (the client then gives up a second later), is
   * a 503, not a request that hangs. The server sets it (src/server.ts); the CLI's long statements (import, export) run
   * without it.
   */
  queryTimeoutMs?: number;
}

export function openDatabase(url: string, options: OpenOptions = {}): Database {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 10000');
    // The read model's pages are read from many pages of the file: from this cache rather than from the OS each time.
    if (options.sqliteCacheMb) sqlite.pragma(`cache_size = -${options.sqliteCacheMb * 1024}`);
    // Kysely prepares every query anew; reusing prepared statements by SQL text saves that work on the hot paths.
    const statements = new Map<string, KyselyStatement>();
    const prepare = (text: string) => {
      let stmt = statements.get(text);
      if (!stmt) {
        if (statements.size >= 2000) statements.clear();
        stmt = withFastRows(sqlite.prepare(text));
        statements.set(text, stmt);
      }
      return stmt;
    };
    const db = new Kysely<DB>({
      dialect: new WriteLockingSqliteDialect({ database: { prepare, close: () => sqlite.close() } }, sqlite),
    });
    // data_version moves on with commits of other connections, total_changes() with this connection's writes; the
    // auth counter only with changes to users, grants, tokens and keys (triggers of migration 2026112601). Until the
    // database is migrated that far (`migrate` opens it too), the data version stands for both.
    const dataVersion = sqlite
      .prepare("SELECT (SELECT data_version FROM pragma_data_version) || '.' || total_changes()")
      .pluck();
    const hasAuthCounter = sqlite
      .prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'auth_version'")
      .pluck();
    let both: SQLite.Statement | undefined;
    const versions = async () => {
      if (!both && hasAuthCounter.get() === 1)
        both = sqlite.prepare(`${dataVersion.source}, (SELECT version FROM auth_version WHERE id = 1)`).raw(true);
      if (!both) {
        const v = String(dataVersion.get());
        return { read: v, auth: v };
      }
      const [read, auth] = both.get() as [string, number];
      return { read, auth: String(auth) };
    };
    return { db, dialect: 'sqlite', url, sqlite, versions, close: () => db.destroy() };
  }
  const pool = new (loadPg().Pool)({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(options.queryTimeoutMs
      ? {
          // the server cancels a statement past the timeout (SQLSTATE 57014): its transaction is rolled back and its
          // locks let go at once, whatever it waited for (a lock an import holds, say)
          statement_timeout: options.queryTimeoutMs,
          // and the client stops waiting a little later, for a server or network that does not answer at all
          query_timeout: options.queryTimeoutMs + UNANSWERED_MARGIN_MS,
          connectionTimeoutMillis: options.queryTimeoutMs,
        }
      : {}),
  });
  // An idle client whose connection ends (server restart, database dropped) must not crash the process: the pool
  // drops it and opens a new one when needed. Without a listener, pg re-throws the error as an uncaught exception.
  pool.on('error', () => {});
  // The fixed queries of the hot paths (src/db/fixed-query.ts) run as named prepared statements: parsed and planned
  // once per connection instead of on every call.
  pool.on('connect', (client) => {
    // The same for a client in use whose connection ends (the pool listens only to idle ones): the query in flight
    // fails with the error (a 503, src/http/errors.ts), and the pool replaces the client.
    client.on('error', () => {});
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const [text, values] = args;
      const name = args.length === 2 && typeof text === 'string' ? NAMED_STATEMENTS.get(text) : undefined;
      const result = name === undefined ? query(...args) : query({ name, text, values });
      // pg's query_timeout only stops waiting (the server did not cancel the statement: it or the network does not
      // answer): the statement may still run, in a transaction that is still open. Such a connection is closed at
      // once, so it never serves another request; the request's rollback fails fast and the pool drops the client.
      if (result instanceof Promise)
        result.catch((err: unknown) => {
          if (err instanceof Error && err.message === QUERY_TIMEOUT) void client.end().catch(() => {});
        });
      return result;
    }) as typeof client.query;
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  // Read on every request (the caches' validity): a fixed query, so a named statement, planned once per connection.
  const versionsQuery = fixedQuery<Record<string, never>, { version: number; auth_version: number }>([], (d) =>
    d.selectFrom('data_version').select(['version', 'auth_version']).where('id', '=', 1),
  );
  const versions = async () => {
    const row = await versionsQuery.first(db, {});
    if (!row) throw new Error('the data_version row is missing: run `wohnapi migrate`');
    return { read: String(row.version), auth: String(row.auth_version) };
  };
  const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  return { db, dialect: 'postgres', url, versions, poolStats, close: () => db.destroy() };
}

/** Whether a handle talks to PostgreSQL: any Kysely handle, also the Kysely<any> of the migrations. */
export function isPostgres(db: Pick<Kysely<DB>, 'getExecutor'>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A redacted form of a database URL for logs and start-up output. */
export function describeUrl(url: string): string {
  return redactUrl(url);
}
