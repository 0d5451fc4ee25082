// A query built once per shape answers what its builder answers for the same values, on both engines; a value the
// builder did not take from the markers is refused instead of being frozen into the cached statement.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, freshDatabase, type TestDatabase } from '../../test/support/db.ts';
import { insertCompanyCode } from '../dataset/factories.ts';
import { compiledOnce } from './compiled-once.ts';
import type { Executor } from './database.ts';

interface Values extends Record<string, unknown> {
  minId: number;
  code?: string;
  limit: number;
}

const shape = (v: Values) => (v.code === undefined ? 'all' : 'code');
const build = (db: Executor, v: Values) => {
  let qb = db.selectFrom('company_codes').select(['id', 'code']).where('id', '>=', v.minId);
  if (v.code !== undefined) qb = qb.where('code', '=', v.code);
  return qb.orderBy('id').limit(v.limit);
};

for (const dialect of DIALECTS) {
  describe(`compiledOnce [${dialect}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await freshDatabase(dialect);
      for (let i = 1; i <= 5; i++) await insertCompanyCode(database.db, { id: i, code: `C${i}` });
    });
    after(() => database.drop());

    it('answers what the builder answers, for every shape and value, with the statement built once per shape', async () => {
      let builds = 0;
      const query = compiledOnce(shape, (db, v: Values) => {
        builds++;
        return build(db, v);
      });
      for (const values of [
        { minId: 1, limit: 10 },
        { minId: 3, limit: 2 },
        { minId: 1, code: 'C4', limit: 10 },
        { minId: 5, code: 'C4', limit: 10 },
        { minId: 2, limit: 1 },
      ] as Values[]) {
        const expected = await build(database.db, values).execute();
        assert.deepEqual(await query.rows(database.db, values), expected, JSON.stringify(values));
      }
      assert.equal(builds, 2);
    });

    it('refuses a builder that puts a value of its own into a parameter', async () => {
      const query = compiledOnce(shape, (db, v: Values) => build(db, { ...v, minId: 2 }));
      await assert.rejects(query.rows(database.db, { minId: 1, limit: 10 }), /not a marked value/);
    });
  });
}
