// Master data around persons and license agreements (migration 2026112303_master_data): persons and their child rows,
// managements, departments, responsible officials, jurisdictions, use-unit type history and billing units,
// contractors, payment modes, contract positions. Catalogue references (`*_id` marked cat) are catalog_entries ids.
import type { DateText, DateTimeText, Decimal, Flag } from '../db/values.ts';
import type { EstateAddressColumns } from './tables.ts';

type Ref = number | null;

export interface PersonsTable {
  id: number;
  id_num: string;
  name: string;
  is_natural_person: Flag;
  valid_from: DateText;
  short_name: string | null;
  valid_to: DateText | null;
  node_id: number | null;
  tax_number: string | null;
  tax_identification_number: string | null;
  title: string | null;
  first_name: string | null;
  last_name: string | null;
  birth_name: string | null;
  care_of: string | null;
  birth_date: DateText | null;
  death_date: DateTimeText | null;
  gender_id: Ref;
  marital_type_id: Ref;
  nationality_id: Ref;
  long_name1: string | null;
  long_name2: string | null;
  vat_id: string | null;
  commercial_register_number: string | null;
  commercial_register_town: string | null;
}
export interface PersonAddressesTable extends EstateAddressColumns {
  id: number;
  person_id: number;
  valid_from: DateText | null;
  valid_to: DateText | null;
  main_address: Flag | null;
  address_type_id: Ref;
}
export interface PersonCommunicationsTable {
  id: number;
  person_id: number;
  related_address_id: Ref;
  content: string | null;
  explanation: string | null;
  communication_type_id: Ref;
}
export interface PersonBankAccountsTable {
  id: number;
  person_id: number;
  iban: string | null;
  bic: string | null;
  account_holder: string | null;
  valid_from: DateText | null;
  valid_to: DateText | null;
  bank_account_type_id: Ref;
  bank_account_usage_type_id: Ref;
}
export interface PersonContactPersonsTable {
  id: number;
  person_id: number;
  id_num: string | null;
  first_name: string | null;
  last_name: string | null;
}
export interface ManagementsTable {
  id: number;
  id_num: string;
  name: string | null;
  node_id: number | null;
  parent_management_id: Ref;
  administration_type_id: Ref;
  person_id: Ref;
}
export interface ManagementCompanyCodesTable {
  management_id: number;
  company_code_id: number;
}
export interface ResponsibleOfficialsTable {
  id: number;
  code_short: string | null;
  automatic_mails_activated: Flag | null;
  universal_responsibility_possible: Flag | null;
  user_id: number | null;
  person_id: Ref;
}
export interface DepartmentsTable {
  id: number;
  id_num: string | null;
  name: string | null;
  management_id: Ref;
  parent_id: Ref;
  department_type_id: Ref;
}
export interface DepartmentOfficialsTable {
  department_id: number;
  responsible_official_id: number;
}
/** One jurisdiction entry of an economic unit, or of one of its use units (use_unit_id set). */
export interface JurisdictionsTable {
  id: number;
  economic_unit_id: number;
  company_code_id: number;
  use_unit_id: Ref;
  main_jurisdiction: Flag | null;
  responsible_official_id: Ref;
  department_id: Ref;
  department_type_id: Ref;
}
export interface UseUnitTypesTable {
  id: number;
  use_unit_id: number;
  valid_from: DateText | null;
  valid_to: DateText | null;
  use_unit_usage_type_id: Ref;
}
export interface UseUnitBillingUnitsTable {
  id: number;
  use_unit_id: number;
  value: Decimal | null;
  valid_from: DateText | null;
  valid_to: DateText | null;
  is_base_component_cold_water: Flag | null;
  is_base_component_heating: Flag | null;
  is_base_component_warm_water: Flag | null;
  quantity_type_id: Ref;
}
interface OfAgreement {
  id: number;
  license_agreement_id: number;
  /** The agreement's ledger (composite foreign key). */
  company_code_id: number;
}
export interface ContractorsTable extends OfAgreement {
  person_id: number;
  contractor_type_id: Ref;
  contractual_use_valid_from: DateText | null;
  contractual_use_valid_to: DateText | null;
}
export interface PaymentModesTable extends OfAgreement {
  active_from: DateText | null;
  active_to: DateText | null;
  mode_id: Ref;
  type_id: Ref;
  sepa_mandate_reference: string | null;
  bank_account_id: Ref;
}
/** Detail flags of a ContractPositionType (a catalog_codes row). */
export interface ContractPositionTypeDetailsTable {
  /** The catalog_codes id of the ContractPositionType. */
  id: number;
  deposit: Flag | null;
  wb_relevant: Flag | null;
  bgb_relevant: Flag | null;
  is_part_of_net_rent: Flag | null;
  using_cp_as_prepayment_block: Flag | null;
  assignment_prepayment: string | null;
  is_gross_rent_without_heating: Flag | null;
  is_part_of_net_rent_census: Flag | null;
  is_basis_calculation_reminder_charge_interest: Flag | null;
  is_prepayment_heating: Flag | null;
  is_prepayment_running_cost: Flag | null;
  report_as_sinking_fund: Flag | null;
}
export interface ContractPositionsTable extends OfAgreement {
  net_amount: Decimal | null;
  amount: Decimal | null;
  active_from: DateText | null;
  active_to: DateText | null;
  /** catalog_codes VatRate */
  vat_rate_id: Ref;
  /** catalog_codes ContractPositionType */
  contract_position_type_id: Ref;
  valid_contract_position_id: Ref;
  change_reason_contracts_id: Ref;
}

export interface PartyTables {
  persons: PersonsTable;
  person_addresses: PersonAddressesTable;
  person_communications: PersonCommunicationsTable;
  person_bank_accounts: PersonBankAccountsTable;
  person_contact_persons: PersonContactPersonsTable;
  managements: ManagementsTable;
  management_company_codes: ManagementCompanyCodesTable;
  responsible_officials: ResponsibleOfficialsTable;
  departments: DepartmentsTable;
  department_officials: DepartmentOfficialsTable;
  jurisdictions: JurisdictionsTable;
  use_unit_types: UseUnitTypesTable;
  use_unit_billing_units: UseUnitBillingUnitsTable;
  contractors: ContractorsTable;
  payment_modes: PaymentModesTable;
  contract_position_type_details: ContractPositionTypeDetailsTable;
  contract_positions: ContractPositionsTable;
}
