// Master data shared by every area: ledgers, catalogues, owners, economic units, buildings, land, use units,
// budgets, loans, cost objects. company_code_id of buildings/lands/use units equals their economic unit's (composite FK).
import type { Flag } from '../db/values.ts';

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

export interface MasterDataTables {
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
