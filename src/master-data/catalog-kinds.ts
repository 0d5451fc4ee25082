// Kinds of the master-data catalogue (table catalog_entries): ids are unique per kind, as at the vendor, where
// clients hard-code them (Gender 3, CommunicationType 1/3/5, ContractorType 1/2/3/1003). The rent-accounting and
// running-cost catalogues stay in catalog_codes (CATALOG_KINDS in tables.ts).
export const MASTER_CATALOG_KINDS = [
  // license agreements
  'RestrictionOfUse',
  'StatusContract',
  'LifeOfContract',
  'PaymentInterval',
  'PeriodOfNotice',
  'DebitEntryType',
  // persons and contractors
  'ContractorType',
  'Gender',
  'MaritalType',
  'Nationality',
  'AddressType',
  'Country',
  'CommunicationType',
  'BankAccountType',
  'BankAccountUsageType',
  'PaymentModeMode',
  'PaymentModeType',
  // economic units, buildings, land, use units
  'AssetIdentification',
  'StatusInventory',
  'District',
  'MonumentalProtectionType',
  'RegionalResponsibility',
  'ConstructionMethod',
  'BuildingType',
  'Origin',
  'ChangeReason',
  'EntryReason',
  'ExitReason',
  'Position',
  'Floor',
  'ResidentialAuthorization',
  'FinancingType',
  'UseUnitUsageType',
  'UseUnitType',
  'QuantityType',
  // managements, departments, contract positions
  'AdministrationType',
  'DepartmentType',
  'ValidContractPosition',
  'ChangeReasonContracts',
] as const;
export type MasterCatalogKind = (typeof MASTER_CATALOG_KINDS)[number];
