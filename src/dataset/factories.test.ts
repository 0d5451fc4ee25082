import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { count, withDb } from '../../test/support/dataset.ts';
import { at, first } from '../../test/support/lists.ts';
import { CONTRACT_AGREEMENT_KINDS } from '../rent-accounting/tables.ts';
import * as domain from '../db/migrations/2026112202_domain.ts';
import * as masterData from '../db/migrations/2026112303_master_data.ts';
import * as loans from '../db/migrations/2026112402_loans.ts';
import {
  assignToProject,
  buildWorld,
  insertBuilding,
  insertCombinedAllocationGroup,
  insertCompanyCode,
  insertContractAgreement,
  insertEconomicUnit,
  insertPriceIndexValue,
  insertProject,
  insertUseUnit,
} from './factories.ts';

for (const dialect of DIALECTS) {
  describe(`domain model and factories [${dialect}]`, () => {
    it('migrates an empty database to empty domain tables', () =>
      withDb(dialect, async (t) => {
        for (const table of [
          'catalog_codes',
          'use_units',
          'allocation_group_bases',
          'contract_agreements',
          'ca_waiver_of_termination',
          'projects',
          'project_loans',
        ] as const) {
          assert.equal(await count(t, table), 0, table);
        }
      }));

    it('buildWorld stores a coherent world of two ledgers that reads back', () =>
      withDb(dialect, async (t) => {
        const world = await buildWorld(t.db);
        assert.equal(world.ledgers.length, 2);
        assert.equal(await count(t, 'company_codes'), 2);
        assert.equal(await count(t, 'contract_agreements'), 2 * CONTRACT_AGREEMENT_KINDS.length);
        for (const ledger of world.ledgers) {
          const uses = await t.db.selectFrom('use_units').selectAll().where('id', 'in', ledger.useUnitIds).execute();
          assert.equal(uses.length, 4);
          assert.ok(
            uses.every(
              (u) => u.company_code_id === ledger.companyCodeId && /^\d{5}\.\d{3}\.\d{3}$/.test(u.use_unit_number),
            ),
          );
          const kinds = await t.db
            .selectFrom('contract_agreements')
            .select(['kind', 'company_code_id'])
            .where('id', 'in', Object.values(ledger.contractAgreementIds))
            .orderBy('kind')
            .execute();
          assert.deepEqual(
            kinds.map((k) => k.kind),
            [...CONTRACT_AGREEMENT_KINDS].sort(),
          );
          assert.ok(kinds.every((k) => k.company_code_id === ledger.companyCodeId));
          const base = await t.db
            .selectFrom('allocation_group_bases as b')
            .innerJoin('allocation_groups as g', 'g.id', 'b.allocation_group_id')
            .innerJoin('combined_allocation_groups as c', 'c.id', 'b.combined_allocation_group_id')
            .select(['b.company_code_id', 'g.id as group_id', 'c.units_total'])
            .where('b.id', '=', at(ledger.allocationGroupBaseIds, 1))
            .executeTakeFirstOrThrow();
          assert.deepEqual(base, {
            company_code_id: ledger.companyCodeId,
            group_id: ledger.allocationGroupIds[1],
            units_total: '1234.56',
          });
        }
        // every kind with child rows got them
        for (const table of [
          'ca_graduated_rent_entries',
          'ca_turnover_rent_steps',
          'ca_gross_rent_excluded_groups',
          'ca_special_charge_calculation_bases',
          'ca_special_charge_billing_unit_values',
          'ca_distribution_cost_types',
          'ca_prolongations',
          'ca_reminder_charge_dunning_levels',
          'allocation_group_use_units',
          'allocation_group_cost_types',
          'allocation_group_option_taxes',
          'allocation_group_explanations',
          'combined_allocation_group_explanations',
          'allocation_group_base_cost_types',
          'allocation_group_base_option_taxes',
          'rent_adjustment_surcharges',
          'rent_adjustment_facility_characteristics',
          'price_index_values',
        ] as const) {
          assert.ok((await count(t, table)) > 0, table);
        }
        assert.equal(await count(t, 'ca_special_charge'), 4); // MaxCostDistribution + DistributionSpecialCharge, two ledgers
        assert.equal(await count(t, 'ca_reminder_charge'), 4);
      }));

    it('round-trips decimals exactly as strings', () =>
      withDb(dialect, async (t) => {
        const group = await insertCombinedAllocationGroup(t.db, {
          units_total: '1234.56',
          warm_water_fuel_consumption: '0.1',
          inventory_changes_amount: '-0.30',
        });
        const value = await insertPriceIndexValue(t.db, { index_value: '117.8' });
        const back = await t.db
          .selectFrom('combined_allocation_groups')
          .selectAll()
          .where('id', '=', group.id)
          .executeTakeFirstOrThrow();
        assert.equal(back.units_total, '1234.56');
        assert.equal(back.warm_water_fuel_consumption, '0.1');
        assert.equal(back.inventory_changes_amount, '-0.30');
        const v = await t.db
          .selectFrom('price_index_values')
          .select('index_value')
          .where('id', '=', value.id)
          .executeTakeFirstOrThrow();
        assert.equal(v.index_value, '117.8');
      }));

    it('rejects foreign keys that point nowhere or across ledgers', () =>
      withDb(dialect, async (t) => {
        const ledger = await insertCompanyCode(t.db);
        await assert.rejects(
          insertUseUnit(t.db, { economic_unit_id: 2_000_000_000, company_code_id: ledger.id, building_id: null }),
        );
        const other = await insertCompanyCode(t.db);
        const eu = await insertEconomicUnit(t.db, { company_code_id: ledger.id });
        await assert.rejects(insertBuilding(t.db, { economic_unit_id: eu.id, company_code_id: other.id }));
        const foreignBuilding = await insertBuilding(t.db, { company_code_id: ledger.id });
        await assert.rejects(insertUseUnit(t.db, { economic_unit_id: eu.id, building_id: foreignBuilding.id }));
        assert.equal(await count(t, 'use_units'), 0);
      }));

    it('moves the ledger columns along when an economic unit changes ledger', () =>
      withDb(dialect, async (t) => {
        const ca = await insertContractAgreement(t.db, 'GraduatedRentAgreement');
        const other = await insertCompanyCode(t.db);
        const license = await t.db
          .selectFrom('license_agreements')
          .selectAll()
          .where('id', '=', ca.license_agreement_id)
          .executeTakeFirstOrThrow();
        const useUnit = await t.db
          .selectFrom('use_units')
          .selectAll()
          .where('id', '=', license.use_unit_id)
          .executeTakeFirstOrThrow();
        await t.db
          .updateTable('economic_units')
          .set({ company_code_id: other.id })
          .where('id', '=', useUnit.economic_unit_id)
          .execute();
        for (const table of ['buildings', 'use_units', 'license_agreements', 'contract_agreements'] as const) {
          const rows = await t.db.selectFrom(table).select('company_code_id').execute();
          assert.deepEqual(
            rows.map((r) => r.company_code_id),
            [other.id],
            table,
          );
        }
      }));

    it('keeps project codes unique per ledger and deletes assignments with the project', () =>
      withDb(dialect, async (t) => {
        const p1 = await insertProject(t.db, { code: 'X1' });
        await assert.rejects(insertProject(t.db, { code: 'X1', company_code_id: p1.company_code_id }));
        await insertProject(t.db, { code: 'X1' }); // another ledger
        await insertProject(t.db, { code: null, company_code_id: p1.company_code_id });
        await insertProject(t.db, { code: null, company_code_id: p1.company_code_id });
        const eu = await insertEconomicUnit(t.db, { company_code_id: p1.company_code_id });
        const useUnit = await insertUseUnit(t.db, { economic_unit_id: eu.id });
        await assignToProject(t.db, p1.id, {
          economicUnits: [eu.id],
          buildings: [useUnit.building_id!],
          useUnits: [useUnit.id],
        });
        assert.equal(await count(t, 'project_use_units'), 1);
        await t.db.deleteFrom('projects').where('id', '=', p1.id).execute();
        assert.equal(
          (await count(t, 'project_economic_units')) +
            (await count(t, 'project_buildings')) +
            (await count(t, 'project_use_units')),
          0,
        );
        assert.equal(await count(t, 'use_units'), 1);
      }));

    it('migration down drops every domain table (with data in them) and up restores them', () =>
      withDb(dialect, async (t) => {
        await buildWorld(t.db, { ledgers: 1 });
        await loans.down(t.db); // it references the master-data tables
        await masterData.down(t.db); // it references the domain tables
        await domain.down(t.db);
        await assert.rejects(t.db.selectFrom('use_units').selectAll().execute());
        assert.equal(await count(t, 'company_codes'), 1); // foundation untouched
        await domain.up(t.db);
        await masterData.up(t.db);
        await loans.up(t.db);
        const world = await buildWorld(t.db, { ledgers: 1 });
        assert.equal(await count(t, 'contract_agreements'), CONTRACT_AGREEMENT_KINDS.length);
        assert.equal(first(world.ledgers).useUnitIds.length, 4);
      }));
  });
}
