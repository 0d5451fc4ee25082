// Every table, declared once. Row/Insertable/Updateable types derive from these (Kysely).
// Conventions: dates are 'YYYY-MM-DD' text, timestamps ISO 8601 UTC text, booleans integer 0/1,
// decimals exact (NUMERIC on PostgreSQL, TEXT on SQLite; read back as strings).
import type { Generated } from 'kysely';

export interface CompanyCodesTable {
  id: number;
  code: string | null;
  name: string | null;
}

export interface UsersTable {
  id: Generated<number>;
  name: string;
  password_hash: string;
  disabled: Generated<number>;
  all_ledgers: Generated<number>;
  created_at: string;
}
export interface UserPermissionsTable {
  user_id: number;
  permission: string;
}
export interface UserLedgersTable {
  user_id: number;
  company_code_id: number;
}

export interface OauthTokensTable {
  id: Generated<number>;
  token_hash: string;
  kind: 'access' | 'refresh';
  user_id: number;
  family: string;
  expires_at: string;
  used_at: string | null;
  revoked: Generated<number>;
  created_at: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  key_hash: string;
  all_ledgers: number;
  created_at: string;
  revoked_at: string | null;
}
export interface ApiKeyLedgersTable {
  api_key_id: number;
  company_code_id: number;
}

export interface OutboxEventsTable {
  id: Generated<number>;
  event_id: string;
  entity_type: string;
  entity_id: number;
  action: 'created' | 'updated' | 'deleted';
  company_code_id: number | null;
  user_id: number | null;
  created_at: string;
  dispatched_at: string | null;
}

// ---- domain model (migration 2026112202_domain; wire mapping in docs/data-model.md) -------------------------
/** Exact decimal: a string such as '1234.56' (NUMERIC on PostgreSQL, TEXT on SQLite). */
export type Decimal = string;
/** 'YYYY-MM-DD'. */
export type DateText = string;
/** ISO 8601 UTC date-time, e.g. '2025-06-27T00:00:00Z'. */
export type DateTimeText = string;
/** Boolean stored as 0/1. */
export type Flag = number;

/** Kinds of the rows of catalog_codes: the CodeRef/Ref types of the interface, one value set each. */
export const CATALOG_KINDS = [
  // running-cost distribution
  'RegularDistributionPeriod',
  'AllocationGroupState',
  'PrepaymentBlock',
  'DistributionType',
  'AllocationGroupCostType',
  'CombinedAllocationGroupType',
  'FuelEnergyType',
  'SettlementState',
  'ElementaryDistributionKey',
  // rent accounting
  'VatRate',
  'ContractPositionType',
  'ContractAgreementAccountingInterval',
  'ContractAgreementType',
  'DistributionSpecialChargeType',
  'CalculationBase',
  'BillingUnitValue',
  'DistributionCostType',
  'StandardDistributionKey',
  'DefaultRoundingToInteger',
  'PrepaymentAdjustmentRoundingType',
  'MatchingBlocker',
  'AutomaticProlongationAfterEndOfContract',
  'ProlongationPeriod',
  'Currency',
  'DunningLevel',
  'ReasonOfWaiver',
  // rent adjustments (v1.0)
  'FIOLegalState',
  'Municipality',
  'CapLimit',
  'SpecialAttribute',
  'FacilityCharacteristicGroup',
] as const;
export type CatalogKind = (typeof CATALOG_KINDS)[number];

/** The 17 contract-agreement kinds (version 1.2 names; contract_agreements.kind). */
export const CONTRACT_AGREEMENT_KINDS = [
  'IndexRentalAgreement',
  'GraduatedRentAgreement',
  'TurnoverRentAgreement',
  'VatOptionAgreement',
  'RentalUpperLimit',
  'GrossRentsWithoutHeating',
  'MaxCostDistribution',
  'DistributionSpecialCharge',
  'SpecialUseRight',
  'PrepaymentAdjustment',
  'DistributionCostType',
  'MultipleOptInAgreement',
  'MinorRepairWorkAgreement',
  'CivilCodeAdaptationLockAgreement',
  'ReminderChargeFixedAmount',
  'ReminderChargeInterest',
  'WaiverOfTerminationAgreement',
] as const;
export type ContractAgreementKind = (typeof CONTRACT_AGREEMENT_KINDS)[number];

