// Kysely's SQLite dialect, with one change: a transaction that may write begins with BEGIN IMMEDIATE, which takes
// the database's write lock at once (waiting for it up to busy_timeout, as any write does). Kysely begins with a
// plain (deferred) BEGIN, which takes the lock only at the first write; if another connection (a CLI command, a
// second process) commits between the transaction's first read and its first write, SQLite cannot let the
// transaction write on a snapshot that is no longer current and fails it at once with SQLITE_BUSY ("database is
// locked"), whatever busy_timeout says: an API write answered 500 while an operator ran `apikey create`.
// A transaction begun with accessMode 'read only' (the export's snapshot) keeps the deferred BEGIN: it never takes
// the write lock, so writers are not held up while it reads.
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';

class WriteLockingDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    const begin = settings?.accessMode === 'read only' ? 'begin' : 'begin immediate';
    await connection.executeQuery(CompiledQuery.raw(begin));
  }
}

export class WriteLockingSqliteDialect extends SqliteDialect {
  private readonly settings: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.settings = config;
  }

  override createDriver(): Driver {
    return new WriteLockingDriver(this.settings);
  }
}
