// Allocation groups (with combined groups and bases) and rent adjustments of the demo, per economic unit / use unit.
import type { Shared, Sink } from './catalog.ts';
import type { Random } from './random.ts';

/**
 * A heating group and an operating-cost group for the use units of one economic unit, each with a combined group and a
 * base, in the last two distribution periods: the group (and base) of the later period names the earlier one as its
 * previous group (base); the earlier one, cleared, starts the chain. Returns the groups' ids.
 */
export function generateGroups(
  sink: Sink,
  rnd: Random,
  s: Shared,
  company_code_id: number,
  owners: number[],
  useUnits: number[],
  location: string,
): number[] {
  const c = s.catalog;
  const ids: number[] = [];
  const [open, cleared, locked] = c.AllocationGroupState;
  for (const [i, block] of [c.PrepaymentBlock[1], c.PrepaymentBlock[0]].entries()) {
    const owner_id = rnd.pick(owners);
    let previous: { group: number; base: number } | null = null;
    for (const period of s.periods.slice(-2)) {
      const current = previous !== null;
      const id = sink.nextId();
      const code = `${i === 0 ? 'HK' : 'BK'}${id}`;
      const header = {
        code,
        owner_id,
        company_code_id,
        allocation_group_state_id: current ? rnd.pick([open, locked]) : cleared,
        prepayment_block_id: block,
        search_pattern: code,
        location,
        distribution_period_id: period,
      };
      sink.add('allocation_groups', {
        id,
        ...header,
        distribution_type_id: rnd.pick(c.DistributionType),
        previous_allocation_group_id: previous?.group ?? null,
        individual_ownership_management: 0,
        is_cleared: current ? 0 : 1,
        regular_distribution_period_id: c.RegularDistributionPeriod[0],
      });
      ids.push(id);
      for (const uu of useUnits) sink.add('allocation_group_use_units', { allocation_group_id: id, use_unit_id: uu });
      for (const t of c.AllocationGroupCostType.slice(i * 2, i * 2 + 3))
        sink.add('allocation_group_cost_types', { allocation_group_id: id, cost_type_id: t });
      sink.add('allocation_group_explanations', {
        id: sink.nextId(),
        allocation_group_id: id,
        text: i === 0 ? 'Verteilung 70 % Verbrauch, 30 % Fläche' : 'Verteilung nach Wohnfläche',
        explanation_group_id: s.explanationGroups[1],
      });
      sink.add('allocation_group_option_taxes', {
        allocation_group_id: id,
        option_tax: '19.00',
        valid_from: '2020-01-01',
        valid_to: null,
      });
      const combined = sink.nextId();
      sink.add('combined_allocation_groups', {
        id: combined,
        units_total: rnd.decimal(800, 4000),
        costs_per_unit: rnd.decimal(1, 4),
        warm_water_fuel_consumption: rnd.decimal(0, 1, 3),
        warm_water_heat_quantity: rnd.decimal(200, 2000, 1),
        independent_commercial_heating_supply: 0,
        inventory_increases_cleared: 1,
        inventory_changes_amount: rnd.decimal(-50, 50),
        combined_allocation_group_type_id: rnd.pick(c.CombinedAllocationGroupType),
        fuel_energy_type_id: rnd.pick(c.FuelEnergyType),
        facility_id: rnd.pick(s.facilities),
        settlement_state_id: rnd.pick(c.SettlementState),
        elementary_distribution_key_id: rnd.pick(c.ElementaryDistributionKey),
      });
      sink.add('combined_allocation_group_explanations', {
        id: sink.nextId(),
        combined_allocation_group_id: combined,
        text: 'Heizkostenverordnung § 7',
        explanation_group_id: s.explanationGroups[0],
      });
      const base = sink.nextId();
      sink.add('allocation_group_bases', {
        id: base,
        ...header,
        code: `${code}-B`,
        search_pattern: `${code}-B`,
        previous_allocation_group_base_id: previous?.base ?? null,
        allocation_group_id: id,
        combined_allocation_group_id: combined,
      });
      sink.add('allocation_group_base_cost_types', {
        allocation_group_base_id: base,
        cost_type_id: c.AllocationGroupCostType[i],
      });
      sink.add('allocation_group_base_option_taxes', {
        allocation_group_base_id: base,
        option_tax: '19.00',
        valid_from: '2020-01-01',
        valid_to: null,
      });
      previous = { group: id, base };
    }
  }
  return ids;
}

const DIFFERENT_RATINGS = [
  'keine abweichende Bewertung',
  'Abschlag wegen Lage im Hinterhaus',
  'Zuschlag wegen Modernisierung der Heizung 2021',
  'Einstufung nach Ortsbesichtigung',
];

export function generateRentAdjustment(
  sink: Sink,
  rnd: Random,
  s: Shared,
  uu: { id: number; company_code_id: number; living_space?: string | null },
): void {
  const id = sink.nextId();
  const c = s.catalog;
  sink.add('use_unit_rent_adjustments', {
    id,
    use_unit_id: uu.id,
    company_code_id: uu.company_code_id,
    adjustment_blocker: `${rnd.date(2024, 2025)}T00:00:00Z`,
    fio_legal_state_id: rnd.pick(c.FIOLegalState),
    municipality_id: rnd.pick(c.Municipality),
    move_in_date: `${rnd.date(2005, 2022)}T00:00:00Z`,
    square_meter_living_space: uu.living_space ?? rnd.decimal(35, 110, 1),
    apartment_size_class: rnd.pick(['bis 40 m²', '40-60 m²', '60-90 m²', 'über 90 m²']),
    housing_quality_points_comparison_object: rnd.decimal(3, 9, 1),
    modernising_by_rent_index: 0,
    increase_amount: rnd.decimal(10, 80),
    comparable_rent_of_an_area: rnd.decimal(7, 14),
    adjustment_date: '2026-07-01T00:00:00Z',
    text_for_different_rating: rnd.pick(DIFFERENT_RATINGS),
    cap_limit_id: rnd.pick(c.CapLimit),
    cap_limit_absolute_sqm: rnd.decimal(0.5, 1.5),
    municipality_active_rent_index: 'Mietspiegel 2025',
  });
  sink.add('rent_adjustment_surcharges', {
    id: sink.nextId(),
    use_unit_rent_adjustment_id: id,
    special_attribute_id: rnd.pick(c.SpecialAttribute),
    amount: rnd.decimal(0.1, 0.8),
    percent: rnd.decimal(1, 8, 1),
  });
  sink.add('rent_adjustment_facility_characteristics', {
    use_unit_rent_adjustment_id: id,
    facility_characteristic_group_id: rnd.pick(c.FacilityCharacteristicGroup),
    effective_value: rnd.pick(['gut', 'mittel', 'einfach']),
  });
}
