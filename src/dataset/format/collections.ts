// The import/export format: every collection in dependency order with its fields and child arrays.
// This is the one place the field list lives: the importer, the exporter and docs/import-format.schema.json
// (json-schema.ts) are all derived from it. Wire names follow the interface (PascalCase); references end in `Id`.
import { CATALOG_KINDS } from '../../master-data/tables.ts';
import { CONTRACT_KINDS } from './contract-kinds.ts';
import {
  bool,
  code,
  date,
  dateTime,
  dec,
  id,
  int,
  ledgerField,
  refTo,
  str,
  type ChildSpec,
  type CollectionSpec,
  type Field,
} from './fields.ts';

const ids = (wire: string, table: string, parentColumn: string, f: Field): ChildSpec => ({
  wire,
  table,
  parentColumn,
  fields: [f],
  scalar: true,
  key: [f.column],
  order: [f.column],
});

const optionTaxes = (table: string, parentColumn: string): ChildSpec => ({
  wire: 'OptionTaxes',
  table,
  parentColumn,
  key: ['valid_from'],
  order: ['valid_from'],
  fields: [dec('OptionTax', { required: true }), date('ValidFrom', { required: true }), date('ValidTo')],
});

const explanations = (table: string, parentColumn: string): ChildSpec => ({
  wire: 'Explanations',
  table,
  parentColumn,
  key: ['id'],
  order: ['id'],
  fields: [id(), str('Text'), refTo('GroupId', 'explanation_groups', { col: 'explanation_group_id' })],
});

/** Fields shared by allocation groups and bases. */
const groupHeader = (): Field[] => [
  str('Code'),
  refTo('OwnerId', 'owners', { required: true, sameLedger: true }),
  ledgerField(),
  code('AllocationGroupStateId', 'AllocationGroupState', { required: true }),
  code('PrepaymentBlockId', 'PrepaymentBlock'),
  str('SearchPattern'),
  str('Location'),
  refTo('DistributionPeriodId', 'distribution_periods', { required: true }),
];

const costObject = (name: string, table: string): CollectionSpec => ({
  name,
  table,
  children: [],
  fields: [id(), refTo('CompanyCodeId', 'company_codes'), str('Code'), str('Name')],
});

const assignments = (wire: string, entity: string, table: string): ChildSpec =>
  ids(
    wire,
    `project_${table}`,
    'project_id',
    refTo(wire, table, { col: `${entity}_id`, required: true, sameLedger: true }),
  );

