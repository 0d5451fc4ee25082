// The import/export format of the master data read by vendor clients (decisions §7, docs/master-data.md): the
// catalogue entries (ids per kind), persons with their child rows, managements, officials, departments, the added
// fields of owners, economic units, buildings, land, use units and license agreements, contractors, payment modes,
// contract positions and jurisdictions. collections.ts places them in dependency order.
import { MASTER_CATALOG_KINDS } from '../../master-data/catalog-kinds.ts';
import {
  bool,
  code,
  date,
  dec,
  entry,
  id,
  int,
  refTo,
  str,
  type ChildSpec,
  type CollectionSpec,
  type Field,
} from './fields.ts';

export const child = (wire: string, table: string, parentColumn: string, fields: Field[]): ChildSpec => ({
  wire,
  table,
  parentColumn,
  key: ['id'],
  order: ['id'],
  fields: [id(), ...fields],
});

export const estateAddress = (): Field[] => [
  str('Zip'),
  str('Town'),
  str('Street'),
  str('HouseNumber'),
  str('HouseNumberAddition'),
  entry('CountryId', 'Country'),
];

/** Fields of buildings and land parcels beyond Id, EconomicUnitId, Number and Name (one set for both). */
export const BUILDING_LAND_FIELDS = (): Field[] => [
  ...estateAddress(),
  date('EntryDate'),
  date('ExitDate'),
  entry('EntryReasonId', 'EntryReason'),
  entry('ExitReasonId', 'ExitReason'),
  int('ConstructionYear'),
  date('MoveInDate'),
  int('Storeys'),
  entry('ConstructionMethodId', 'ConstructionMethod'),
  entry('BuildingTypeId', 'BuildingType'),
  entry('DistrictId', 'District'),
  entry('MonumentalProtectionTypeId', 'MonumentalProtectionType'),
  entry('OriginId', 'Origin'),
  entry('ChangeReasonId', 'ChangeReason'),
  dec('LandArea'),
];

export const OWNER_FIELDS = (): Field[] => [refTo('PersonId', 'persons'), bool('IsCondominium', { nullable: true })];

export const ECONOMIC_UNIT_FIELDS = (): Field[] => [
  str('Location'),
  int('ConstructionYear'),
  str('Info'),
  date('BindingEndDate'),
  refTo('OwnerId', 'owners', { sameLedger: true }),
  refTo('ManagementId', 'managements'),
  entry('AssetIdentificationId', 'AssetIdentification'),
  entry('StatusInventoryId', 'StatusInventory'),
  entry('DistrictId', 'District'),
  entry('MonumentalProtectionTypeId', 'MonumentalProtectionType'),
  entry('RegionalResponsibilityId', 'RegionalResponsibility'),
  refTo('UniversalOfficialId', 'responsible_officials'),
];

export const USE_UNIT_FIELDS = (): Field[] => [
  ...estateAddress(),
  dec('UsableSpace'),
  dec('LivingSpace'),
  dec('HeatingSpace'),
  int('NumberOfRooms'),
  int('NumberOfHalfRooms'),
  dec('TargetRent'),
  date('ManagementStart'),
  date('ManagementEnd'),
  date('BindingEndDate'),
  date('MoveInDate'),
  date('EntryDate'),
  date('ExitDate'),
  entry('EntryReasonId', 'EntryReason'),
  entry('ExitReasonId', 'ExitReason'),
  int('EnergyCertificateId'),
  entry('PositionId', 'Position'),
  entry('FloorId', 'Floor'),
  entry('ResidentialAuthorizationId', 'ResidentialAuthorization'),
  entry('FinancingTypeId', 'FinancingType'),
  refTo('UniversalOfficialId', 'responsible_officials'),
];

export const USE_UNIT_CHILDREN = (): ChildSpec[] => [
  child('UseUnitTypes', 'use_unit_types', 'use_unit_id', [
    date('ValidFrom'),
    date('ValidTo'),
    entry('UseUnitUsageTypeId', 'UseUnitUsageType'),
  ]),
  child('BillingUnits', 'use_unit_billing_units', 'use_unit_id', [
    dec('Value'),
    date('ValidFrom'),
    date('ValidTo'),
    bool('IsBaseComponentColdWater', { nullable: true }),
    bool('IsBaseComponentHeating', { nullable: true }),
    bool('IsBaseComponentWarmWater', { nullable: true }),
    entry('QuantityTypeId', 'QuantityType'),
  ]),
];

export const LICENSE_AGREEMENT_FIELDS = (): Field[] => [
  entry('RestrictionOfUseId', 'RestrictionOfUse'),
  entry('StatusContractId', 'StatusContract'),
  entry('LifeOfContractId', 'LifeOfContract'),
  entry('PaymentIntervalId', 'PaymentInterval'),
  entry('PeriodOfNoticeId', 'PeriodOfNotice'),
  entry('DebitEntryTypeId', 'DebitEntryType'),
  int('DifferingMaturity'),
  bool('DunningBlock', { nullable: true }),
  code('DunningLevelId', 'DunningLevel'),
  bool('UseVirtualIban', { nullable: true }),
  str('VirtualIban'),
  str('FormerVirtualIban'),
  bool('CollectiveNoRealBankAccount', { nullable: true }),
  str('CollectiveIban'),
  str('CollectiveBic'),
  str('CollectiveAccountHolder'),
];

/** Collections placed after the catalogue codes. */
export const CATALOG_COLLECTIONS: CollectionSpec[] = [
  {
    name: 'CatalogEntries',
    table: 'catalog_entries',
    children: [],
    fields: [
      id(),
      str('Kind', { required: true, values: MASTER_CATALOG_KINDS }),
      int('KindId', { required: true }),
      str('Code'),
      str('Name'),
      str('ShortCode'),
      int('NodeId'),
      int('ClassificationId'),
      str('Classification'),
      int('LevelToGround'),
      bool('IsVacancy', { nullable: true }),
    ],
  },
  {
    name: 'ContractPositionTypeDetails',
    table: 'contract_position_type_details',
    children: [],
    fields: [
      code('Id', 'ContractPositionType', { col: 'id', required: true }),
      ...['Deposit', 'WbRelevant', 'BgbRelevant', 'IsPartOfNetRent', 'UsingCpAsPrepaymentBlock'].map((w) =>
        bool(w, { nullable: true }),
      ),
      str('AssignmentPrepayment'),
      ...[
        'IsGrossRentWithoutHeating',
        'IsPartOfNetRentCensus',
        'IsBasisCalculationReminderChargeInterest',
        'IsPrepaymentHeating',
        'IsPrepaymentRunningCost',
        'ReportAsSinkingFund',
      ].map((w) => bool(w, { nullable: true })),
    ],
  },
];

/** Tables of this file whose rows carry a ledger. */
export const MASTER_LEDGER_TABLES = ['contractors', 'payment_modes', 'contract_positions', 'jurisdictions'];
