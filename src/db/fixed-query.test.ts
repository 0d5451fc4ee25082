import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DIALECTS, freshDatabase, type TestDatabase } from '../../test/support/db.ts';
import SQLite from 'better-sqlite3';
import { NAMED_STATEMENTS, fixedQueries, fixedQuery, fixedQueryByShape, runDirectly } from './fixed-query.ts';
import type { Executor } from './database.ts';

const insertLedger = fixedQuery<{ id: number; code: string; name: string | null }, { id: number }>(
  ['id', 'code', 'name'],
  (db, row) => db.insertInto('company_codes').values(row).returning('id'),
);
/** A definition that also holds a constant parameter of its own ('L%'), which every call keeps. */
const ledgersFrom = fixedQuery<{ from: number }, { id: number; code: string }>(['from'], (db, { from }) =>
  db
    .selectFrom('company_codes')
    .select(['id', 'code'])
    .where('id', '>=', from)
    .where('code', 'like', 'L%')
    .orderBy('id'),
);
const ledgersAmong = fixedQueries(
  (count: number) =>
    fixedQuery<Record<string, number>, { id: number }>(
      Array.from({ length: count }, (_, i) => `id${i}`),
      (_db, a) =>
        sql<{ id: number }>`select id from company_codes where id in (${sql.join(Object.values(a))}) order by id`,
    ),
  (count) => String(count),
);

interface Filter extends Record<string, unknown> {
  minId: number;
  code?: string;
  limit: number;
}
const buildFilter = (db: Executor, v: Filter) => {
  let qb = db.selectFrom('company_codes').select(['id', 'code']).where('id', '>=', v.minId);
  if (v.code !== undefined) qb = qb.where('code', '=', v.code);
  return qb.orderBy('id').limit(v.limit);
};

for (const dialect of DIALECTS) {
  describe(`fixed queries [${dialect}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await freshDatabase(dialect);
    });
    after(() => database.drop());

    it('run with each call’s arguments in place of the placeholders, in and outside a transaction', async () => {
      assert.deepEqual(await insertLedger.first(database.db, { id: 9001, code: 'L1', name: 'one' }), { id: 9001 });
      await database.db.transaction().execute(async (trx) => {
        await insertLedger.execute(trx, { id: 9002, code: 'L2', name: null });
        await insertLedger.execute(trx, { id: 9003, code: 'X3', name: 'three' });
      });
      const stored = await database.db
        .selectFrom('company_codes')
        .select(['id', 'code', 'name'])
        .where('id', '>=', 9001)
        .orderBy('id')
        .execute();
      assert.deepEqual(stored, [
        { id: 9001, code: 'L1', name: 'one' },
        { id: 9002, code: 'L2', name: null },
        { id: 9003, code: 'X3', name: 'three' },
      ]);
      // The constant of the definition stays; the argument changes per call.
      assert.deepEqual((await ledgersFrom.execute(database.db, { from: 9001 })).rows, [
        { id: 9001, code: 'L1' },
        { id: 9002, code: 'L2' },
      ]);
      assert.deepEqual((await ledgersFrom.execute(database.db, { from: 9002 })).rows, [{ id: 9002, code: 'L2' }]);
      assert.equal(await ledgersFrom.first(database.db, { from: 9004 }), undefined);
    });

    it('are compiled per shape of a family', async () => {
      assert.deepEqual((await ledgersAmong(1).execute(database.db, { id0: 9003 })).rows, [{ id: 9003 }]);
      assert.deepEqual((await ledgersAmong(2).execute(database.db, { id0: 9003, id1: 9001 })).rows, [
        { id: 9001 },
        { id: 9003 },
      ]);
      assert.equal(ledgersAmong(2), ledgersAmong(2));
    });

    it('by shape: answer what the builder answers for every shape and value, built once per shape', async () => {
      let builds = 0;
      const query = fixedQueryByShape(
        (db, v: Filter) => {
          builds++;
          return buildFilter(db, v);
        },
        (v: Filter) => (v.code === undefined ? 'all' : 'code'),
      );
      for (const values of [
        { minId: 9001, limit: 10 },
        { minId: 9002, limit: 2 },
        { minId: 9001, code: 'L2', limit: 10 },
        { minId: 9003, code: 'L2', limit: 10 },
        { minId: 9001, limit: 1 },
      ] as Filter[]) {
        const expected = await buildFilter(database.db, values).execute();
        assert.deepEqual(await query.rows(database.db, values), expected, JSON.stringify(values));
      }
      assert.equal(builds, 2);
    });

    it('rolls back with the transaction that ran it', async () => {
      await assert.rejects(
        database.db.transaction().execute(async (trx) => {
          await insertLedger.execute(trx, { id: 9010, code: 'L10', name: null });
          throw new Error('stop');
        }),
        /stop/,
      );
      assert.equal(await ledgersFrom.first(database.db, { from: 9010 }), undefined);
    });

    if (dialect === 'postgres') {
      it('are named prepared statements on PostgreSQL', () => {
        const names = [...NAMED_STATEMENTS.values()];
        assert.ok(names.length >= 3);
        assert.equal(new Set(names).size, names.length);
        assert.ok([...NAMED_STATEMENTS.keys()].some((text) => text.includes('like $2')));
      });
    }
  });
}

describe('fixed queries run directly on better-sqlite3 in a transaction that holds the connection [sqlite]', () => {
  let database: TestDatabase;
  before(async () => {
    database = await freshDatabase('sqlite');
  });
  after(() => database.drop());

  const touch = fixedQuery<{ from: number; name: string }, never>(['from', 'name'], (db, a) =>
    db.updateTable('company_codes').set({ name: a.name }).where('id', '>=', a.from),
  );

  it('answers what Kysely answers: rows, RETURNING, affected rows, errors', async () => {
    const viaKysely = await database.db.transaction().execute(async (trx) => ({
      inserted: await insertLedger.first(trx, { id: 8001, code: 'L8001', name: null }),
      rows: (await ledgersFrom.execute(trx, { from: 8000 })).rows,
      update: await touch.execute(trx, { from: 8000, name: 'k' }),
    }));
    const trx = await database.db.startTransaction().execute();
    runDirectly(trx, database.sqlite as SQLite.Database);
    const direct = {
      inserted: await insertLedger.first(trx, { id: 8002, code: 'L8002', name: null }),
      rows: (await ledgersFrom.execute(trx, { from: 8000 })).rows,
      update: await touch.execute(trx, { from: 8000, name: 'd' }),
    };
    await assert.rejects(insertLedger.first(trx, { id: 8002, code: 'again', name: null }), {
      code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
    });
    await trx.commit().execute();
    assert.deepEqual(viaKysely.inserted, { id: 8001 });
    assert.deepEqual(direct.inserted, { id: 8002 });
    assert.deepEqual(viaKysely.rows, [{ id: 8001, code: 'L8001' }]);
    assert.deepEqual(direct.rows, [
      { id: 8001, code: 'L8001' },
      { id: 8002, code: 'L8002' },
    ]);
    assert.equal(viaKysely.update.numAffectedRows, 1n);
    assert.equal(direct.update.numAffectedRows, 2n);
    assert.deepEqual(direct.update.rows, []);
    const names = await database.db.selectFrom('company_codes').select('name').where('id', '>=', 8000).execute();
    assert.deepEqual(names, [{ name: 'd' }, { name: 'd' }]);
  });
});
