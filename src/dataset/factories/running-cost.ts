// Running-cost distribution: distribution periods, allocation groups, combined groups, bases and their child rows.
import type { Executor } from '../../db/database.ts';
import { insertOwner } from './master.ts';
import {
  catalogId,
  firstOr,
  getRow,
  insertExplanationGroup,
  insertFacility,
  insertRow,
  nextId,
  seq,
  type Overrides,
  type Row,
} from './core.ts';

export async function insertDistributionPeriod(
  db: Executor,
  o: Overrides<'distribution_periods'> = {},
): Promise<Row<'distribution_periods'>> {
  const year = o.first_calender_year ?? 2023 + seq('distribution_period');
  return insertRow(db, 'distribution_periods', {
    id: o.id ?? nextId(),
    code: `DP${year}`,
    first_calender_year: year,
    is_bookable: 1,
    is_computable: 1,
    ...o,
    regular_distribution_period_id: await catalogId(db, 'RegularDistributionPeriod', o.regular_distribution_period_id),
  });
}

/** Owner, ledger, state, prepayment block and distribution period shared by groups and bases (defaults filled). */
async function groupHeader(db: Executor, o: Overrides<'allocation_groups'> | Overrides<'allocation_group_bases'>) {
  const owner =
    o.owner_id !== undefined
      ? await getRow(db, 'owners', o.owner_id)
      : await insertOwner(db, { company_code_id: o.company_code_id });
  return {
    owner_id: owner.id,
    company_code_id: o.company_code_id ?? owner.company_code_id,
    allocation_group_state_id: await catalogId(db, 'AllocationGroupState', o.allocation_group_state_id),
    prepayment_block_id:
      o.prepayment_block_id === null ? null : await catalogId(db, 'PrepaymentBlock', o.prepayment_block_id),
    distribution_period_id:
      o.distribution_period_id ?? (await firstOr(db, 'distribution_periods', () => insertDistributionPeriod(db))),
  };
}

export async function insertAllocationGroup(
  db: Executor,
  o: Overrides<'allocation_groups'> = {},
): Promise<Row<'allocation_groups'>> {
  const n = seq('allocation_group');
  return insertRow(db, 'allocation_groups', {
    id: o.id ?? nextId(),
    code: `AG${n}`,
    previous_allocation_group_id: null,
    individual_ownership_management: 0,
    is_cleared: 0,
    search_pattern: `AG${n}`,
    location: `Boiler room ${n}`,
    ...o,
    ...(await groupHeader(db, o)),
    distribution_type_id:
      o.distribution_type_id === null ? null : await catalogId(db, 'DistributionType', o.distribution_type_id),
    regular_distribution_period_id: await catalogId(db, 'RegularDistributionPeriod', o.regular_distribution_period_id),
  });
}

export async function insertCombinedAllocationGroup(
  db: Executor,
  o: Overrides<'combined_allocation_groups'> = {},
): Promise<Row<'combined_allocation_groups'>> {
  const orNull = async (kind: Parameters<typeof catalogId>[1], given: number | null | undefined) =>
    given === null ? null : catalogId(db, kind, given);
  return insertRow(db, 'combined_allocation_groups', {
    id: o.id ?? nextId(),
    units_total: '1234.56',
    costs_per_unit: '2.15',
    warm_water_fuel_consumption: '0.1',
    warm_water_heat_quantity: '812.5',
    independent_commercial_heating_supply: 0,
    inventory_increases_cleared: 1,
    inventory_changes_amount: '-12.30',
    ...o,
    combined_allocation_group_type_id: await orNull('CombinedAllocationGroupType', o.combined_allocation_group_type_id),
    fuel_energy_type_id: await orNull('FuelEnergyType', o.fuel_energy_type_id),
    facility_id:
      o.facility_id === undefined ? await firstOr(db, 'facilities', () => insertFacility(db)) : o.facility_id,
    settlement_state_id: await orNull('SettlementState', o.settlement_state_id),
    elementary_distribution_key_id: await orNull('ElementaryDistributionKey', o.elementary_distribution_key_id),
  });
}