export interface CatalogCodesTable {
  id: number;
  kind: CatalogKind;
  code: string | null;
  name: string | null;
  short_code: string | null;
  /** ReasonOfWaiver.NodeId */
  node_id: number | null;
  /** BillingUnitValue.ArgeCode */
  arge_code: string | null;
  /** DistributionSpecialChargeType flags */
  is_fix_costs_per_distribution_key_unit: Flag | null;
  is_percent_of_contract_position: Flag | null;
  is_upper_limit: Flag | null;
}
export interface FacilitiesTable {
  id: number;
  name: string | null;
}
export interface ExplanationGroupsTable {
  id: number;
  name: string | null;
}

// master data; company_code_id of buildings/lands/use units equals their economic unit's (composite FK)
export interface OwnersTable {
  id: number;
  owner_number: string | null;
  company_code_id: number;
}
export interface EconomicUnitsTable {
  id: number;
  company_code_id: number;
  number: string | null;
  name: string | null;
}
export interface BuildingsTable {
  id: number;
  economic_unit_id: number;
  company_code_id: number;
  number: string | null;
  name: string | null;
}
export interface LandsTable {
  id: number;
  economic_unit_id: number;
  company_code_id: number;
  number: string | null;
  name: string | null;
}
export interface UseUnitsTable {
  id: number;
  economic_unit_id: number;
  company_code_id: number;
  building_id: number | null;
  use_unit_number: string;
  name: string | null;
}
export interface BudgetsTable {
  id: number;
  company_code_id: number;
  name: string | null;
}
export interface LoansTable {
  id: number;
  company_code_id: number;
  loan_number: string | null;
  name: string | null;
}
/** cost_centers, cost_units, cost_types share this shape; company_code_id null = usable in every ledger. */
export interface CostObjectsTable {
  id: number;
  company_code_id: number | null;
  code: string | null;
  name: string | null;
}

// running-cost distribution
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

