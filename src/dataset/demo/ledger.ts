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
  buildOwner,
  buildUseUnit,
} from '../factories/builders.ts';
import type { Shared, Sink } from './catalog.ts';
import type { New } from '../factories/core.ts';
import type { Address } from './people.ts';
import { generateContractAgreement } from './contracts.ts';
import { FLOORS, PLACES, SIDES, STREETS, SURNAMES, nth, type Random } from './random.ts';
import { generateGroups, generateRentAdjustment } from './groups.ts';
import { generateLoans } from './loans.ts';
import {
  agreementFields,
  buildingLandFields,
  economicUnitFields,
  generateJurisdictions,
  generateTenancy,
  useUnitFields,
  type MasterContext,
} from './estate.ts';

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
  mc: MasterContext,
): Promise<void> {
  const ownerPersons = new Map<number, number>();
  const owners = [0, 1, 2].map((i) => {
    const [town, zip] = nth(PLACES, (company_code_id * 3 + i) % PLACES.length);
    const seat = { street: nth(STREETS, i), houseNumber: String(10 + i), zip, town };
    const row = buildOwner(sink.nextId(), ++n.owner, {
      company_code_id,
      owner_number: `E${String(company_code_id).padStart(2, '0')}${String(n.owner).padStart(4, '0')}`,
      person_id:
        i === 2
          ? mc.people.natural(seat)
          : mc.people.legal(
              `${i === 0 ? 'Grundstücksgesellschaft' : 'Wohnungseigentümergemeinschaft'} ${town} ${n.owner}`,
              seat,
            ),
      is_condominium: i === 1 ? 1 : 0,
    });
    sink.add('owners', row);
    if (row.person_id) ownerPersons.set(row.id, row.person_id);
    return row.id;
  });
  const banks = (['Sparkasse', 'Volksbank'] as const).map((bank, i) => {
    const [town, zip] = nth(PLACES, (company_code_id + i) % PLACES.length);
    return mc.people.legal(`${bank} ${town}`, { street: 'Marktplatz', houseNumber: String(1 + i), zip, town });
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
    const euFields = economicUnitFields(mc, owners, `${street}, ${zip} ${place}`, e);
    const eu = buildEconomicUnit(sink.nextId(), ++n.economicUnit, {
      company_code_id,
      name: `Wohnanlage ${street}, ${zip} ${place}`,
      ...euFields,
    });
    sink.add('economic_units', eu);
    const loan = {
      id: generateLoans(
        sink,
        mc,
        {
          company_code_id,
          economicUnit: { id: eu.id, number: eu.number ?? '' },
          lenders: banks,
          borrower: ownerPersons.get(euFields.owner_id) ?? nth(banks, 0),
          name: `Darlehen ${rnd.pick(['KfW', 'Sparkasse', 'Landesbank', 'Bausparkasse'])} ${eu.number}`,
        },
        n,
      ),
    };
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
        ...buildingLandFields(
          mc,
          { street, houseNumber: `${90 + l}`, zip, town: place },
          true,
          euFields.construction_year,
        ),
      });
      sink.add('lands', land);
      if (e === 0) project.lands.push(land.id);
    }
    const useUnits: (New<'use_units'> & { shop: boolean; address: Address })[] = [];
    const buildings = rnd.int(1, 3);
    let houseNo = rnd.int(1, 40);
    for (let b = 1; b <= buildings; b++, houseNo += 2) {
      const address = { street, houseNumber: String(houseNo), zip, town: place };
      const building = buildBuilding(sink.nextId(), b, euRef, {
        name: `${street} ${houseNo}`,
        ...buildingLandFields(mc, address, false, euFields.construction_year),
      });
      sink.add('buildings', building);
      if (e === 0) project.buildings.push(building.id);
      const flats = rnd.int(3, 12);
      for (let u = 1; u <= flats; u++) {
        const id = sink.nextId();
        const shop = u === 1 && rnd.chance(0.2);
        const uu = buildUseUnit(
          id,
          u,
          euRef,
          { id: building.id, number: building.number ?? null },
          {
            name: shop
              ? `Gewerbeeinheit ${street} ${houseNo}`
              : `Wohnung ${FLOORS[Math.min(FLOORS.length - 1, Math.floor((u - 1) / 3))]} ${SIDES[(u - 1) % 3]}`,
            ...useUnitFields(sink, mc, id, address, u, shop),
          },
        );
        sink.add('use_units', uu);
        useUnits.push({ ...uu, shop, address });
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
      const rent = { net: uu.target_rent ?? '0.00', space: uu.usable_space ?? '0', shop: uu.shop };
      if (rnd.chance(0.2)) {
        const id = sink.nextId();
        const old = buildLicenseAgreement(id, 1, uu, {
          valid_from: rnd.date(1995, 2004),
          valid_to: `${Number(from.slice(0, 4)) - 1}-12-31`,
          ...agreementFields(mc, s, 'ended', uu.shop, id),
        });
        sink.add('license_agreements', old);
        generateTenancy(sink, mc, s, old, uu.address, rent);
      }
      if (rnd.chance(0.08)) {
        // vacant: the vendor records vacancy as an agreement with a vacancy restriction of use (no contractors)
        const id = sink.nextId();
        sink.add(
          'license_agreements',
          buildLicenseAgreement(id, 2, uu, { valid_from: from, ...agreementFields(mc, s, 'vacancy', uu.shop, id) }),
        );
        continue;
      }
      const laId = sink.nextId();
      const la = buildLicenseAgreement(laId, 2, uu, {
        valid_from: from,
        ...agreementFields(mc, s, 'current', uu.shop, laId),
      });
      sink.add('license_agreements', la);
      generateTenancy(sink, mc, s, la, uu.address, rent);
      from = la.valid_from;
      const kinds = [nth(CONTRACT_AGREEMENT_KINDS, n.kind++ % CONTRACT_AGREEMENT_KINDS.length)];
      if (rnd.chance(0.5)) kinds.push(rnd.pick(CONTRACT_AGREEMENT_KINDS.filter((k) => k !== kinds[0])));
      for (const kind of kinds)
        generateContractAgreement(sink, rnd, s, kind, { id: la.id, company_code_id, valid_from: from }, groups);
      if (rnd.chance(0.1)) generateRentAdjustment(sink, rnd, s, uu);
    }
    generateJurisdictions(sink, mc, { id: eu.id, company_code_id }, useUnits[0]?.id);
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
