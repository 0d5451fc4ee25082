// The importer skips the queries for stored rows in tables that held none when their collection started
// (src/dataset/import/empty-tables.ts), on SQLite. That is exact only while no table is written by two collections, and
// while a collection whose own table holds rows but whose child table holds none still finds its stored records.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { COLLECTIONS } from './format/collections.ts';
import { emptyTables, tablesOf } from './import/empty-tables.ts';
import { BulkWriter } from '../db/bulk.ts';
import { DIALECTS } from '../../test/support/db.ts';
import { count, doc, importText, withDb } from '../../test/support/dataset.ts';

describe('import: tables empty at the start of their collection', () => {
  it('no table is written by two collections', () => {
    const writers = new Map<string, string[]>();
    for (const spec of COLLECTIONS)
      for (const table of tablesOf(spec)) writers.set(table, [...(writers.get(table) ?? []), spec.name]);
    const shared = [...writers].filter(([, names]) => names.length > 1);
    assert.deepEqual(shared, []);
    assert.ok(writers.has('use_unit_billing_units') && writers.has('ca_index_rental'), 'child and detail tables count');
  });
});

const base = () => ({
  CompanyCodes: [{ Id: 1, Code: '1000', Name: 'Nord' }],
  EconomicUnits: [{ Id: 10, CompanyCodeId: 1, Number: '1001' }],
  UseUnits: [{ Id: 12, EconomicUnitId: 10, UseUnitNumber: '1001/001', Name: 'Wohnung EG links' }],
});

for (const dialect of DIALECTS) {
  describe(`import: a stored record whose child table is empty [${dialect}]`, () => {
    it(
      dialect === 'sqlite' ? 'names the empty tables of a collection' : 'names none: the API may write meanwhile',
      () =>
        withDb(dialect, async (t) => {
          await importText(t, doc(base()));
          const useUnits = COLLECTIONS.find((c) => c.name === 'UseUnits');
          assert.ok(useUnits);
          const empty = await emptyTables(new BulkWriter(t.db, t), useUnits);
          assert.deepEqual([...empty].sort(), dialect === 'sqlite' ? ['use_unit_billing_units', 'use_unit_types'] : []);
        }),
    );

    it('is updated, not created, when the file gives it its first child rows', () =>
      withDb(dialect, async (t) => {
        await importText(t, doc(base()));
        const before = await t.db.selectFrom('outbox_events').select('id').execute();
        const next = base();
        Object.assign(next.UseUnits[0] as object, { BillingUnits: [{ Id: 30, Value: 72.5, ValidFrom: '2024-01-01' }] });
        next.UseUnits.push({ Id: 14, EconomicUnitId: 10, UseUnitNumber: '1001/002', Name: 'Wohnung EG rechts' });
        await importText(t, doc(next));
        const events = await t.db
          .selectFrom('outbox_events')
          .select(['entity_type', 'entity_id', 'action'])
          .where('id', 'not in', before.length ? before.map((e) => e.id) : [0])
          .orderBy('id')
          .execute();
        assert.deepEqual(
          events.map((e) => `${e.entity_type} ${e.entity_id} ${e.action}`),
          ['UseUnit 12 updated', 'UseUnit 14 created'],
        );
        assert.equal(await count(t, 'use_unit_billing_units'), 1);
        assert.equal(await count(t, 'use_units'), 2);
      }));
  });
}