export const COLLECTIONS: CollectionSpec[] = [
  { name: 'CompanyCodes', table: 'company_codes', children: [], fields: [id(), str('Code'), str('Name')] },
  {
    name: 'CatalogCodes',
    table: 'catalog_codes',
    children: [],
    fields: [
      id(),
      str('Kind', { required: true, values: CATALOG_KINDS }),
      str('Code'),
      str('Name'),
      str('ShortCode'),
      int('NodeId'),
      str('ArgeCode'),
      bool('IsFixCostsPerDistributionKeyUnit', { nullable: true }),
      bool('IsPercentOfContractPosition', { nullable: true }),
      bool('IsUpperLimit', { nullable: true }),
    ],
  },
  { name: 'Facilities', table: 'facilities', children: [], fields: [id(), str('Name')] },
  { name: 'ExplanationGroups', table: 'explanation_groups', children: [], fields: [id(), str('Name')] },
  { name: 'Owners', table: 'owners', children: [], fields: [id(), str('OwnerNumber'), ledgerField()] },
  {
    name: 'EconomicUnits',
    table: 'economic_units',
    entity: 'EconomicUnit',
    children: [],
    fields: [id(), ledgerField(), str('Number'), str('Name')],
  },
  ...(['Buildings', 'Lands'] as const).map((name): CollectionSpec => ({
    name,
    table: name.toLowerCase(),
    children: [],
    ledgerFrom: { field: 'EconomicUnitId', table: 'economic_units' },
    fields: [id(), refTo('EconomicUnitId', 'economic_units', { required: true }), str('Number'), str('Name')],
  })),
  {
    name: 'UseUnits',
    table: 'use_units',
    entity: 'UseUnit',
    children: [],
    ledgerFrom: { field: 'EconomicUnitId', table: 'economic_units' },
    fields: [
      id(),
      refTo('EconomicUnitId', 'economic_units', { required: true }),
      refTo('BuildingId', 'buildings', { sameAs: { column: 'economic_unit_id', field: 'EconomicUnitId' } }),
      str('UseUnitNumber', { required: true }),
      str('Name'),
    ],
  },
  { name: 'Budgets', table: 'budgets', children: [], fields: [id(), ledgerField(), str('Name')] },
  {
    name: 'Loans',
    table: 'loans',
    entity: 'Loan',
    children: [],
    fields: [id(), ledgerField(), str('LoanNumber'), str('Name')],
  },
  costObject('CostCenters', 'cost_centers'),
  costObject('CostUnits', 'cost_units'),
  costObject('CostTypes', 'cost_types'),
  {
    name: 'DistributionPeriods',
    table: 'distribution_periods',
    children: [],
    fields: [
      id(),
      str('Code'),
      int('FirstCalenderYear', { required: true }),
      bool('IsBookable'),
      bool('IsComputable'),
      code('RegularDistributionPeriodId', 'RegularDistributionPeriod', { required: true }),
    ],
  },
  {
    name: 'AllocationGroups',
    table: 'allocation_groups',
    fields: [
      id(),
      ...groupHeader(),
      code('DistributionTypeId', 'DistributionType'),
      refTo('PreviousAllocationGroupId', 'allocation_groups', { sameLedger: true }),
      bool('IndividualOwnershipManagement'),
      bool('IsCleared'),
      code('RegularDistributionPeriodId', 'RegularDistributionPeriod', { required: true }),
    ],
    children: [
      ids(
        'UseUnitIds',
        'allocation_group_use_units',
        'allocation_group_id',
        refTo('UseUnitId', 'use_units', { required: true, sameLedger: true }),
      ),
      ids(
        'CostTypeIds',
        'allocation_group_cost_types',
        'allocation_group_id',
        code('CostTypeId', 'AllocationGroupCostType', { required: true }),
      ),
      explanations('allocation_group_explanations', 'allocation_group_id'),
      optionTaxes('allocation_group_option_taxes', 'allocation_group_id'),
    ],
  },
  {
    name: 'CombinedAllocationGroups',
    table: 'combined_allocation_groups',
    fields: [
      id(),
      dec('UnitsTotal'),
      str('CostsPerUnit'),
      dec('WarmWaterFuelConsumption'),
      dec('WarmWaterHeatQuantity'),
      bool('IndependentCommercialHeatingSupply'),
      bool('InventoryIncreasesCleared'),
      dec('InventoryChangesAmount'),
      code('CombinedAllocationGroupTypeId', 'CombinedAllocationGroupType'),
      code('FuelEnergyTypeId', 'FuelEnergyType'),
      refTo('FacilityId', 'facilities'),
      code('SettlementStateId', 'SettlementState'),
      code('ElementaryDistributionKeyId', 'ElementaryDistributionKey'),
    ],
    children: [explanations('combined_allocation_group_explanations', 'combined_allocation_group_id')],
  },
  {
    name: 'AllocationGroupBases',
    table: 'allocation_group_bases',
    fields: [
      id(),
      ...groupHeader(),
      refTo('PreviousAllocationGroupBaseId', 'allocation_group_bases', { sameLedger: true }),
      refTo('AllocationGroupId', 'allocation_groups', { required: true, sameLedger: true }),
      refTo('CombinedAllocationGroupId', 'combined_allocation_groups', { required: true }),
    ],
    children: [
      ids(
        'CostTypeIds',
        'allocation_group_base_cost_types',
        'allocation_group_base_id',
        code('CostTypeId', 'AllocationGroupCostType', { required: true }),
      ),
      optionTaxes('allocation_group_base_option_taxes', 'allocation_group_base_id'),
    ],
  },
  {
    name: 'PriceIndices',
    table: 'price_indices',
    children: [],
    fields: [id(), str('Code', { required: true }), str('Note')],
  },
  {
    name: 'PriceIndexValues',
    table: 'price_index_values',
    children: [],
    fields: [
      id(),
      refTo('PriceIndexId', 'price_indices', { required: true }),
      dec('IndexValue', { required: true }),
      date('ReferenceDate', { required: true }),
    ],
  },
  {
    name: 'LicenseAgreements',
    table: 'license_agreements',
    entity: 'LicenseAgreement',
    children: [],
    ledgerFrom: { field: 'UseUnitId', table: 'use_units' },
    fields: [
      id(),
      str('IdNum', { required: true }),
      refTo('UseUnitId', 'use_units', { required: true }),
      date('ValidFrom', { required: true }),
      date('ValidTo'),
    ],
  },
  {
    name: 'ContractAgreements',
    table: 'contract_agreements',
    children: [],
    kinds: CONTRACT_KINDS,
    ledgerFrom: { field: 'LicenseAgreementId', table: 'license_agreements' },
    fields: [
      id(),
      str('Kind', { required: true, values: Object.keys(CONTRACT_KINDS) }),
      refTo('LicenseAgreementId', 'license_agreements', { required: true }),
      date('ValidFrom', { required: true }),
      date('ValidTo'),
      date('Inputdate', { col: 'input_date' }),
      date('FirstDebit'),
    ],
  },
  {
    name: 'UseUnitRentAdjustments',
    table: 'use_unit_rent_adjustments',
    ledgerFrom: { field: 'UseUnitId', table: 'use_units' },
    fields: [
      id(),
      refTo('UseUnitId', 'use_units', { required: true }),
      dateTime('AdjustmentBlocker'),
      code('FIOLegalStateId', 'FIOLegalState', { col: 'fio_legal_state_id' }),
      code('MunicipalityId', 'Municipality'),
      dateTime('MoveInDate'),
      dec('SquareMeterLivingSpace'),
      str('ApartmentSizeClass'),
      dec('HousingQualityPointsComparisonObject'),
      bool('ModernisingByRentIndex'),
      dec('IncreaseAmount'),
      dec('ComparableRentOfAnArea'),
      dateTime('AdjustmentDate'),
      str('TextForDifferentRating'),
      code('CapLimitId', 'CapLimit'),
      dec('CapLimitAbsoluteSqm'),
      str('MunicipalityActiveRentIndex'),
    ],
    children: [
      {
        wire: 'SurchargesAndReduction',
        table: 'rent_adjustment_surcharges',
        parentColumn: 'use_unit_rent_adjustment_id',
        key: ['id'],
        order: ['id'],
        fields: [id(), code('SpecialAttributeId', 'SpecialAttribute'), dec('Amount'), dec('Percent')],
      },
      {
        wire: 'FacilityCharacteristics',
        table: 'rent_adjustment_facility_characteristics',
        parentColumn: 'use_unit_rent_adjustment_id',
        key: ['facility_characteristic_group_id'],
        order: ['facility_characteristic_group_id'],
        fields: [
          code('FacilityCharacteristicGroupId', 'FacilityCharacteristicGroup', { required: true }),
          str('EffectiveValue'),
        ],
      },
    ],
  },
  {
    name: 'Projects',
    table: 'projects',
    serial: true,
    fields: [
      id(),
      str('Name'),
      str('Code'),
      str('ProjectManager'),
      str('Description'),
      ledgerField(),
      ...['Development', 'BuildingLicense'].flatMap((a) => [
        date(`ApplicationFor${a}ScheduleDate`),
        date(`ApplicationFor${a}DeliveryDate`),
        date(`ApplicationFor${a}GrantDate`),
        date(`ApplicationFor${a}ValidTo`),
        str(`ApplicationFor${a}FileReference`),
      ]),
      str('ApplicationForBuildingLicenseReference'),
      date('ProjectLifeTimeFrom', { required: true }),
      date('ProjectLifeTimeTo'),
      refTo('CostCenterId', 'cost_centers', { sameLedger: true }),
      refTo('CostUnitId', 'cost_units', { sameLedger: true }),
      refTo('CostTypeId', 'cost_types', { sameLedger: true }),
      dateTime('CreatedAt', { required: true }),
      dateTime('UpdatedAt', { required: true }),
    ],
    children: [
      assignments('EconomicUnitIds', 'economic_unit', 'economic_units'),
      assignments('BuildingIds', 'building', 'buildings'),
      assignments('LandIds', 'land', 'lands'),
      assignments('UseUnitIds', 'use_unit', 'use_units'),
      assignments('BudgetIds', 'budget', 'budgets'),
      assignments('LoanIds', 'loan', 'loans'),
    ],
  },
];

/** Tables whose rows carry a ledger (company_code_id); references into them can be checked for the same ledger. */
export const LEDGER_TABLES = new Set([
  'owners',
  'economic_units',
  'buildings',
  'lands',
  'use_units',
  'budgets',
  'loans',
  'cost_centers',
  'cost_units',
  'cost_types',
  'allocation_groups',
  'allocation_group_bases',
  'license_agreements',
  'contract_agreements',
  'use_unit_rent_adjustments',
  'projects',
]);

/** Deletions: the last collection, `{ "Collection": "<name>", "Id": <id> }` per record. */
export const DELETIONS = 'Deletions';

/** Optional first key of the document. */
export const FORMAT_KEY = 'Format';
export const FORMAT_VERSION = 'wohnapi-data/1';
