// One ledger (company code) of the demo: owners, economic units with buildings, land and use units, allocation groups
// with combined groups and bases, license and contract agreements, rent adjustments, budgets, loans, cost objects, projects.
import { CONTRACT_AGREEMENT_KINDS } from '../../rent-accounting/tables.ts';
import {
  buildBudget,
  buildBuilding,
  buildCostObject,
  buildEconomicUnit,
  buildLand,
  buildLicenseAgreement,
  buildLoan,
  buildOwner,
  buildUseUnit,
} from '../factories/builders.ts';
import type { Shared, Sink } from './catalog.ts';
import { generateContractAgreement } from './contracts.ts';
import { FLOORS, PLACES, SIDES, STREETS, SURNAMES, nth, type Random } from './random.ts';

export interface LedgerCounters {
  economicUnit: number;
  kind: number;
  owner: number;
  budget: number;
  loan: number;
  cost: number;
  project: number;
  useUnits: number;
}

export async function generateLedger(
  sink: Sink & { flushIfFull(): Promise<void> },
  rnd: Random,
  s: Shared,
  company_code_id: number,
  economicUnits: number,
  n: LedgerCounters,
): Promise<void> {
  const owners = [0, 1, 2].map(() => {
    const row = buildOwner(sink.nextId(), ++n.owner, {
      company_code_id,
      owner_number: `E${String(company_code_id).padStart(2, '0')}${String(n.owner).padStart(4, '0')}`,
    });
    sink.add('owners', row);
    return row.id;
  });
  const costs = (['CC', 'CU', 'CT'] as const).map((prefix) => {
    const table = { CC: 'cost_centers', CU: 'cost_units', CT: 'cost_types' }[prefix];
    const row = buildCostObject(prefix, sink.nextId(), ++n.cost, {
      company_code_id,
      name: { CC: 'Instandhaltung', CU: 'Modernisierung', CT: 'Fremdleistungen' }[prefix],
    });
    sink.add(table, row);
    return row.id;
  });
  const project = {
    eus: [] as number[],
    buildings: [] as number[],
    lands: [] as number[],
    useUnits: [] as number[],
    budgets: [] as number[],
    loans: [] as number[],
  };
  for (let e = 0; e < economicUnits; e++) {
    const [place, zip] = rnd.pick(PLACES);
    const street = rnd.pick(STREETS);
    const eu = buildEconomicUnit(sink.nextId(), ++n.economicUnit, {
      company_code_id,
      name: `Wohnanlage ${street}, ${zip} ${place}`,
    });
    sink.add('economic_units', eu);
    const loan = buildLoan(sink.nextId(), ++n.loan, {
      company_code_id,
      loan_number: `DL-${eu.number}`,
      name: `Darlehen ${rnd.pick(['KfW', 'Sparkasse', 'Landesbank', 'Bausparkasse'])} ${eu.number}`,
    });
    sink.add('loans', loan);
    const budget = buildBudget(sink.nextId(), ++n.budget, {
      company_code_id,
      name: `Instandhaltungsbudget ${eu.number} 2026`,
    });
    sink.add('budgets', budget);
    const euRef = { id: eu.id, company_code_id, number: eu.number ?? null };
    const lands = rnd.int(1, 2);
    for (let l = 1; l <= lands; l++) {
      const land = buildLand(sink.nextId(), l, euRef, {
        name: `Flurstück ${rnd.int(10, 999)}/${rnd.int(1, 20)}, Gemarkung ${place}`,
      });
      sink.add('lands', land);
      if (e === 0) project.lands.push(land.id);
    }
    const useUnits: { id: number; use_unit_number: string; company_code_id: number }[] = [];
    const buildings = rnd.int(1, 3);
    let houseNo = rnd.int(1, 40);
    for (let b = 1; b <= buildings; b++, houseNo += 2) {
      const building = buildBuilding(sink.nextId(), b, euRef, { name: `${street} ${houseNo}` });
      sink.add('buildings', building);
      if (e === 0) project.buildings.push(building.id);
      const flats = rnd.int(3, 12);
      for (let u = 1; u <= flats; u++) {
        const uu = buildUseUnit(
          sink.nextId(),
          u,
          euRef,
          { id: building.id, number: building.number ?? null },
          {
            name:
              u === 1 && rnd.chance(0.2)
                ? `Gewerbeeinheit ${street} ${houseNo}`
                : `Wohnung ${FLOORS[Math.min(FLOORS.length - 1, Math.floor((u - 1) / 3))]} ${SIDES[(u - 1) % 3]}`,
          },
        );
        sink.add('use_units', uu);
        useUnits.push(uu);
      }
    }
    n.useUnits += useUnits.length;
    const groups = generateGroups(
      sink,
      rnd,
      s,
      company_code_id,
      owners,
      useUnits.map((u) => u.id),
      `${street} ${place}`,
    );
    for (const uu of useUnits) {
      let from = rnd.date(2005, 2023);
      if (rnd.chance(0.2)) {
        const old = buildLicenseAgreement(sink.nextId(), 1, uu, {
          valid_from: rnd.date(1995, 2004),
          valid_to: `${Number(from.slice(0, 4)) - 1}-12-31`,
        });
        sink.add('license_agreements', old);
      }
      if (rnd.chance(0.08)) continue; // vacant
      const la = buildLicenseAgreement(sink.nextId(), 2, uu, { valid_from: from });
      sink.add('license_agreements', la);
      from = la.valid_from;
      const kinds = [nth(CONTRACT_AGREEMENT_KINDS, n.kind++ % CONTRACT_AGREEMENT_KINDS.length)];
      if (rnd.chance(0.5)) kinds.push(rnd.pick(CONTRACT_AGREEMENT_KINDS.filter((k) => k !== kinds[0])));
      for (const kind of kinds)
        generateContractAgreement(sink, rnd, s, kind, { id: la.id, company_code_id, valid_from: from }, groups);
      if (rnd.chance(0.1)) generateRentAdjustment(sink, rnd, s, uu);
    }
    if (e === 0) {
      project.eus.push(eu.id);
      project.useUnits.push(...useUnits.slice(0, 3).map((u) => u.id));
      project.budgets.push(budget.id);
      project.loans.push(loan.id);
    }
    await sink.flushIfFull();
  }
  const projectId = sink.nextId();
  sink.add('projects', {
    id: projectId,
    name: `Modernisierung ${rnd.pick(STREETS)}`,
    code: `P${company_code_id}-${++n.project}`,
    project_manager: `${rnd.pick(['A.', 'B.', 'C.', 'D.'])} ${rnd.pick(SURNAMES)}`,
    description: 'Energetische Sanierung: Dämmung der Fassade, Austausch der Fenster',
    company_code_id,
    project_life_time_from: '2026-01-01',
    project_life_time_to: '2027-12-31',
    cost_center_id: costs[0],
    cost_unit_id: costs[1],
    cost_type_id: costs[2],
    created_at: '2025-11-01T08:00:00Z',
    updated_at: '2025-11-01T08:00:00Z',
  });
  const assign = (table: string, column: string, ids: number[]) =>
    ids.forEach((id) => sink.add(table, { project_id: projectId, [column]: id }));
  assign('project_economic_units', 'economic_unit_id', project.eus);
  assign('project_buildings', 'building_id', project.buildings);
  assign('project_lands', 'land_id', project.lands);
  assign('project_use_units', 'use_unit_id', project.useUnits);
  assign('project_budgets', 'budget_id', project.budgets);
  assign('project_loans', 'loan_id', project.loans);
}

/**
 * A heating group and an operating-cost group for the use units of one economic unit, each with a combined group and a
 * base, in the last two distribution periods: the group (and base) of the later period names the earlier one as its
 * previous group (base); the earlier one, cleared, starts the chain. Returns the groups' ids.
 */
function generateGroups(
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

function generateRentAdjustment(sink: Sink, rnd: Random, s: Shared, uu: { id: number; company_code_id: number }): void {
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
    square_meter_living_space: rnd.decimal(35, 110, 1),
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
