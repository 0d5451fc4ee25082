// Master-data fields of the demo's estate: economic units, buildings, land, use units (with type history and billing
// units), license agreements, and per agreement its contractors, payment mode and contract positions (the rent, from
// the use unit's living space), and the jurisdictions of each economic unit. Values come from the master-data stream.
import type { Shared, Sink } from './catalog.ts';
import type { MasterCatalog } from './master-catalog.ts';
import type { Address, LedgerOrganisation, People } from './people.ts';
import { buildContractor, buildContractPosition, buildPaymentMode, germanIban } from '../factories/parties.ts';
import { nth, type Random } from './random.ts';

/** What the estate generator needs besides the sink: the catalogue, the persons, the ledger's organisation. */
export interface MasterContext {
  rnd: Random;
  m: MasterCatalog;
  people: People;
  org: LedgerOrganisation;
}

const estateAddress = (c: MasterContext, a: Address) => ({
  zip: a.zip,
  town: a.town,
  street: a.street,
  house_number: a.houseNumber,
  house_number_addition: null,
  country_id: c.m.byKindId('Country', 1),
});

export function economicUnitFields(c: MasterContext, owners: number[], location: string, index: number) {
  const { rnd, m } = c;
  return {
    location,
    construction_year: rnd.int(1955, 2015),
    info: rnd.chance(0.3) ? 'Fernwärmeanschluss, Aufzug' : 'Zentralheizung (Gas)',
    binding_end_date: rnd.chance(0.3) ? `${rnd.int(2027, 2040)}-12-31` : null,
    owner_id: nth(owners, index % owners.length),
    management_id: c.org.managementId,
    asset_identification_id: m.byKindId('AssetIdentification', 1),
    status_inventory_id: m.byKindId('StatusInventory', rnd.chance(0.9) ? 4 : 3),
    district_id: rnd.pick(m.District),
    monumental_protection_type_id: m.byKindId('MonumentalProtectionType', rnd.chance(0.1) ? 1 : 3),
    regional_responsibility_id: rnd.pick(m.RegionalResponsibility),
    universal_official_id: index % 3 === 0 ? nth(c.org.officials, 0) : null,
  };
}

export function buildingLandFields(c: MasterContext, a: Address, land: boolean, euYear: number) {
  const { rnd, m } = c;
  const g = m.byKindId;
  return {
    ...estateAddress(c, a),
    entry_date: `${euYear}-0${rnd.int(1, 9)}-01`,
    exit_date: null,
    entry_reason_id: g('EntryReason', land ? 2 : 1),
    exit_reason_id: null,
    construction_year: land ? null : euYear,
    move_in_date: land ? null : `${euYear + 1}-0${rnd.int(1, 9)}-01`,
    storeys: land ? null : rnd.int(2, 6),
    construction_method_id: land ? null : g('ConstructionMethod', rnd.chance(0.8) ? 1 : 3),
    building_type_id: g('BuildingType', land ? 5 : rnd.chance(0.85) ? 1 : 2),
    district_id: rnd.pick(m.District),
    monumental_protection_type_id: g('MonumentalProtectionType', 3),
    origin_id: g('Origin', rnd.chance(0.7) ? 1 : 2),
    change_reason_id: !land && rnd.chance(0.2) ? g('ChangeReason', 1) : null,
    land_area: land ? rnd.decimal(300, 4000, 2) : null,
  };
}

/** Fields of a use unit (flat or shop) and its type history and billing units; returns the fields. */
export function useUnitFields(sink: Sink, c: MasterContext, useUnitId: number, a: Address, u: number, shop: boolean) {
  const { rnd, m } = c;
  const g = m.byKindId;
  const living = shop ? null : rnd.decimal(32, 118, 2);
  const usable = shop ? rnd.decimal(60, 240, 2) : living;
  const start = `${rnd.int(1995, 2015)}-01-01`;
  const rate = shop ? rnd.int(900, 1800) : rnd.int(620, 1350);
  const rent = Math.round((Number(usable) * rate) / 100);
  const floor = Math.min(5, Math.floor((u - 1) / 3) + 1);
  const usage = g('UseUnitUsageType', shop ? 2 : 1);
  if (rnd.chance(0.15)) {
    const changed = `${rnd.int(2016, 2022)}-01-01`;
    sink.add('use_unit_types', {
      id: sink.nextId(),
      use_unit_id: useUnitId,
      valid_from: start,
      valid_to: `${Number(changed.slice(0, 4)) - 1}-12-31`,
      use_unit_usage_type_id: g('UseUnitUsageType', shop ? 1 : 2),
    });
    sink.add('use_unit_types', {
      id: sink.nextId(),
      use_unit_id: useUnitId,
      valid_from: changed,
      use_unit_usage_type_id: usage,
    });
  } else
    sink.add('use_unit_types', {
      id: sink.nextId(),
      use_unit_id: useUnitId,
      valid_from: start,
      use_unit_usage_type_id: usage,
    });
  for (const [kindId, value] of [
    [1, usable],
    [2, usable],
  ] as const)
    sink.add('use_unit_billing_units', {
      id: sink.nextId(),
      use_unit_id: useUnitId,
      value,
      valid_from: start,
      is_base_component_cold_water: kindId === 1 ? 1 : 0,
      is_base_component_heating: kindId === 2 ? 1 : 0,
      is_base_component_warm_water: kindId === 2 ? 1 : 0,
      quantity_type_id: g('QuantityType', kindId),
    });
  return {
    ...estateAddress(c, a),
    usable_space: usable,
    living_space: living,
    heating_space: usable,
    number_of_rooms: shop ? 2 : Math.max(1, Math.round(Number(living) / 25)),
    number_of_half_rooms: shop ? 0 : rnd.int(0, 1),
    target_rent: `${rent}.00`,
    management_start: start,
    management_end: null,
    binding_end_date: null,
    move_in_date: start,
    entry_date: start,
    exit_date: null,
    entry_reason_id: g('EntryReason', 3),
    exit_reason_id: null,
    energy_certificate_id: 500000 + useUnitId,
    position_id: m.Position[(u - 1) % 3] ?? null,
    floor_id: g('Floor', floor),
    residential_authorization_id: g('ResidentialAuthorization', rnd.chance(0.2) ? 2 : 1),
    financing_type_id: g('FinancingType', rnd.chance(0.2) ? 2 : 1),
  };
}

