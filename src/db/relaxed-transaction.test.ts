import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DIALECTS, freshDatabase, type TestDatabase } from '../../test/support/db.ts';
import { relaxedTransaction } from './relaxed-transaction.ts';

for (const dialect of DIALECTS) {
  describe(`relaxed transaction [${dialect}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await freshDatabase(dialect);
    });
    after(() => database.drop());

    /** The connection's durability setting as the database reports it (SQLite: 1 NORMAL, 2 FULL). */
    const durability = async (db = database.db): Promise<string> =>
      dialect === 'sqlite'
        ? String(database.sqlite?.pragma('synchronous', { simple: true }))
        : (await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(db)).rows[0]!.synchronous_commit;

    it('commits without waiting for the disk, and every later commit waits again', async () => {
      const before = await durability();
      assert.equal(before, dialect === 'sqlite' ? '2' : 'on');
      const inside = await relaxedTransaction(database, async (trx) => {
        await trx.insertInto('company_codes').values({ id: 7001, code: 'R1', name: 'relaxed' }).execute();
        return dialect === 'sqlite' ? durability() : durability(trx);
      });
      assert.equal(inside, dialect === 'sqlite' ? '1' : 'off');
      assert.equal(await durability(), before);
      const row = await database.db
        .selectFrom('company_codes')
        .select('name')
        .where('id', '=', 7001)
        .executeTakeFirst();
      assert.equal(row?.name, 'relaxed');
    });

    it('stays atomic: a failing transaction leaves nothing behind and the setting restored', async () => {
      await assert.rejects(
        relaxedTransaction(database, async (trx) => {
          await trx.insertInto('company_codes').values({ id: 7002, code: 'R2', name: 'half-written' }).execute();
          throw new Error('fails after its first write');
        }),
        /fails after its first write/,
      );
      const left = await database.db.selectFrom('company_codes').select('id').where('id', '=', 7002).execute();
      assert.deepEqual(left, []);
      assert.equal(await durability(), dialect === 'sqlite' ? '2' : 'on');
    });
  });
}
