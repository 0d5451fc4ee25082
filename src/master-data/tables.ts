// Master data shared by every area: ledgers, catalogues, owners, economic units, buildings, land, use units,
// budgets, loans, cost objects. company_code_id of buildings/lands/use units equals their economic unit's (composite FK).
import type { DateText, Decimal, Flag } from '../db/values.ts';
import type { MasterCatalogKind } from './catalog-kinds.ts';
import type { PartyTables } from './tables-parties.ts';
import type { LoanColumns, LoanTables } from './loans/tables.ts';

type Ref = number | null;
/** The address of a building, land parcel or use unit (and the columns of a person's address). */
export interface EstateAddressColumns {
  zip: string | null;
  town: string | null;
  street: string | null;
  house_number: string | null;
  house_number_addition: string | null;
  /** catalog_entries Country */
  country_id: Ref;
}
/** Columns of buildings and land parcels beyond id, ledger, number and name (one set for both: docs/master-data.md). */
interface BuildingLandColumns extends EstateAddressColumns {
  entry_date: DateText | null;
  exit_date: DateText | null;
  entry_reason_id: Ref;
  exit_reason_id: Ref;
  construction_year: number | null;
  move_in_date: DateText | null;
  storeys: number | null;
  construction_method_id: Ref;
  building_type_id: Ref;
  district_id: Ref;
  monumental_protection_type_id: Ref;
  origin_id: Ref;
  change_reason_id: Ref;
  land_area: Decimal | null;
}

export interface CompanyCodesTable {
  id: number;
  code: string | null;
  name: string | null;
}
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
export interface OwnersTable {
  id: number;
  owner_number: string | null;
  company_code_id: number;
  person_id: Ref;
  is_condominium: Flag | null;
}
export interface EconomicUnitsTable {
  id: number;
  company_code_id: number;
  number: string | null;
  name: string | null;
  location: string | null;
  construction_year: number | null;
  info: string | null;
  binding_end_date: DateText | null;
  owner_id: Ref;
  management_id: Ref;
  asset_identification_id: Ref;
  status_inventory_id: Ref;
  district_id: Ref;
  monumental_protection_type_id: Ref;
  regional_responsibility_id: Ref;
  /** EconomicUnitUniversalResponsibleOfficial of the jurisdictions (null: no universal responsibility). */
  universal_official_id: Ref;
}
export interface BuildingsTable extends BuildingLandColumns {
  id: number;
  economic_unit_id: number;
  company_code_id: number;
  number: string | null;
  name: string | null;
}
export type LandsTable = BuildingsTable;
export interface UseUnitsTable extends EstateAddressColumns {
  id: number;
  economic_unit_id: number;
  company_code_id: number;
  building_id: number | null;
  use_unit_number: string;
  /** DescriptionOfPosition */
  name: string | null;
  usable_space: Decimal | null;
  living_space: Decimal | null;
  heating_space: Decimal | null;
  number_of_rooms: number | null;
  number_of_half_rooms: number | null;
  target_rent: Decimal | null;
  management_start: DateText | null;
  management_end: DateText | null;
  binding_end_date: DateText | null;
  move_in_date: DateText | null;
  entry_date: DateText | null;
  exit_date: DateText | null;
  entry_reason_id: Ref;
  exit_reason_id: Ref;
  energy_certificate_id: number | null;
  position_id: Ref;
  floor_id: Ref;
  residential_authorization_id: Ref;
  financing_type_id: Ref;
  universal_official_id: Ref;
}
export interface BudgetsTable {
  id: number;
  company_code_id: number;
  name: string | null;
}
export interface LoansTable extends LoanColumns {
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

/** A master-data catalogue entry: `id` is the row id references use, `kind_id` the vendor's Id (unique per kind). */
export interface CatalogEntriesTable {
  id: number;
  kind: MasterCatalogKind;
  kind_id: number;
  code: string | null;
  name: string | null;
  short_code: string | null;
  node_id: number | null;
  classification_id: number | null;
  classification: string | null;
  level_to_ground: number | null;
  is_vacancy: Flag | null;
}

export interface MasterDataTables extends PartyTables, LoanTables {
  catalog_entries: CatalogEntriesTable;
  company_codes: CompanyCodesTable;
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
}