// rent accounting
export interface PriceIndicesTable {
  id: number;
  code: string;
  note: string | null;
}
export interface PriceIndexValuesTable {
  id: number;
  price_index_id: number;
  index_value: Decimal;
  reference_date: DateText;
}
export interface LicenseAgreementsTable {
  id: number;
  id_num: string;
  use_unit_id: number;
  company_code_id: number;
  valid_from: DateText;
  valid_to: DateText | null;
}
/** Header of every contract agreement; company_code_id equals its license agreement's (composite FK). */
export interface ContractAgreementsTable {
  id: number;
  kind: ContractAgreementKind;
  license_agreement_id: number;
  company_code_id: number;
  valid_from: DateText;
  valid_to: DateText | null;
  input_date: DateText | null;
  first_debit: DateText | null;
}
export interface CaIndexRentalTable {
  contract_agreement_id: number;
  price_index_id: number | null;
  price_index_value_id: number | null;
  transfer_percent: Decimal | null;
  waiting_period: Decimal | null;
  limit_for_increase: Decimal | null;
  limit_for_reduction: Decimal | null;
  scope_change: DateText | null;
  automatic_adjustment: Flag;
  base_year: number | null;
  /** v1.0 ContractAgreementTypeId / ContractAgreementType */
  contract_agreement_type_id: number | null;
  /** v1.0 ReferenceValueIndex */
  reference_value_index: string | null;
}
export interface CaGraduatedRentTable {
  contract_agreement_id: number;
  rental_upper_limit: Decimal | null;
  contract_position_type_id: number | null;
}
export interface CaGraduatedRentEntriesTable {
  id: number;
  contract_agreement_id: number;
  rent_change_date: DateTimeText | null;
  amount: Decimal | null;
  activated_agreement: Flag;
  vat_rate_id: number | null;
  invalid: Flag;
  square_meters: Decimal | null;
  price_per_square_meter: Decimal | null;
}
export interface CaTurnoverRentTable {
  contract_agreement_id: number;
  contract_position_type_id: number | null;
  accounting_interval_id: number | null;
  next_accounting_date: DateTimeText | null;
  last_accounting_date: DateTimeText | null;
  last_period_of_service: Decimal | null;
  rental_upper_limit_net: Decimal | null;
  rental_upper_limit_gross: Decimal | null;
  rental_lower_limit_net: Decimal | null;
  rental_lower_limit_gross: Decimal | null;
  ascending: Flag;
}
export interface CaTurnoverRentStepsTable {
  id: number;
  contract_agreement_id: number;
  turnover_from: Decimal | null;
  turnover_to: Decimal | null;
  percentage: Decimal | null;
}
export interface CaVatOptionTable {
  contract_agreement_id: number;
  vat_rate_id: number | null;
}
export interface CaRentalUpperLimitTable {
  contract_agreement_id: number;
  rental_upper_limit: Decimal | null;
}
export interface CaGrossRentExcludedGroupsTable {
  contract_agreement_id: number;
  allocation_group_id: number;
}
/** MaxCostDistribution and DistributionSpecialCharge. */
export interface CaSpecialChargeTable {
  contract_agreement_id: number;
  percentage: Decimal | null;
  is_gross_amount: Flag;
  fix_costs_value: Decimal | null;
  special_charge_type_id: number | null;
  prepayment_block_id: number | null;
  distribution_cost_type_id: number | null;
}
export interface CaSpecialChargeCalculationBasesTable {
  contract_agreement_id: number;
  position: number;
  calculation_base_id: number;
}
export interface CaSpecialChargeBillingUnitValuesTable {
  contract_agreement_id: number;
  position: number;
  billing_unit_value_id: number;
}
export interface CaSpecialUseRightTable {
  contract_agreement_id: number;
  description: string | null;
}
export interface CaPrepaymentAdjustmentTable {
  contract_agreement_id: number;
  minimum_amount_increase: Decimal | null;
  minimum_amount_reduction: Decimal | null;
  cap_amount: Decimal | null;
  default_rounding_to_integer_id: number | null;
  rounding_type_id: number | null;
  matching_blocker_id: number | null;
  prepayment_block_id: number | null;
}
export interface CaDistributionCostTypesTable {
  contract_agreement_id: number;
  position: number;
  distribution_cost_type_id: number;
  standard_distribution_key_id: number | null;
}
export interface CaMultipleOptInTable {
  contract_agreement_id: number;
  first_end_of_contract: DateText | null;
  automatic_prolongation_id: number | null;
}
export interface CaProlongationsTable {
  id: number;
  contract_agreement_id: number;
  prolongation_period_id: number | null;
  prolongation_activated: Flag;
  new_end_of_contract: DateTimeText | null;
  option_deadline: DateTimeText | null;
}
export interface CaMinorRepairWorkTable {
  contract_agreement_id: number;
  is_regarded_in_commissioning: Flag;
  per_repair_is_net_amount: Flag;
  per_repair_amount: Decimal | null;
  per_year_amount: Decimal | null;
  per_year_is_absolute: Flag;
  per_year_is_rent_calculation_net_rent: Flag;
  per_year_is_net_commission_amount: Flag;
  annual_rent_cost_portion_per_year: Decimal | null;
  annual_rent_cost_portion_per_year_string: string | null;
  annual_rent: Decimal | null;
  currency_id: number | null;
}
/** ReminderChargeFixedAmount (reminder_fee) and ReminderChargeInterest (the two rates). */
export interface CaReminderChargeTable {
  contract_agreement_id: number;
  reminder_fee: Decimal | null;
  debit_interest_rate: Decimal | null;
  minimum_interest_rate: Decimal | null;
}
export interface CaReminderChargeDunningLevelsTable {
  contract_agreement_id: number;
  dunning_level_id: number;
}
export interface CaWaiverOfTerminationTable {
  contract_agreement_id: number;
  reason_of_waiver_id: number | null;
}

export interface UseUnitRentAdjustmentsTable {
  id: number;
  use_unit_id: number;
  company_code_id: number;
  adjustment_blocker: DateTimeText | null;
  fio_legal_state_id: number | null;
  municipality_id: number | null;
  move_in_date: DateTimeText | null;
  square_meter_living_space: Decimal | null;
  apartment_size_class: string | null;
  housing_quality_points_comparison_object: Decimal | null;
  modernising_by_rent_index: Flag;
  increase_amount: Decimal | null;
  comparable_rent_of_an_area: Decimal | null;
  adjustment_date: DateTimeText | null;
  text_for_different_rating: string | null;
  cap_limit_id: number | null;
  cap_limit_absolute_sqm: Decimal | null;
  municipality_active_rent_index: string | null;
}
export interface RentAdjustmentSurchargesTable {
  id: number;
  use_unit_rent_adjustment_id: number;
  special_attribute_id: number | null;
  amount: Decimal | null;
  percent: Decimal | null;
}
export interface RentAdjustmentFacilityCharacteristicsTable {
  use_unit_rent_adjustment_id: number;
  facility_characteristic_group_id: number;
  effective_value: string | null;
}