export type AgreementState = 'current' | 'ended' | 'vacancy';

export function agreementFields(c: MasterContext, s: Shared, state: AgreementState, shop: boolean, id: number) {
  const { rnd, m } = c;
  const g = m.byKindId;
  return {
    restriction_of_use_id: g('RestrictionOfUse', state === 'vacancy' ? 9 : shop ? 2 : 1),
    status_contract_id: g('StatusContract', state === 'ended' ? 3 : rnd.chance(0.05) ? 2 : 1),
    life_of_contract_id: g('LifeOfContract', shop ? 2 : 1),
    payment_interval_id: g('PaymentInterval', 1),
    period_of_notice_id: g('PeriodOfNotice', shop ? 2 : 1),
    debit_entry_type_id: g('DebitEntryType', 1),
    differing_maturity: rnd.chance(0.1) ? 15 : null,
    dunning_block: 0,
    dunning_level_id: state === 'current' && rnd.chance(0.05) ? nth(s.catalog.DunningLevel, 0) : null,
    use_virtual_iban: state === 'vacancy' ? 0 : 1,
    virtual_iban: state === 'vacancy' ? null : germanIban('10050000', 9_000_000_000 + id),
    former_virtual_iban: null,
    collective_no_real_bank_account: 0,
    collective_iban: 'DE89370400440532013000',
    collective_bic: 'COBADEFFXXX',
    collective_account_holder: 'Sammelkonto Mieten',
  };
}

interface Agreement {
  id: number;
  company_code_id: number;
  valid_from: string;
  valid_to?: string | null;
}

/** Contractors (one or two persons living in the unit), the payment mode and the rent positions of an agreement. */
export function generateTenancy(
  sink: Sink,
  c: MasterContext,
  s: Shared,
  la: Agreement,
  home: Address,
  rent: { net: string; space: string; shop: boolean },
): void {
  const { rnd, m } = c;
  const g = m.byKindId;
  const count = !rent.shop && rnd.chance(0.35) ? 2 : 1;
  const persons: number[] = [];
  for (let k = 1; k <= count; k++) {
    const person = rent.shop
      ? c.people.legal(`${rnd.pick(SHOPS)} ${home.town}`, home)
      : c.people.natural(home, la.valid_from);
    persons.push(person);
    sink.add('contractors', buildContractor(sink.nextId(), la, person, { contractor_type_id: g('ContractorType', k) }));
  }
  const debit = rnd.chance(0.7);
  sink.add(
    'payment_modes',
    buildPaymentMode(sink.nextId(), la, {
      mode_id: g('PaymentModeMode', debit ? 1 : 2),
      type_id: g('PaymentModeType', debit ? 1 : 2),
      sepa_mandate_reference: debit ? `MANDAT-${la.id}` : null,
      bank_account_id: debit ? c.people.bankAccountOf(nth(persons, 0)) : null,
    }),
  );
  const vat = rent.shop ? 19 : 0;
  const vatId = nth(s.catalog.VatRate, rent.shop ? 0 : 2);
  const [net, running, heating] = s.catalog.ContractPositionType;
  const perSqm = (cents: number) => ((Number(rent.space) * cents) / 100).toFixed(2);
  for (const [type, amount] of [
    [net, rent.net],
    [running, perSqm(210)],
    [heating, perSqm(120)],
  ] as const)
    sink.add(
      'contract_positions',
      buildContractPosition(sink.nextId(), la, amount, vat, {
        vat_rate_id: vatId,
        contract_position_type_id: type ?? null,
        valid_contract_position_id: g('ValidContractPosition', 1),
        change_reason_contracts_id: g('ChangeReasonContracts', 1),
      }),
    );
}

const SHOPS = ['Bäckerei Sonnenschein', 'Friseursalon Schnittpunkt', 'Apotheke am Markt', 'Blumen Lindner'];

/** The economic unit's jurisdictions (letting and technical department) and one of its first use unit. */
export function generateJurisdictions(
  sink: Sink,
  c: MasterContext,
  eu: { id: number; company_code_id: number },
  useUnitId?: number,
) {
  c.org.departments.forEach((d, i) =>
    sink.add('jurisdictions', {
      id: sink.nextId(),
      economic_unit_id: eu.id,
      company_code_id: eu.company_code_id,
      use_unit_id: null,
      main_jurisdiction: i === 0 ? 1 : 0,
      responsible_official_id: nth(c.org.officials, i),
      department_id: d.id,
      department_type_id: d.typeId,
    }),
  );
  if (useUnitId !== undefined) {
    const d = nth(c.org.departments, 0);
    sink.add('jurisdictions', {
      id: sink.nextId(),
      economic_unit_id: eu.id,
      company_code_id: eu.company_code_id,
      use_unit_id: useUnitId,
      main_jurisdiction: 1,
      responsible_official_id: nth(c.org.officials, 1),
      department_id: d.id,
      department_type_id: d.typeId,
    });
  }
}
