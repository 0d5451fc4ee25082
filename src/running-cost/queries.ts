// Reads of the running-cost distribution: one page of records per call, filtered, ledger-scoped, ordered by id and
// paged in the database (every filter column has an index (column, id)); reference codes come from joins.
import { sql, type Expression, type SqlBool } from 'kysely';
import { isPostgres, type Executor } from '../db/database.ts';
import { ledgerCondition, type LedgerScope } from '../auth/ledger-scope.ts';
import { containsPattern, likeCondition } from './search.ts';

export interface Page {
  limit: number;
  offset: number;
}

/** Filters of the group endpoints (AND); `code` and `searchPattern` empty = not given. */
export interface GroupFilters {
  id?: number;
  code?: string;
  ownerId?: number;
  companyCodeId?: number;
  distributionPeriodId?: number;
  prepaymentBlockId?: number;
  /** AllocationGroups only. */
  distributionTypeId?: number;
  searchPattern?: string;
}

export interface DistributionPeriodRow {
  id: number;
  code: string | null;
  first_calender_year: number;
  is_bookable: number;
  is_computable: number;
  regular_id: number;
  regular_code: string | null;
}

/** Columns shared by the header rows of groups and bases. */
interface HeaderRow {
  id: number;
  code: string | null;
  owner_id: number;
  owner_number: string | null;
  company_code_id: number;
  company_code_name: string | null;
  company_code_code: string | null;
  state_id: number;
  state_code: string | null;
  prepayment_block_id: number | null;
  prepayment_block_code: string | null;
  previous_id: number | null;
  previous_code: string | null;
  search_pattern: string | null;
  location: string | null;
  distribution_period_id: number;
  distribution_period_code: string | null;
}

export interface AllocationGroupRow extends HeaderRow {
  distribution_type_id: number | null;
  distribution_type_code: string | null;
  individual_ownership_management: number;
  is_cleared: number;
  regular_id: number;
  regular_code: string | null;
}

export interface AllocationGroupBaseRow extends HeaderRow {
  group_id: number;
  group_individual_ownership_management: number | null;
  group_is_cleared: number | null;
  group_regular_id: number | null;
  group_regular_code: string | null;
  combined_id: number;
  units_total: string | null;
  costs_per_unit: string | null;
  warm_water_fuel_consumption: string | null;
  warm_water_heat_quantity: string | null;
  independent_commercial_heating_supply: number | null;
  inventory_increases_cleared: number | null;
  inventory_changes_amount: string | null;
  combined_type_id: number | null;
  combined_type_code: string | null;
  fuel_energy_type_id: number | null;
  fuel_energy_type_code: string | null;
  facility_id: number | null;
  facility_name: string | null;
  settlement_state_id: number | null;
  settlement_state_code: string | null;
  elementary_key_id: number | null;
  elementary_key_code: string | null;
}

