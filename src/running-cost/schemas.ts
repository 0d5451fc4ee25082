// Request and response schemas of RunningCostDistributionRead v1.2 (field names as the interface spells them).
import { Type, type Static } from '@sinclair/typebox';
import {
  CodeRef,
  CompanyCodeRef,
  Explanation,
  FacilityRef,
  Int32,
  OptionTax,
  OwnerRef,
  PagingQuery,
  UseUnitRef,
  WireObject,
} from '../http/schemas.ts';
import { SEARCH_PATTERN_RULE } from './search.ts';

const Decimal = () => Type.Number({ format: 'decimal' });
const IdFilter = (what: string) =>
  Int32({ description: `Only records whose ${what} is this id (an unknown id gives [])` });
const CodeFilter = (what: string) =>
  Type.String({
    description: `Only records whose ${what} equals this text exactly (case-sensitive); empty = no filter`,
  });
const Include = (array: string) =>
  Type.Boolean({ default: false, description: `true: fill ${array}; false (default): ${array} is null` });

const SearchPatternParam = Type.String({ maxLength: 100, description: SEARCH_PATTERN_RULE });

/** The four include flags, shared by both group endpoints. */
const IncludeFlags = {
  includeUseUnits: Type.Optional(Include('UseUnits')),
  includeCostTypes: Type.Optional(Include('AllocationGroupCostTypes')),
  includeExplanations: Type.Optional(Include('Explanations')),
  includeOptionTaxes: Type.Optional(Include('OptionTaxes')),
};

/** Filters both group endpoints have in common. */
const CommonFilters = {
  ownerId: Type.Optional(IdFilter('Owner')),
  companyCodeId: Type.Optional(IdFilter('CompanyCode (ledger)')),
  distributionPeriodId: Type.Optional(IdFilter('DistributionPeriod')),
  prepaymentBlockId: Type.Optional(IdFilter('PrepaymentBlock')),
  searchPattern: Type.Optional(SearchPatternParam),
};

export const DistributionPeriodsQuery = Type.Object(PagingQuery);

export const AllocationGroupsQuery = Type.Object({
  ...PagingQuery,
  allocationGroupId: Type.Optional(IdFilter('Id')),
  allocationGroupCode: Type.Optional(CodeFilter('Code')),
  ...CommonFilters,
  distributionTypeId: Type.Optional(IdFilter('DistributionTypeSlim')),
  ...IncludeFlags,
});

export const AllocationGroupBasesQuery = Type.Object({
  ...PagingQuery,
  allocationGroupBaseId: Type.Optional(IdFilter('Id')),
  allocationGroupBaseCode: Type.Optional(CodeFilter('Code')),
  ...CommonFilters,
  ...IncludeFlags,
});

export type DistributionPeriodsQuery = Static<typeof DistributionPeriodsQuery>;
export type AllocationGroupsQuery = Static<typeof AllocationGroupsQuery>;
export type AllocationGroupBasesQuery = Static<typeof AllocationGroupBasesQuery>;

export const DistributionPeriod = WireObject({
  Id: Type.Integer(),
  Code: Type.String(),
  FirstCalenderYear: Type.Integer(),
  IsBookable: Type.Boolean(),
  IsComputable: Type.Boolean(),
  RegularDistributionPeriod: CodeRef,
});

const UseUnits = Type.Array(UseUnitRef);
const CostTypes = Type.Array(CodeRef);
const Explanations = Type.Array(Explanation);
const OptionTaxes = Type.Array(OptionTax);

export const AllocationGroup = WireObject({
  Id: Type.Integer(),
  Code: Type.String(),
  Owner: OwnerRef,
  CompanyCode: CompanyCodeRef,
  AllocationGroupState: CodeRef,
  PrepaymentBlock: CodeRef,
  DistributionTypeSlim: CodeRef,
  PreviousAllocationGroup: CodeRef,
  IndividualOwnershipManagement: Type.Boolean(),
  IsCleared: Type.Boolean(),
  SearchPattern: Type.String(),
  Location: Type.String(),
  DistributionPeriod: CodeRef,
  RegularDistributionPeriod: CodeRef,
  UseUnits,
  AllocationGroupCostTypes: CostTypes,
  Explanations,
  OptionTaxes,
});

export const CombinedAllocationGroup = WireObject({
  Id: Type.Integer(),
  UnitsTotal: Decimal(),
  CostsPerUnit: Type.String(),
  WarmWaterFuelConsumption: Decimal(),
  WarmWaterHeatQuantity: Decimal(),
  IndependentCommercialHeatingSupply: Type.Boolean(),
  InventoryIncreasesCleared: Type.Boolean(),
  InventoryChangesAmount: Decimal(),
  CombinedAllocationGroupType: CodeRef,
  FuelEnergyType: CodeRef,
  Facility: FacilityRef,
  SettlementState: CodeRef,
  ElementaryDistributionKey: CodeRef,
  Explanations,
});

export const AllocationGroupBase = WireObject({
  Id: Type.Integer(),
  Code: Type.String(),
  Owner: OwnerRef,
  CompanyCode: CompanyCodeRef,
  AllocationGroupState: CodeRef,
  PrepaymentBlock: CodeRef,
  PreviousAllocationGroupBase: CodeRef,
  SearchPattern: Type.String(),
  Location: Type.String(),
  DistributionPeriod: CodeRef,
  AllocationGroup: WireObject({
    Id: Type.Integer(),
    IndividualOwnershipManagement: Type.Boolean(),
    IsCleared: Type.Boolean(),
    RegularDistributionPeriod: CodeRef,
    UseUnits,
    Explanations,
  }),
  CombinedAllocationGroup,
  AllocationGroupCostTypes: CostTypes,
  OptionTaxes,
});
