import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import type { Transaction } from 'kysely';
import { DIALECTS, freshDatabase, type TestDatabase } from '../../test/support/db.ts';
import { WriteQueue } from './write-queue.ts';
import type { DB } from './schema.ts';

for (const dialect of DIALECTS) {
  describe(`write queue [${dialect}]`, () => {
    let database: TestDatabase;
    let queue: WriteQueue;
    before(async () => {
      database = await freshDatabase(dialect);
      queue = new WriteQueue(database);
    });
    after(() => database.drop());

    it('commits concurrent commands, and a failing one leaves nothing behind while the others land', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 50 }, (_, i) =>
          queue.run(async (trx) => {
            await trx
              .insertInto('company_codes')
              .values({ id: 1000 + i, code: `C${i}`, name: `Ledger ${i}` })
              .execute();
            if (i % 10 === 3) {
              await trx
                .insertInto('company_codes')
                .values({ id: 5000 + i, code: 'half-written', name: null })
                .execute();
              throw new Error(`command ${i} fails`);
            }
            return i;
          }),
        ),
      );
      const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
      assert.deepEqual(failed, [3, 13, 23, 33, 43]);
      assert.equal((results[0] as PromiseFulfilledResult<number>).value, 0);
      const rows = await database.db.selectFrom('company_codes').select('id').orderBy('id').execute();
      assert.equal(rows.length, 45);
      assert.ok(
        rows.every((r) => r.id < 5000),
        'no row of a failed command remains',
      );
    });

    it('a unique violation fails only its own command', async () => {
      const [a, b] = await Promise.allSettled([
        queue.run((trx) => trx.insertInto('company_codes').values({ id: 7000, code: 'x', name: 'x' }).execute()),
        queue.run((trx) => trx.insertInto('company_codes').values({ id: 7000, code: 'y', name: 'y' }).execute()),
      ]);
      // Which of the two wins is up to the engine (PostgreSQL runs them as concurrent transactions); exactly one does.
      assert.deepEqual([a.status, b.status].sort(), ['fulfilled', 'rejected']);
      const row = await database.db
        .selectFrom('company_codes')
        .select('code')
        .where('id', '=', 7000)
        .executeTakeFirstOrThrow();
      assert.equal(row.code, a.status === 'fulfilled' ? 'x' : 'y');
    });
  });
}

describe('write queue: durable batches synced off the event loop [sqlite]', () => {
  let database: TestDatabase;
  let other: SQLite.Database;
  before(async () => {
    database = await freshDatabase('sqlite');
    // A second connection sees what has committed, whether or not it is synced yet.
    other = new SQLite((database.sqlite as SQLite.Database).name, { readonly: true });
  });
  after(async () => {
    other.close();
    await database.drop();
  });

  const committed = (id: number) =>
    other.prepare('SELECT count(*) FROM company_codes WHERE id = ?').pluck().get(id) === 1;
  /** Lets the queue run (no timing: it waits for a condition, bounded by a number of turns of the event loop). */
  const until = async (condition: () => boolean) => {
    for (let turn = 0; !condition(); turn++) {
      if (turn > 100_000) throw new Error('condition never met');
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const insert = (id: number) => (trx: Transaction<DB>) =>
    trx
      .insertInto('company_codes')
      .values({ id, code: `C${id}`, name: null })
      .execute();

  it('answers a batch only after an fdatasync of the WAL that started after its COMMIT, while the next batch runs', async () => {
    const sqlite = database.sqlite as SQLite.Database;
    const syncs: Array<{ fd: number; seen: number[]; release: (err: NodeJS.ErrnoException | null) => void }> = [];
    const queue = new WriteQueue(database, {
      fdatasync: (fd, callback) => syncs.push({ fd, seen: [100, 101, 102, 103].filter(committed), release: callback }),
    });
    const settled: number[] = [];
    const track = <T>(id: number, p: Promise<T>) => p.finally(() => settled.push(id));
    let syncInBatch: unknown;
    const first = [
      track(100, queue.run(insert(100))),
      track(
        101,
        queue.run(async (trx) => {
          syncInBatch = sqlite.pragma('synchronous', { simple: true });
          await insert(101)(trx);
          throw new Error('command 101 fails');
        }),
      ),
      track(102, queue.run(insert(102))),
    ];
    await until(() => syncs.length === 1);
    assert.equal(syncInBatch, 1, 'the batch commits with synchronous=NORMAL');
    assert.equal(sqlite.pragma('synchronous', { simple: true }), 2, 'the connection is back at FULL after the batch');
    assert.deepEqual(syncs[0]?.seen, [100, 102], 'the sync started after the COMMIT; the failed command left nothing');
    const wal = fs.statSync(`${sqlite.name}-wal`);
    assert.equal(fs.fstatSync(syncs[0]?.fd ?? -1).ino, wal.ino, 'the WAL file is synced');
    assert.deepEqual(settled, [], 'nobody is answered before the sync returns');

    // The next batch runs and commits while the first sync is still under way.
    const second = track(103, queue.run(insert(103)));
    await until(() => committed(103));
    assert.equal(syncs.length, 1);
    assert.deepEqual(settled, []);

    syncs[0]?.release(null);
    const [a, b, c] = await Promise.allSettled(first);
    assert.equal(a?.status, 'fulfilled');
    assert.equal(b?.status, 'rejected');
    assert.equal(c?.status, 'fulfilled');
    assert.deepEqual(settled.sort(), [100, 101, 102]);
    await until(() => syncs.length === 2);
    assert.deepEqual(syncs[1]?.seen, [100, 102, 103], 'the second sync started after the second COMMIT');
    assert.deepEqual(settled.sort(), [100, 101, 102], 'the second batch waits for its own sync');
    syncs[1]?.release(null);
    await second;
    assert.deepEqual(settled.sort(), [100, 101, 102, 103]);
    assert.equal(sqlite.pragma('synchronous', { simple: true }), 2);
    await queue.close();
  });

  it('a failed sync fails the callers of its batch', async () => {
    const failure = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    const queue = new WriteQueue(database, { fdatasync: (_fd, callback) => callback(failure) });
    await assert.rejects(queue.run(insert(200)), failure);
    await queue.close();
  });
});
