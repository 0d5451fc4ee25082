// Durable writes at a rate one fsync per request could not reach: on SQLite (one writer), write commands that arrive
// together share one transaction and one commit (group commit). Each command runs inside its own SAVEPOINT, so a
// failing command is rolled back alone and leaves nothing behind; every caller gets its answer only after the shared
// COMMIT is durable. In WAL mode the batch commits with synchronous=NORMAL and its callers are answered after an
// fdatasync of the WAL on libuv's pool (wal-sync.ts), so the event loop serves requests and runs the next batch while
// the disk syncs; every other write of the connection (tokens, throttle counters, the CLI) keeps synchronous=FULL,
// except the webhook dispatcher's bookkeeping, which a crash may undo without harm (relaxed-transaction.ts).
// On PostgreSQL each command is its own transaction (the server does group commit itself).
import path from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Database } from './database.ts';
import type { DB } from './schema.ts';
import { WalSync, type Fdatasync, type Settle } from './wal-sync.ts';
import { runDirectly } from './fixed-query.ts';

type Work = (trx: Transaction<DB>) => Promise<unknown>;
interface Job {
  work: Work;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

export interface WriteQueueOptions {
  /** The fdatasync the WAL is synced with (node:fs's by default; tests pass an instrumented one). */
  fdatasync?: Fdatasync;
}

/** Most commands one SQLite commit carries. */
const MAX_BATCH = 256;

/** The statements around the batch and its commands, prepared once on the connection. */
interface Statements {
  savepoint: SQLite.Statement;
  release: SQLite.Statement;
  rollbackTo: SQLite.Statement;
}

export class WriteQueue {
  private readonly queue: Job[] = [];
  private draining = false;
  private readonly sqlite?: SQLite.Database;
  private readonly statements?: Statements;
  /** Set in WAL mode on a database file: the batches commit with synchronous=NORMAL and are synced here. */
  private readonly wal?: WalSync;

  constructor(
    private readonly database: Database,
    options: WriteQueueOptions = {},
  ) {
    const sqlite = database.dialect === 'sqlite' ? database.sqlite : undefined;
    if (!sqlite) return;
    this.sqlite = sqlite;
    this.statements = {
      savepoint: sqlite.prepare('SAVEPOINT job'),
      release: sqlite.prepare('RELEASE job'),
      rollbackTo: sqlite.prepare('ROLLBACK TO job'),
    };
    if (!sqlite.memory && sqlite.pragma('journal_mode', { simple: true }) === 'wal')
      this.wal = new WalSync(path.resolve(sqlite.name), options.fdatasync);
  }

  /** Runs `work` atomically and durably; resolves with its result after commit. */
  run<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    if (!this.statements) return this.database.db.transaction().execute(work);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve, reject });
      if (!this.draining) {
        this.draining = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  /** Waits for the last sync and releases the WAL's descriptor (when the app closes). */
  async close(): Promise<void> {
    await this.wal?.close();
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const settle: Settle[] = [];
      try {
        // The connection is held from before BEGIN to after COMMIT: SQLite refuses to change synchronous inside a
        // transaction, and no other write may commit while it is NORMAL.
        await this.database.db.connection().execute((conn) => this.commitBatch(conn, batch, settle));
      } catch (err) {
        for (const job of batch) job.reject(err);
        continue;
      }
      if (this.wal) this.wal.afterCommit(settle);
      else for (const s of settle) s.done();
    }
    this.draining = false;
  }

  private async commitBatch(conn: Kysely<DB>, batch: Job[], settle: Settle[]): Promise<void> {
    const st = this.statements as Statements;
    // PRAGMA synchronous takes effect when it is compiled, so it is run anew each time, not prepared once.
    if (this.wal) this.sqlite?.exec('PRAGMA synchronous = NORMAL');
    try {
      const trx = await conn.startTransaction().execute();
      runDirectly(trx, this.sqlite as SQLite.Database);
      try {
        for (const job of batch) {
          // The transaction holds the connection: its savepoints run straight on better-sqlite3.
          st.savepoint.run();
          try {
            const value = await job.work(trx);
            st.release.run();
            settle.push({ done: () => job.resolve(value), fail: (err) => job.reject(err) });
          } catch (error) {
            st.rollbackTo.run();
            st.release.run();
            const failed = () => job.reject(error);
            settle.push({ done: failed, fail: failed });
          }
        }
        await trx.commit().execute();
      } catch (err) {
        await trx
          .rollback()
          .execute()
          .catch(() => undefined);
        throw err;
      }
    } finally {
      if (this.wal) this.restoreFull();
    }
  }

  private restoreFull(): void {
    const sqlite = this.sqlite as SQLite.Database;
    if (sqlite.inTransaction) {
      try {
        sqlite.exec('ROLLBACK');
      } catch {
        // nothing more to undo
      }
    }
    sqlite.exec('PRAGMA synchronous = FULL');
  }
}

/** Where a write command runs: the app's queue (group commit) or, in tests and tools, a plain handle. */
export type Writer = Kysely<DB> | WriteQueue;

export function inTransaction<T>(writer: Writer, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return writer instanceof WriteQueue ? writer.run(work) : writer.transaction().execute(work);
}
