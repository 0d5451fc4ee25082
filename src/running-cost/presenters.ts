// Row-to-wire mapping of RunningCostDistributionRead v1.2: one function per resource. Presenters output null for
// empty values; the response hook leaves nulls out unless showNullValues=true.
import { bool, dec, ref } from '../http/present.ts';
import type { AllocationGroupBaseRow, AllocationGroupRow, DistributionPeriodRow } from './queries.ts';
import type { ByParent, Children, CodeChild, ExplanationChild, OptionTaxChild, UseUnitChild } from './children.ts';

/** The array of one parent's children; null when the kind was not asked for (include flag false). */
function childrenOf<T, W>(map: ByParent<T> | undefined, parent: number, present: (row: T) => W): W[] | null {
  if (!map) return null;
  return (map.get(parent) ?? []).map(present);
}

const useUnit = (u: UseUnitChild) => ({ Id: u.id, UseUnitNumber: u.use_unit_number });
const codeRef = (c: CodeChild) => ({ Id: c.id, Code: c.code });
const explanation = (e: ExplanationChild) => ({
  Id: e.id,
  Text: e.text,
  Group: ref(e.group_id, { Name: e.group_name }),
});
const optionTax = (o: OptionTaxChild) => ({
  OptionTax: dec(o.option_tax),
  ValidFrom: o.valid_from,
  ValidTo: o.valid_to,
});

export function presentDistributionPeriod(row: DistributionPeriodRow) {
  return {
    Id: row.id,
    Code: row.code,
    FirstCalenderYear: row.first_calender_year,
    IsBookable: bool(row.is_bookable),
    IsComputable: bool(row.is_computable),
    RegularDistributionPeriod: ref(row.regular_id, { Code: row.regular_code }),
  };
}

/** Owner, CompanyCode, AllocationGroupState, PrepaymentBlock: the same columns in groups and bases. */
function header(row: AllocationGroupRow | AllocationGroupBaseRow) {
  return {
    Id: row.id,
    Code: row.code,
    Owner: ref(row.owner_id, { OwnerNumber: row.owner_number }),
    CompanyCode: ref(row.company_code_id, { Name: row.company_code_name, Code: row.company_code_code }),
    AllocationGroupState: ref(row.state_id, { Code: row.state_code }),
    PrepaymentBlock: ref(row.prepayment_block_id, { Code: row.prepayment_block_code }),
  };
}

export function presentAllocationGroup(row: AllocationGroupRow, children: Children) {
  return {
    ...header(row),
    DistributionTypeSlim: ref(row.distribution_type_id, { Code: row.distribution_type_code }),
    PreviousAllocationGroup: ref(row.previous_id, { Code: row.previous_code }),
    IndividualOwnershipManagement: bool(row.individual_ownership_management),
    IsCleared: bool(row.is_cleared),
    SearchPattern: row.search_pattern,
    Location: row.location,
    DistributionPeriod: ref(row.distribution_period_id, { Code: row.distribution_period_code }),
    RegularDistributionPeriod: ref(row.regular_id, { Code: row.regular_code }),
    UseUnits: childrenOf(children.useUnits, row.id, useUnit),
    AllocationGroupCostTypes: childrenOf(children.costTypes, row.id, codeRef),
    Explanations: childrenOf(children.explanations, row.id, explanation),
    OptionTaxes: childrenOf(children.optionTaxes, row.id, optionTax),
  };
}

export function presentAllocationGroupBase(row: AllocationGroupBaseRow, children: Children) {
  return {
    ...header(row),
    PreviousAllocationGroupBase: ref(row.previous_id, { Code: row.previous_code }),
    SearchPattern: row.search_pattern,
    Location: row.location,
    DistributionPeriod: ref(row.distribution_period_id, { Code: row.distribution_period_code }),
    AllocationGroup: {
      Id: row.group_id,
      IndividualOwnershipManagement: bool(row.group_individual_ownership_management),
      IsCleared: bool(row.group_is_cleared),
      RegularDistributionPeriod: ref(row.group_regular_id, { Code: row.group_regular_code }),
      UseUnits: childrenOf(children.useUnits, row.group_id, useUnit),
      Explanations: childrenOf(children.explanations, row.group_id, explanation),
    },
    CombinedAllocationGroup: {
      Id: row.combined_id,
      UnitsTotal: dec(row.units_total),
      CostsPerUnit: row.costs_per_unit,
      WarmWaterFuelConsumption: dec(row.warm_water_fuel_consumption),
      WarmWaterHeatQuantity: dec(row.warm_water_heat_quantity),
      IndependentCommercialHeatingSupply: bool(row.independent_commercial_heating_supply),
      InventoryIncreasesCleared: bool(row.inventory_increases_cleared),
      InventoryChangesAmount: dec(row.inventory_changes_amount),
      CombinedAllocationGroupType: ref(row.combined_type_id, { Code: row.combined_type_code }),
      FuelEnergyType: ref(row.fuel_energy_type_id, { Code: row.fuel_energy_type_code }),
      Facility: ref(row.facility_id, { Name: row.facility_name }),
      SettlementState: ref(row.settlement_state_id, { Code: row.settlement_state_code }),
      ElementaryDistributionKey: ref(row.elementary_key_id, { Code: row.elementary_key_code }),
      Explanations: childrenOf(children.combinedExplanations, row.combined_id, explanation),
    },
    AllocationGroupCostTypes: childrenOf(children.costTypes, row.id, codeRef),
    OptionTaxes: childrenOf(children.optionTaxes, row.id, optionTax),
  };
}
