// The running-cost collections of the import/export format (collections.ts places them after the master data).
import {
  bool,
  code,
  date,
  dec,
  id,
  ids,
  int,
  ledgerField,
  refTo,
  str,
  type ChildSpec,
  type CollectionSpec,
  type Field,
} from './fields.ts';

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

export const RUNNING_COST_COLLECTIONS: CollectionSpec[] = [
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
];
