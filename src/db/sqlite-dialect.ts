// Kysely's SQLite dialect, with one change: a transaction that may write begins with BEGIN IMMEDIATE, which takes
// the database's write lock at once (waiting for it up to busy_timeout, as any write does). Kysely begins with a
// plain (deferred) BEGIN, which takes the lock only at the first write; if another connection (a CLI command, a
// second process) commits between the transaction's first read and its first write, SQLite cannot let the
// transaction write on a snapshot that is no longer current and fails it at once with SQLITE_BUSY ("database is
// locked"), whatever busy_timeout says: an API write answered 500 while an operator ran `apikey create`.
// A transaction begun with accessMode 'read only' (the export's snapshot) keeps the deferred BEGIN: it never takes
// the write lock, so writers are not held up while it reads.
// While another connection holds the lock (an import runs for its whole length in one transaction), SQLite's busy
// handler would wait by sleeping the thread: better-sqlite3 is synchronous, so the server's event loop would stand
// still for up to busy_timeout (10 s), health checks, metrics and cached pages included. BEGIN IMMEDIATE is therefore
// tried with busy_timeout 0 and, while the lock is held elsewhere, tried again after a growing pause (1, 2, 4, ... 50
// ms) on a timer, up to the connection's busy_timeout; past it, SQLite's own SQLITE_BUSY error is thrown (the API
// answers 503, src/http/errors.ts). Queries of the same process wait meanwhile (the connection is held), the event
// loop does not.
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';

const LONGEST_PAUSE_MS = 50;

const isBusy = (err: unknown) => (err as { code?: unknown } | null)?.code === 'SQLITE_BUSY';

/** BEGIN IMMEDIATE on `sqlite`, waiting for the write lock on timers rather than in SQLite's sleeping busy handler. */
export async function beginImmediate(sqlite: SQLite.Database): Promise<void> {
  const budgetMs = Number(sqlite.pragma('busy_timeout', { simple: true }));
  const started = Date.now();
  for (let pause = 1; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    sqlite.pragma('busy_timeout = 0');
    try {
      sqlite.exec('BEGIN IMMEDIATE');
      return;
    } catch (err) {
      if (!isBusy(err) || Date.now() - started >= budgetMs) throw err;
    } finally {
      sqlite.pragma(`busy_timeout = ${budgetMs}`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, budgetMs - (Date.now() - started))));
  }
}

class WriteLockingDriver extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly sqlite: SQLite.Database,
  ) {
    super(config);
  }

  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    if (settings?.accessMode === 'read only') await connection.executeQuery(CompiledQuery.raw('begin'));
    else await beginImmediate(this.sqlite);
  }
}

export class WriteLockingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    /** The connection behind `settings.database`, on which BEGIN IMMEDIATE runs. */
    private readonly sqlite: SQLite.Database,
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new WriteLockingDriver(this.settings, this.sqlite);
  }
}
