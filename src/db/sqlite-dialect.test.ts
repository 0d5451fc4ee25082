// Transactions that may write take the write lock when they begin (src/db/sqlite-dialect.ts): another connection's
// commit between their first read and their first write can no longer fail them with "database is locked". A
// read-only transaction (the export) does not hold writers up. While another connection holds the lock, a transaction
// waits for it on timers, not by sleeping the thread: the event loop runs meanwhile.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { DIALECTS, freshDatabase, type TestDatabase } from '../../test/support/db.ts';
import { openDatabase } from './database.ts';

for (const dialect of DIALECTS) {
  describe(`write transactions and a second connection [${dialect}]`, () => {
    let database: TestDatabase;
    /** Another process's write (a CLI command): one insert, on its own connection, waiting at most 50 ms. */
    let otherWrite: (id: number) => Promise<void>;
    let closeOther: () => Promise<void>;
    before(async () => {
      database = await freshDatabase(dialect);
      if (dialect === 'sqlite') {
        const other = new SQLite(database.url.slice('sqlite:'.length), { timeout: 50 });
        const insert = other.prepare("INSERT INTO company_codes (id, code, name) VALUES (?, 'O', 'other')");
        otherWrite = async (id) => void insert.run(id);
        closeOther = async () => void other.close();
      } else {
        const other = openDatabase(database.url);
        otherWrite = async (id) =>
          void (await other.db.insertInto('company_codes').values({ id, code: 'O', name: 'other' }).execute());
        closeOther = () => other.close();
      }
    });
    after(async () => {
      await closeOther();
      await database.drop();
    });

    const ids = async () =>
      (await database.db.selectFrom('company_codes').select('id').orderBy('id').execute()).map((r) => r.id);

    it("commits a transaction that read before another connection's write and wrote after it", async () => {
      let other: unknown = 'not tried';
      await database.db.transaction().execute(async (trx) => {
        await trx.selectFrom('company_codes').select('id').execute(); // the transaction's snapshot begins here
        other = await otherWrite(8001).then(
          () => 'committed',
          (err: Error) => err.message,
        );
        await trx.insertInto('company_codes').values({ id: 8002, code: 'T', name: 'mine' }).execute();
      });
      // SQLite: the other connection waited for the lock this transaction took at BEGIN (and gave up after 50 ms);
      // before, it committed and this transaction's insert failed with "database is locked".
      if (dialect === 'sqlite') assert.match(String(other), /database is locked/);
      else assert.equal(other, 'committed');
      assert.ok((await ids()).includes(8002), 'the transaction committed');
    });

    it('lets another connection commit while a read-only transaction reads', async () => {
      let other: unknown = 'not tried';
      const seen = await database.db
        .transaction()
        .setAccessMode('read only')
        .execute(async (trx) => {
          const first = await trx.selectFrom('company_codes').select('id').execute();
          other = await otherWrite(8003).then(
            () => 'committed',
            (err: Error) => err.message,
          );
          const second = await trx.selectFrom('company_codes').select('id').execute();
          return [first.length, second.length];
        });
      assert.equal(other, 'committed');
      if (dialect === 'sqlite') assert.equal(seen[0], seen[1], 'one snapshot for the whole transaction');
      assert.ok((await ids()).includes(8003));
    });

    if (dialect === 'sqlite') {
      it('waits for a lock held elsewhere without stopping the event loop, and then commits', async () => {
        const locker = new SQLite(database.url.slice('sqlite:'.length));
        try {
          locker.exec('BEGIN IMMEDIATE'); // an import's transaction, say
          let released = false;
          // Runs only if the event loop turns while the transaction below waits (SQLite's busy handler would sleep
          // the thread for the whole busy_timeout of 10 s, and then fail).
          setTimeout(() => {
            locker.exec('ROLLBACK');
            released = true;
          }, 40);
          await database.db.transaction().execute(async (trx) => {
            assert.ok(released, 'the transaction began only once the lock was released');
            await trx.insertInto('company_codes').values({ id: 8004, code: 'W', name: 'waited' }).execute();
          });
          assert.ok((await ids()).includes(8004));
          assert.equal(database.sqlite!.pragma('busy_timeout', { simple: true }), 10000, 'busy_timeout restored');
        } finally {
          locker.close();
        }
      });

      it("gives up with SQLite's SQLITE_BUSY after busy_timeout, the event loop turning meanwhile", async () => {
        const locker = new SQLite(database.url.slice('sqlite:'.length));
        database.sqlite!.pragma('busy_timeout = 120');
        let ticks = 0;
        const ticker = setInterval(() => ticks++, 10);
        try {
          locker.exec('BEGIN IMMEDIATE');
          const started = Date.now();
          await assert.rejects(
            database.db.transaction().execute(async (trx) => {
              await trx.insertInto('company_codes').values({ id: 8005, code: 'N', name: 'never' }).execute();
            }),
            (err: { code?: string }) => err.code === 'SQLITE_BUSY',
          );
          assert.ok(Date.now() - started >= 110, `waited ${Date.now() - started} ms`);
          assert.ok(ticks >= 4, `the event loop turned ${ticks} times while the transaction waited`);
          assert.equal(database.sqlite!.pragma('busy_timeout', { simple: true }), 120, 'busy_timeout restored');
          locker.exec('ROLLBACK');
          assert.ok(!(await ids()).includes(8005));
        } finally {
          clearInterval(ticker);
          database.sqlite!.pragma('busy_timeout = 10000');
          locker.close();
        }
      });
    }
  });
}