export async function listDistributionPeriods(db: Executor, page: Page): Promise<DistributionPeriodRow[]> {
  return db
    .selectFrom('distribution_periods as dp')
    .leftJoin('catalog_codes as rdp', 'rdp.id', 'dp.regular_distribution_period_id')
    .select([
      'dp.id',
      'dp.code',
      'dp.first_calender_year',
      'dp.is_bookable',
      'dp.is_computable',
      'dp.regular_distribution_period_id as regular_id',
      'rdp.code as regular_code',
    ])
    .orderBy('dp.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The WHERE conditions of a group or base page on the header table `alias` (same column names in both). */
export function headerConditions(
  db: Executor,
  alias: 'g' | 'b',
  f: GroupFilters,
  scope: LedgerScope,
  /** The searchPattern's LIKE pattern (`containsPattern`), made by the caller when the query is a fixed one. */
  like = f.searchPattern ? containsPattern(f.searchPattern) : undefined,
): Expression<SqlBool>[] {
  const col = (name: string) => sql.ref<number | string | null>(`${alias}.${name}`);
  const out: Expression<SqlBool>[] = [ledgerCondition(col('company_code_id') as Expression<number>, scope)];
  const equal = (name: string, value: number | string | undefined) => {
    if (value !== undefined && value !== '') out.push(sql<SqlBool>`${col(name)} = ${value}`);
  };
  equal('id', f.id);
  equal('code', f.code);
  equal('owner_id', f.ownerId);
  equal('company_code_id', f.companyCodeId);
  equal('distribution_period_id', f.distributionPeriodId);
  equal('prepayment_block_id', f.prepaymentBlockId);
  if (alias === 'g') equal('distribution_type_id', f.distributionTypeId);
  if (like !== undefined) {
    const columns = ['search_pattern', 'code', 'location'].map((c) => col(c) as Expression<string | null>);
    out.push(likeCondition(columns, like, isPostgres(db)));
  }
  return out;
}

export async function listAllocationGroups(
  db: Executor,
  f: GroupFilters,
  scope: LedgerScope,
  page: Page,
): Promise<AllocationGroupRow[]> {
  return db
    .selectFrom('allocation_groups as g')
    .leftJoin('owners as o', 'o.id', 'g.owner_id')
    .leftJoin('company_codes as cc', 'cc.id', 'g.company_code_id')
    .leftJoin('catalog_codes as st', 'st.id', 'g.allocation_group_state_id')
    .leftJoin('catalog_codes as pb', 'pb.id', 'g.prepayment_block_id')
    .leftJoin('catalog_codes as dt', 'dt.id', 'g.distribution_type_id')
    .leftJoin('allocation_groups as prev', 'prev.id', 'g.previous_allocation_group_id')
    .leftJoin('distribution_periods as dp', 'dp.id', 'g.distribution_period_id')
    .leftJoin('catalog_codes as rdp', 'rdp.id', 'g.regular_distribution_period_id')
    .select([
      'g.id',
      'g.code',
      'g.owner_id',
      'o.owner_number',
      'g.company_code_id',
      'cc.name as company_code_name',
      'cc.code as company_code_code',
      'g.allocation_group_state_id as state_id',
      'st.code as state_code',
      'g.prepayment_block_id',
      'pb.code as prepayment_block_code',
      'g.distribution_type_id',
      'dt.code as distribution_type_code',
      'g.previous_allocation_group_id as previous_id',
      'prev.code as previous_code',
      'g.individual_ownership_management',
      'g.is_cleared',
      'g.search_pattern',
      'g.location',
      'g.distribution_period_id',
      'dp.code as distribution_period_code',
      'g.regular_distribution_period_id as regular_id',
      'rdp.code as regular_code',
    ])
    .where('g.id', 'in', (eb) =>
      eb
        .selectFrom('allocation_groups as g')
        .select('g.id')
        .where((e) => e.and(headerConditions(db, 'g', f, scope)))
        .orderBy('g.id')
        .limit(page.limit)
        .offset(page.offset),
    )
    .orderBy('g.id')
    .execute();
}

export async function listAllocationGroupBases(
  db: Executor,
  f: GroupFilters,
  scope: LedgerScope,
  page: Page,
): Promise<AllocationGroupBaseRow[]> {
  return (
    db
      .selectFrom('allocation_group_bases as b')
      .leftJoin('owners as o', 'o.id', 'b.owner_id')
      .leftJoin('company_codes as cc', 'cc.id', 'b.company_code_id')
      .leftJoin('catalog_codes as st', 'st.id', 'b.allocation_group_state_id')
      .leftJoin('catalog_codes as pb', 'pb.id', 'b.prepayment_block_id')
      .leftJoin('allocation_group_bases as prev', 'prev.id', 'b.previous_allocation_group_base_id')
      .leftJoin('distribution_periods as dp', 'dp.id', 'b.distribution_period_id')
      .leftJoin('allocation_groups as g', 'g.id', 'b.allocation_group_id')
      .leftJoin('catalog_codes as rdp', 'rdp.id', 'g.regular_distribution_period_id')
      .leftJoin('combined_allocation_groups as c', 'c.id', 'b.combined_allocation_group_id')
      .leftJoin('catalog_codes as ct', 'ct.id', 'c.combined_allocation_group_type_id')
      .leftJoin('catalog_codes as fe', 'fe.id', 'c.fuel_energy_type_id')
      .leftJoin('facilities as fa', 'fa.id', 'c.facility_id')
      .leftJoin('catalog_codes as ss', 'ss.id', 'c.settlement_state_id')
      .leftJoin('catalog_codes as ek', 'ek.id', 'c.elementary_distribution_key_id')
      .select([
        'b.id',
        'b.code',
        'b.owner_id',
        'o.owner_number',
        'b.company_code_id',
        'cc.name as company_code_name',
        'cc.code as company_code_code',
        'b.allocation_group_state_id as state_id',
        'st.code as state_code',
        'b.prepayment_block_id',
        'pb.code as prepayment_block_code',
        'b.previous_allocation_group_base_id as previous_id',
        'prev.code as previous_code',
        'b.search_pattern',
        'b.location',
        'b.distribution_period_id',
        'dp.code as distribution_period_code',
        'b.allocation_group_id as group_id',
        'g.individual_ownership_management as group_individual_ownership_management',
        'g.is_cleared as group_is_cleared',
        'g.regular_distribution_period_id as group_regular_id',
        'rdp.code as group_regular_code',
        'b.combined_allocation_group_id as combined_id',
        'c.units_total',
        'c.costs_per_unit',
        'c.warm_water_fuel_consumption',
        'c.warm_water_heat_quantity',
        'c.independent_commercial_heating_supply',
        'c.inventory_increases_cleared',
        'c.inventory_changes_amount',
        'c.combined_allocation_group_type_id as combined_type_id',
        'ct.code as combined_type_code',
        'c.fuel_energy_type_id',
        'fe.code as fuel_energy_type_code',
        'c.facility_id',
        'fa.name as facility_name',
        'c.settlement_state_id',
        'ss.code as settlement_state_code',
        'c.elementary_distribution_key_id as elementary_key_id',
        'ek.code as elementary_key_code',
      ])
      // Deferred join: the page's ids are found on the header table alone (index only), so a deep offset does not
      // pay for the joins of the rows it skips.
      .where('b.id', 'in', (eb) =>
        eb
          .selectFrom('allocation_group_bases as b')
          .select('b.id')
          .where((e) => e.and(headerConditions(db, 'b', f, scope)))
          .orderBy('b.id')
          .limit(page.limit)
          .offset(page.offset),
      )
      .orderBy('b.id')
      .execute()
  );
}
