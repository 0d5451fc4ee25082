// Master data: owners, economic units, buildings, land, use units, budgets, loans, cost centres/units/types.
// Parents that are not given are created; ledger columns are copied from the parent.
import type { Executor } from '../../db/database.ts';
import { findRow, getRow, insertCompanyCode, insertRow, nextId, seq, type Overrides, type Row } from './core.ts';
import {
  buildBudget,
  buildBuilding,
  buildCostObject,
  buildEconomicUnit,
  buildLand,
  buildLoan,
  buildOwner,
  buildUseUnit,
} from './builders.ts';

async function ledgerOr(db: Executor, companyCodeId: number | undefined): Promise<number> {
  return companyCodeId ?? (await insertCompanyCode(db)).id;
}

export async function insertOwner(db: Executor, o: Overrides<'owners'> = {}): Promise<Row<'owners'>> {
  const company_code_id = await ledgerOr(db, o.company_code_id);
  return insertRow(db, 'owners', buildOwner(o.id ?? nextId(), seq('owner'), { ...o, company_code_id }));
}

export async function insertEconomicUnit(
  db: Executor,
  o: Overrides<'economic_units'> = {},
): Promise<Row<'economic_units'>> {
  const company_code_id = await ledgerOr(db, o.company_code_id);
  return insertRow(
    db,
    'economic_units',
    buildEconomicUnit(o.id ?? nextId(), seq('economic_unit'), { ...o, company_code_id }),
  );
}

/**
 * The economic unit of a child row (created when not given). A given company_code_id wins over the unit's own,
 * so a test can hand the database a mismatch (or an unknown unit) and see it refused.
 */
async function economicUnitOf(db: Executor, o: { economic_unit_id?: number; company_code_id?: number }) {
  if (o.economic_unit_id === undefined) return insertEconomicUnit(db, { company_code_id: o.company_code_id });
  const row = await findRow(db, 'economic_units', o.economic_unit_id);
  if (o.company_code_id !== undefined)
    return { id: o.economic_unit_id, company_code_id: o.company_code_id, number: row?.number ?? null };
  return row ?? getRow(db, 'economic_units', o.economic_unit_id);
}

export async function insertBuilding(db: Executor, o: Overrides<'buildings'> = {}): Promise<Row<'buildings'>> {
  const eu = await economicUnitOf(db, o);
  return insertRow(db, 'buildings', buildBuilding(o.id ?? nextId(), seq(`building:${eu.id}`), eu, o));
}

export async function insertLand(db: Executor, o: Overrides<'lands'> = {}): Promise<Row<'lands'>> {
  const eu = await economicUnitOf(db, o);
  return insertRow(db, 'lands', buildLand(o.id ?? nextId(), seq(`land:${eu.id}`), eu, o));
}

/** A use unit; without building_id a building of its economic unit is created (pass building_id: null for none). */
export async function insertUseUnit(db: Executor, o: Overrides<'use_units'> = {}): Promise<Row<'use_units'>> {
  const eu = await economicUnitOf(db, o);
  const building =
    o.building_id === undefined
      ? await insertBuilding(db, { economic_unit_id: eu.id, company_code_id: eu.company_code_id })
      : o.building_id === null
        ? null
        : ((await findRow(db, 'buildings', o.building_id)) ?? { id: o.building_id, number: null });
  return insertRow(
    db,
    'use_units',
    buildUseUnit(o.id ?? nextId(), seq(`use_unit:${building?.id ?? eu.id}`), eu, building, o),
  );
}

export async function insertBudget(db: Executor, o: Overrides<'budgets'> = {}): Promise<Row<'budgets'>> {
  const company_code_id = await ledgerOr(db, o.company_code_id);
  return insertRow(db, 'budgets', buildBudget(o.id ?? nextId(), seq('budget'), { ...o, company_code_id }));
}

export async function insertLoan(db: Executor, o: Overrides<'loans'> = {}): Promise<Row<'loans'>> {
  const company_code_id = await ledgerOr(db, o.company_code_id);
  return insertRow(db, 'loans', buildLoan(o.id ?? nextId(), seq('loan'), { ...o, company_code_id }));
}

export async function insertCostCenter(db: Executor, o: Overrides<'cost_centers'> = {}): Promise<Row<'cost_centers'>> {
  return insertRow(db, 'cost_centers', buildCostObject('CC', o.id ?? nextId(), seq('cost_center'), o));
}

export async function insertCostUnit(db: Executor, o: Overrides<'cost_units'> = {}): Promise<Row<'cost_units'>> {
  return insertRow(db, 'cost_units', buildCostObject('CU', o.id ?? nextId(), seq('cost_unit'), o));
}

export async function insertCostType(db: Executor, o: Overrides<'cost_types'> = {}): Promise<Row<'cost_types'>> {
  return insertRow(db, 'cost_types', buildCostObject('CT', o.id ?? nextId(), seq('cost_type'), o));
}