// projects
export interface ProjectsTable {
  id: Generated<number>;
  name: string | null;
  code: string | null;
  project_manager: string | null;
  description: string | null;
  company_code_id: number;
  application_for_development_schedule_date: DateText | null;
  application_for_development_delivery_date: DateText | null;
  application_for_development_grant_date: DateText | null;
  application_for_development_valid_to: DateText | null;
  application_for_development_file_reference: string | null;
  application_for_building_license_schedule_date: DateText | null;
  application_for_building_license_delivery_date: DateText | null;
  application_for_building_license_grant_date: DateText | null;
  application_for_building_license_valid_to: DateText | null;
  application_for_building_license_file_reference: string | null;
  application_for_building_license_reference: string | null;
  project_life_time_from: DateText;
  project_life_time_to: DateText | null;
  cost_center_id: number | null;
  cost_unit_id: number | null;
  cost_type_id: number | null;
  created_at: DateTimeText;
  updated_at: DateTimeText;
}
export interface ProjectEconomicUnitsTable {
  project_id: number;
  economic_unit_id: number;
}
export interface ProjectBuildingsTable {
  project_id: number;
  building_id: number;
}
export interface ProjectLandsTable {
  project_id: number;
  land_id: number;
}
export interface ProjectUseUnitsTable {
  project_id: number;
  use_unit_id: number;
}
export interface ProjectBudgetsTable {
  project_id: number;
  budget_id: number;
}
export interface ProjectLoansTable {
  project_id: number;
  loan_id: number;
}

/** PostgreSQL only: moved on by triggers whenever the read model (version) or users, tokens and keys
 *  (auth_version) change (migrations 2026112203, 2026112204). */
export interface DataVersionTable {
  id: number;
  version: number;
  auth_version: number;
}

export interface DB {
  data_version: DataVersionTable;
  company_codes: CompanyCodesTable;
  users: UsersTable;
  user_permissions: UserPermissionsTable;
  user_ledgers: UserLedgersTable;
  oauth_tokens: OauthTokensTable;
  api_keys: ApiKeysTable;
  api_key_ledgers: ApiKeyLedgersTable;
  outbox_events: OutboxEventsTable;
  catalog_codes: CatalogCodesTable;
  facilities: FacilitiesTable;
  explanation_groups: ExplanationGroupsTable;
  owners: OwnersTable;
  economic_units: EconomicUnitsTable;
  buildings: BuildingsTable;
  lands: LandsTable;
  use_units: UseUnitsTable;
  budgets: BudgetsTable;
  loans: LoansTable;
  cost_centers: CostObjectsTable;
  cost_units: CostObjectsTable;
  cost_types: CostObjectsTable;
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
  price_indices: PriceIndicesTable;
  price_index_values: PriceIndexValuesTable;
  license_agreements: LicenseAgreementsTable;
  contract_agreements: ContractAgreementsTable;
  ca_index_rental: CaIndexRentalTable;
  ca_graduated_rent: CaGraduatedRentTable;
  ca_graduated_rent_entries: CaGraduatedRentEntriesTable;
  ca_turnover_rent: CaTurnoverRentTable;
  ca_turnover_rent_steps: CaTurnoverRentStepsTable;
  ca_vat_option: CaVatOptionTable;
  ca_rental_upper_limit: CaRentalUpperLimitTable;
  ca_gross_rent_excluded_groups: CaGrossRentExcludedGroupsTable;
  ca_special_charge: CaSpecialChargeTable;
  ca_special_charge_calculation_bases: CaSpecialChargeCalculationBasesTable;
  ca_special_charge_billing_unit_values: CaSpecialChargeBillingUnitValuesTable;
  ca_special_use_right: CaSpecialUseRightTable;
  ca_prepayment_adjustment: CaPrepaymentAdjustmentTable;
  ca_distribution_cost_types: CaDistributionCostTypesTable;
  ca_multiple_opt_in: CaMultipleOptInTable;
  ca_prolongations: CaProlongationsTable;
  ca_minor_repair_work: CaMinorRepairWorkTable;
  ca_reminder_charge: CaReminderChargeTable;
  ca_reminder_charge_dunning_levels: CaReminderChargeDunningLevelsTable;
  ca_waiver_of_termination: CaWaiverOfTerminationTable;
  use_unit_rent_adjustments: UseUnitRentAdjustmentsTable;
  rent_adjustment_surcharges: RentAdjustmentSurchargesTable;
  rent_adjustment_facility_characteristics: RentAdjustmentFacilityCharacteristicsTable;
  projects: ProjectsTable;
  project_economic_units: ProjectEconomicUnitsTable;
  project_buildings: ProjectBuildingsTable;
  project_lands: ProjectLandsTable;
  project_use_units: ProjectUseUnitsTable;
  project_budgets: ProjectBudgetsTable;
  project_loans: ProjectLoansTable;
}