/** A base; without allocation_group_id / combined_allocation_group_id those are created (in the base's ledger). */
export async function insertAllocationGroupBase(
  db: Executor,
  o: Overrides<'allocation_group_bases'> = {},
): Promise<Row<'allocation_group_bases'>> {
  const group =
    o.allocation_group_id !== undefined
      ? await getRow(db, 'allocation_groups', o.allocation_group_id)
      : await insertAllocationGroup(db, {
          owner_id: o.owner_id,
          company_code_id: o.company_code_id,
          distribution_period_id: o.distribution_period_id,
        });
  const n = seq('allocation_group_base');
  return insertRow(db, 'allocation_group_bases', {
    id: o.id ?? nextId(),
    code: `AGB${n}`,
    previous_allocation_group_base_id: null,
    search_pattern: `AGB${n}`,
    location: group.location,
    ...o,
    ...(await groupHeader(db, {
      owner_id: group.owner_id,
      company_code_id: group.company_code_id,
      distribution_period_id: group.distribution_period_id,
      allocation_group_state_id: group.allocation_group_state_id,
      prepayment_block_id: group.prepayment_block_id,
      ...o,
    })),
    allocation_group_id: group.id,
    combined_allocation_group_id: o.combined_allocation_group_id ?? (await insertCombinedAllocationGroup(db)).id,
  });
}

export async function insertAllocationGroupUseUnit(
  db: Executor,
  allocationGroupId: number,
  useUnitId: number,
): Promise<void> {
  await insertRow(db, 'allocation_group_use_units', { allocation_group_id: allocationGroupId, use_unit_id: useUnitId });
}

/** A cost type (catalogue kind AllocationGroupCostType) of an allocation group or of a base. */
export async function insertAllocationGroupCostType(
  db: Executor,
  owner: { allocation_group_id: number } | { allocation_group_base_id: number },
  costTypeId?: number,
): Promise<number> {
  const cost_type_id = await catalogId(db, 'AllocationGroupCostType', costTypeId);
  if ('allocation_group_id' in owner) await insertRow(db, 'allocation_group_cost_types', { ...owner, cost_type_id });
  else await insertRow(db, 'allocation_group_base_cost_types', { ...owner, cost_type_id });
  return cost_type_id;
}

/** An option tax of an allocation group or of a base. */
export async function insertOptionTax(
  db: Executor,
  owner: { allocation_group_id: number } | { allocation_group_base_id: number },
  o: { option_tax?: string; valid_from?: string; valid_to?: string | null } = {},
): Promise<void> {
  const row = { option_tax: '0.19', valid_from: '2024-01-01', valid_to: null, ...o };
  if ('allocation_group_id' in owner) await insertRow(db, 'allocation_group_option_taxes', { ...row, ...owner });
  else await insertRow(db, 'allocation_group_base_option_taxes', { ...row, ...owner });
}

/** An explanation of an allocation group or of a combined allocation group; returns its id. */
export async function insertExplanation(
  db: Executor,
  owner: { allocation_group_id: number } | { combined_allocation_group_id: number },
  o: { id?: number; text?: string | null; explanation_group_id?: number | null } = {},
): Promise<number> {
  const row = {
    id: o.id ?? nextId(),
    text: o.text === undefined ? `Explanation ${seq('explanation')}` : o.text,
    explanation_group_id:
      o.explanation_group_id === undefined
        ? await firstOr(db, 'explanation_groups', () => insertExplanationGroup(db))
        : o.explanation_group_id,
  };
  if ('allocation_group_id' in owner) await insertRow(db, 'allocation_group_explanations', { ...row, ...owner });
  else await insertRow(db, 'combined_allocation_group_explanations', { ...row, ...owner });
  return row.id;
}
