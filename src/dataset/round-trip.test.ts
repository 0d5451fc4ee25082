import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { CONTRACT_AGREEMENT_KINDS } from '../rent-accounting/tables.ts';
import { buildWorld } from './factories.ts';
import { loadDemo } from './demo/load.ts';
import { count, exportText, importProblems, importText, withDb } from '../../test/support/dataset.ts';

for (const dialect of DIALECTS) {
  describe(`export and import round trip [${dialect}]`, () => {
    it('demo data: export -> import into an empty database -> export is byte-identical', () =>
      withDb(dialect, async (a) => {
        await loadDemo(a, { scale: 1, seed: 3 });
        const first = await exportText(a);
        const second = await withDb(dialect, async (b) => {
          const summary = await importText(b, first);
          assert.ok(summary.records > 1000);
          assert.equal(await count(b, 'contract_agreements'), await count(a, 'contract_agreements'));
          return exportText(b);
        });
        assert.equal(second, first);
      }));

    it('a payment mode without a TypeId is a problem (every payment mode has a Type object, decisions §7)', () =>
      withDb(dialect, async (a) => {
        await loadDemo(a, { scale: 1, seed: 3 });
        const data = JSON.parse(await exportText(a)) as { PaymentModes: Array<Record<string, unknown>> };
        const mode = data.PaymentModes[0]!;
        delete mode.TypeId;
        const problems = await withDb(dialect, (b) => importProblems(b, JSON.stringify(data)));
        assert.deepEqual(problems, [`PaymentModes[0] (Id ${String(mode.Id)}) TypeId: is missing`]);
      }));

    it("a contractor's person needs an address (every contractor has a DefaultAddress, decisions §7)", () =>
      withDb(dialect, async (a) => {
        await loadDemo(a, { scale: 1, seed: 3 });
        type Rec = Record<string, unknown>;
        const data = JSON.parse(await exportText(a)) as { Persons: Rec[]; Contractors: Rec[] };
        const person = data.Contractors[0]!.PersonId as number;
        const at = data.Persons.findIndex((p) => p.Id === person);
        data.Persons[at]!.Addresses = [];
        data.Persons[at]!.Communications = []; // they name the addresses (RelatedAddressId): a problem of its own
        const rows = data.Contractors.flatMap((c, i) => (c.PersonId === person ? [i] : []));
        // into an empty database, and into the one it came from (whose stored contractor rows name the person)
        for (const problems of [
          await withDb(dialect, (b) => importProblems(b, JSON.stringify(data))),
          await importProblems(a, JSON.stringify(data)),
        ]) {
          // in file order: the person (Persons come first), then its contractor rows
          assert.equal(problems.length, rows.length + 1, problems.join('\n'));
          assert.match(
            problems[0]!,
            new RegExp(
              `^Persons\\[${at}\\] \\(Id ${person}\\) Addresses: person ${person} is a contractor .* needs an address`,
            ),
          );
          assert.deepEqual(
            problems.slice(1),
            rows.map(
              (i) =>
                `Contractors[${i}] (Id ${String(data.Contractors[i]!.Id)}) PersonId: person ${person} has no address: a contractor's person needs one (clients read a contractor's DefaultAddress)`,
            ),
          );
        }
        // the same person without contractor rows may have no address
        data.Contractors = data.Contractors.filter((c) => c.PersonId !== person);
        const summary = await withDb(dialect, (b) => importText(b, JSON.stringify(data)));
        assert.ok(summary.records > 1000);
      }));

    it('factory data (every kind, every child table) round-trips byte-identically, decimals with their digits', () =>
      withDb(dialect, async (a) => {
        await buildWorld(a.db);
        await a.db
          .updateTable('combined_allocation_groups')
          .set({ units_total: '1234.50', inventory_changes_amount: '-0.000001' })
          .execute();
        const first = await exportText(a);
        assert.match(first, /"UnitsTotal":1234\.50,/);
        assert.match(first, /"InventoryChangesAmount":-0\.000001,/);
        const second = await withDb(dialect, async (b) => {
          await importText(b, first);
          const stored = await b.db.selectFrom('combined_allocation_groups').select('units_total').execute();
          assert.ok(stored.every((r) => r.units_total === '1234.50'));
          return exportText(b);
        });
        assert.equal(second, first);
        for (const kind of CONTRACT_AGREEMENT_KINDS) assert.ok(first.includes(`"Kind":"${kind}"`), kind);
      }));

    it('numbers in exponent form are stored with exactly their digits', () =>
      withDb(dialect, async (t) => {
        await importText(
          t,
          '{"PriceIndices":[{"Id":1,"Code":"VPI"}],"PriceIndexValues":[{"Id":2,"PriceIndexId":1,"IndexValue":1.0515e2,"ReferenceDate":"2025-01-01"},' +
            '{"Id":3,"PriceIndexId":1,"IndexValue":123456789012345678901.25,"ReferenceDate":"2025-02-01"}]}',
        );
        const rows = await t.db.selectFrom('price_index_values').select('index_value').orderBy('id').execute();
        assert.deepEqual(
          rows.map((r) => r.index_value),
          ['105.15', '123456789012345678901.25'],
        );
      }));

    it('demo data is deterministic: the same seed gives identical exports, another seed different data', () =>
      withDb(dialect, async (a) => {
        await loadDemo(a, { scale: 1, seed: 42 });
        const first = await exportText(a);
        const again = await withDb(dialect, async (b) => {
          await loadDemo(b, { scale: 1, seed: 42 });
          return exportText(b);
        });
        assert.equal(again, first);
        const other = await withDb(dialect, async (b) => {
          await loadDemo(b, { scale: 1, seed: 43 });
          return exportText(b);
        });
        assert.notEqual(other, first);
      }));

    it('demo data: several ledgers, every contract-agreement kind, use-unit numbering, grows with the scale', () =>
      withDb(dialect, async (t) => {
        await loadDemo(t, { scale: 2, seed: 1 });
        assert.ok((await count(t, 'company_codes')) >= 3);
        const useUnits = await count(t, 'use_units');
        assert.ok(useUnits >= 400 && useUnits <= 800, `use units at scale 2: ${useUnits}`);
        const kinds = await t.db.selectFrom('contract_agreements').select('kind').distinct().execute();
        assert.equal(kinds.length, CONTRACT_AGREEMENT_KINDS.length);
        const uu = await t.db.selectFrom('use_units').select('use_unit_number').orderBy('id').executeTakeFirstOrThrow();
        assert.match(uu.use_unit_number, /^\d{5}\.\d{3}\.\d{3}$/);
        for (const table of [
          'use_unit_rent_adjustments',
          'price_index_values',
          'allocation_group_bases',
          'loans',
          'budgets',
          'cost_centers',
          'project_use_units',
          'persons',
          'person_communications',
          'contractors',
          'payment_modes',
          'contract_positions',
          'jurisdictions',
          'use_unit_types',
          'catalog_entries',
        ] as const) {
          assert.ok((await count(t, table)) > 0, table);
        }
        await assert.rejects(loadDemo(t, { scale: 1 }), /empty database/);
      }));
  });
}
