import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, freshDatabase, type TestDatabase } from '../../test/support/db.ts';
import { WriteQueue } from './write-queue.ts';

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
