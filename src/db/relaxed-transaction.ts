// A transaction whose commit does not wait for the disk: for bookkeeping that a crash of the machine may undo without
// harm because it is done again (the webhook dispatcher's fan-out, leases and attempt records: an undone fan-out
// leaves its events undispatched, so they are fanned out again, and an undone attempt is made again, with the same
// event id; decisions §5 allows duplicates, not losses). It stays atomic: all of it or nothing of it survives.
// SQLite (WAL mode): the COMMIT runs with synchronous=NORMAL, so it writes the WAL without an fsync on the event loop,
// and becomes durable with the next synced commit (the write queue's fdatasync or any synchronous=FULL commit).
// PostgreSQL: `synchronous_commit = off` for this transaction only (the server flushes it within ~3 x wal_writer_delay).
// Every other write keeps its durable commit: the write queue's callers are answered after their sync
// (write-queue.ts), tokens, users, keys and imports commit with synchronous=FULL.
import { sql, type Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { DB } from './schema.ts';

export function relaxedTransaction<T>(database: Database, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const sqlite = database.sqlite;
  if (!sqlite)
    return database.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL synchronous_commit TO OFF`.execute(trx);
      return work(trx);
    });
  // Outside WAL mode (an in-memory database) NORMAL would weaken more than durability: the commit stays as it is.
  if (sqlite.memory || sqlite.pragma('journal_mode', { simple: true }) !== 'wal')
    return database.db.transaction().execute(work);
  // The connection is held from before BEGIN to after COMMIT: SQLite refuses to change synchronous inside a
  // transaction, and no other write may commit while it is NORMAL. PRAGMA synchronous takes effect when it is
  // compiled, so it is run anew each time, not prepared once.
  return database.db.connection().execute(async (conn) => {
    sqlite.exec('PRAGMA synchronous = NORMAL');
    try {
      return await conn.transaction().execute(work);
    } finally {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
      sqlite.exec('PRAGMA synchronous = FULL');
    }
  });
}
