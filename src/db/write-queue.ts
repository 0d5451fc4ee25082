// Durable writes at a rate one fsync per request could not reach: on SQLite (synchronous=FULL, one writer),
// write commands that arrive together share one transaction and one commit (group commit). Each command runs
// inside its own SAVEPOINT, so a failing command is rolled back alone and leaves nothing behind; every caller
// gets its answer only after the shared COMMIT is durable. On PostgreSQL each command is its own transaction
// (the server does group commit itself).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { DB } from './schema.ts';

type Work = (trx: Transaction<DB>) => Promise<unknown>;
interface Job {
  work: Work;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** Most commands one SQLite commit carries. */
const MAX_BATCH = 256;

export class WriteQueue {
  private readonly queue: Job[] = [];
  private draining = false;

  constructor(private readonly database: Database) {}

  /** Runs `work` atomically and durably; resolves with its result after commit. */
  run<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    if (this.database.dialect !== 'sqlite') return this.database.db.transaction().execute(work);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve, reject });
      if (!this.draining) {
        this.draining = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const settle: Array<() => void> = [];
      try {
        const trx = await this.database.db.startTransaction().execute();
        try {
          for (const job of batch) {
            const sp = await trx.savepoint('job').execute();
            try {
              const value = await job.work(sp);
              await sp.releaseSavepoint('job').execute();
              settle.push(() => job.resolve(value));
            } catch (error) {
              await sp.rollbackToSavepoint('job').execute();
              await sp.releaseSavepoint('job').execute();
              settle.push(() => job.reject(error));
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
        for (const done of settle) done();
      } catch (err) {
        for (const job of batch) job.reject(err);
      }
    }
    this.draining = false;
  }
}

/** Where a write command runs: the app's queue (group commit) or, in tests and tools, a plain handle. */
export type Writer = Kysely<DB> | WriteQueue;

export function inTransaction<T>(writer: Writer, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return writer instanceof WriteQueue ? writer.run(work) : writer.transaction().execute(work);
}
