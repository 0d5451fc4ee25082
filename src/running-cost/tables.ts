// Tables of running-cost distribution (wire mapping in docs/data-model.md).
import type { Decimal, DateText, Flag } from '../db/values.ts';

export interface DistributionPeriodsTable {
  id: number;
  code: string | null;
  first_calender_year: number;
  is_bookable: Flag;
  is_computable: Flag;
  regular_distribution_period_id: number;
}
interface GroupHeader {
  id: number;
  code: string | null;
  owner_id: number;
  company_code_id: number;
  allocation_group_state_id: number;
  prepayment_block_id: number | null;
  search_pattern: string | null;
  location: string | null;
  distribution_period_id: number;
}
export interface AllocationGroupsTable extends GroupHeader {
  distribution_type_id: number | null;
  previous_allocation_group_id: number | null;
  individual_ownership_management: Flag;
  is_cleared: Flag;
  regular_distribution_period_id: number;
}
export interface AllocationGroupBasesTable extends GroupHeader {
  previous_allocation_group_base_id: number | null;
  allocation_group_id: number;
  combined_allocation_group_id: number;
}
export interface CombinedAllocationGroupsTable {
  id: number;
  units_total: Decimal | null;
  costs_per_unit: string | null;
  warm_water_fuel_consumption: Decimal | null;
  warm_water_heat_quantity: Decimal | null;
  independent_commercial_heating_supply: Flag;
  inventory_increases_cleared: Flag;
  inventory_changes_amount: Decimal | null;
  combined_allocation_group_type_id: number | null;
  fuel_energy_type_id: number | null;
  facility_id: number | null;
  settlement_state_id: number | null;
  elementary_distribution_key_id: number | null;
}
export interface AllocationGroupUseUnitsTable {
  allocation_group_id: number;
  use_unit_id: number;
}
export interface AllocationGroupCostTypesTable {
  allocation_group_id: number;
  cost_type_id: number;
}
export interface AllocationGroupBaseCostTypesTable {
  allocation_group_base_id: number;
  cost_type_id: number;
}
interface OptionTaxRow {
  option_tax: Decimal;
  valid_from: DateText;
  valid_to: DateText | null;
}
export interface AllocationGroupOptionTaxesTable extends OptionTaxRow {
  allocation_group_id: number;
}
export interface AllocationGroupBaseOptionTaxesTable extends OptionTaxRow {
  allocation_group_base_id: number;
}
interface ExplanationRow {
  id: number;
  text: string | null;
  explanation_group_id: number | null;
}
export interface AllocationGroupExplanationsTable extends ExplanationRow {
  allocation_group_id: number;
}
export interface CombinedAllocationGroupExplanationsTable extends ExplanationRow {
  combined_allocation_group_id: number;
}

/** Whether a read model is fresh (migration 2026112401; src/running-cost/read-model.ts). */
export interface ReadModelStateTable {
  name: string;
  /** 1 once any source row changed since the last rebuild (triggers). */
  stale: number;
  /** The wire format the fragments were built for; another format = not usable. */
  format: string;
}
/** The JSON pieces of one AllocationGroupBase; a `_k` piece (showNullValues=true) is null when equal to the other. */
export interface AllocationGroupBaseFragmentsTable {
  id: number;
  head: string;
  head_k: string | null;
  use_units: string;
  use_units_k: string | null;
  group_explanations: string;
  group_explanations_k: string | null;
  middle: string;
  middle_k: string | null;
  combined_explanations: string;
  combined_explanations_k: string | null;
  cost_types: string;
  cost_types_k: string | null;
  option_taxes: string;
  option_taxes_k: string | null;
  /** The whole base with every include, nulls omitted (migration 2026112502); null before a rebuild. */
  complete: string | null;
}

export interface RunningCostTables {
  distribution_periods: DistributionPeriodsTable;
  allocation_groups: AllocationGroupsTable;
  combined_allocation_groups: CombinedAllocationGroupsTable;
  allocation_group_bases: AllocationGroupBasesTable;
  allocation_group_use_units: AllocationGroupUseUnitsTable;
  allocation_group_cost_types: AllocationGroupCostTypesTable;
  allocation_group_option_taxes: AllocationGroupOptionTaxesTable;
  allocation_group_base_cost_types: AllocationGroupBaseCostTypesTable;
  allocation_group_base_option_taxes: AllocationGroupBaseOptionTaxesTable;
  allocation_group_explanations: AllocationGroupExplanationsTable;
  combined_allocation_group_explanations: CombinedAllocationGroupExplanationsTable;
  read_model_state: ReadModelStateTable;
  allocation_group_base_fragments: AllocationGroupBaseFragmentsTable;
}
