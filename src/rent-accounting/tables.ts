// Tables of rent accounting: price indices, license agreements, contract agreements and their kinds, rent adjustments.
import type { Decimal, DateText, DateTimeText, Flag } from '../db/values.ts';

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
  // master data (migration 2026112303_master_data; catalog_entries refs unless noted)
  restriction_of_use_id: number | null;
  status_contract_id: number | null;
  life_of_contract_id: number | null;
  payment_interval_id: number | null;
  period_of_notice_id: number | null;
  debit_entry_type_id: number | null;
  differing_maturity: number | null;
  dunning_block: Flag | null;
  /** catalog_codes DunningLevel */
  dunning_level_id: number | null;
  use_virtual_iban: Flag | null;
  virtual_iban: string | null;
  former_virtual_iban: string | null;
  collective_no_real_bank_account: Flag | null;
  collective_iban: string | null;
  collective_bic: string | null;
  collective_account_holder: string | null;
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

/**
 * The wire JSON of one contract agreement in the contract read model (migration 2026112501, read-model.ts): version
 * 1.2 and, for the kinds version 1.0 offers, 1.0; nulls omitted, and (`_k`) showNullValues=true, null when the same.
 */
export interface ContractAgreementTextsTable {
  id: number;
  v12: string;
  v12_k: string | null;
  v10: string | null;
  v10_k: string | null;
}

export interface RentAccountingTables {
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
  contract_agreement_texts: ContractAgreementTextsTable;
}
