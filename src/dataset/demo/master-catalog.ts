// The master-data catalogue of the demo (catalog_entries): German names, and the vendor's ids where clients hard-code
// them (Gender 3 = not specified, CommunicationType 1/3/5, ContractorType 1/2/3/1003, StatusInventory 1..5,
// MonumentalProtectionType 1/2).
import type { MasterCatalogKind } from '../../master-data/catalog-kinds.ts';
import type { New } from '../factories/core.ts';
import type { Sink } from './catalog.ts';

type Extra = Partial<Omit<New<'catalog_entries'>, 'id' | 'kind' | 'kind_id' | 'name'>>;
type Entry = [kindId: number, name: string, extra?: Extra];

const list = (names: string[], first = 1): Entry[] => names.map((name, i) => [first + i, name]);
const coded = (entries: [code: string, name: string][]): Entry[] =>
  entries.map(([code, name], i) => [i + 1, name, { code }]);
const usage = (names: [string, number, string][]): Entry[] =>
  names.map(([name, classificationId, classification], i) => [
    i + 1,
    name,
    { classification_id: classificationId, classification },
  ]);

const ENTRIES: Record<MasterCatalogKind, Entry[]> = {
  RestrictionOfUse: [
    [1, 'Wohnraum', { node_id: 10, is_vacancy: 0 }],
    [2, 'Gewerberaum', { node_id: 20, is_vacancy: 0 }],
    [3, 'Garage/Stellplatz', { node_id: 30, is_vacancy: 0 }],
    [9, 'Leerstand', { node_id: 90, is_vacancy: 1 }],
  ],
  StatusContract: list(['aktiv', 'gekündigt', 'beendet']),
  LifeOfContract: list(['unbefristet', 'befristet', 'Staffelmietvertrag']),
  PaymentInterval: list(['monatlich', 'vierteljährlich', 'jährlich']),
  PeriodOfNotice: list(['3 Monate', '6 Monate', '9 Monate']),
  DebitEntryType: list(['Sollstellung monatlich', 'Sollstellung einmalig']),
  ContractorType: [
    [1, '1. Vertragsnehmer'],
    [2, '2. Vertragsnehmer'],
    [3, 'abweichender Vertragsnehmer'],
    [1003, 'Untermieter'],
  ],
  Gender: list(['männlich', 'weiblich', 'keine Angabe', 'divers']),
  MaritalType: list(['ledig', 'verheiratet', 'geschieden', 'verwitwet']),
  Nationality: [
    [1, 'deutsch', { code: 'DE' }],
    [2, 'österreichisch', { code: 'AT' }],
    [3, 'polnisch', { code: 'PL' }],
    [4, 'türkisch', { code: 'TR' }],
  ],
  AddressType: list(['Hauptadresse', 'Postanschrift', 'Rechnungsanschrift']),
  Country: [
    [1, 'Deutschland', { code: 'DE' }],
    [2, 'Österreich', { code: 'AT' }],
  ],
  CommunicationType: [
    [1, 'Festnetz'],
    [3, 'Handynummer'],
    [5, 'E-Mail'],
  ],
  BankAccountType: [
    [1, 'Girokonto', { code: 'GIRO' }],
    [2, 'Sparkonto', { code: 'SPAR' }],
  ],
  BankAccountUsageType: [
    [1, 'Lastschrift', { code: 'LS' }],
    [2, 'Auszahlung', { code: 'AZ' }],
  ],
  PaymentModeMode: list(['Lastschrift (SEPA)', 'Überweisung', 'Dauerauftrag']),
  PaymentModeType: list(['Basislastschrift', 'Selbstzahler']),
  AssetIdentification: list(['Anlagevermögen', 'Umlaufvermögen']),
  StatusInventory: list([
    'Bauvorbereitung',
    'Bauerstellung',
    'fertiggestellt, nicht abgerechnet',
    'fertiggestellt und abgerechnet',
    'inaktiv',
  ]),
  District: list(['Altstadt', 'Nordstadt', 'Südstadt', 'Weststadt', 'Oststadt']),
  MonumentalProtectionType: list([
    'Denkmalschutz (§ 3 DSchG, Einzeldenkmal)',
    'erhaltenswerte Bausubstanz (§ 25 DSchG)',
    'kein Denkmalschutz',
  ]),
  RegionalResponsibility: list(['Region Nord', 'Region Süd']),
  ConstructionMethod: list(['Massivbau', 'Fertigbau', 'Plattenbau']),
  BuildingType: list([
    'Mehrfamilienhaus',
    'Wohn- und Geschäftshaus',
    'Zweifamilienhaus',
    'Tiefgarage',
    'unbebautes Grundstück',
  ]),
  Origin: list(['Neubau', 'Ankauf', 'Übernahme']),
  ChangeReason: list(['Modernisierung', 'Neuvermessung']),
  EntryReason: list(['Neubau', 'Ankauf', 'Erstvermietung']),
  ExitReason: list(['Verkauf', 'Abriss']),
  Position: list(['links', 'mitte', 'rechts']),
  Floor: [
    [1, 'Erdgeschoss', { level_to_ground: 0 }],
    [2, '1. Obergeschoss', { level_to_ground: 1 }],
    [3, '2. Obergeschoss', { level_to_ground: 2 }],
    [4, '3. Obergeschoss', { level_to_ground: 3 }],
    [5, 'Dachgeschoss', { level_to_ground: 4 }],
  ],
  ResidentialAuthorization: list(['ohne Wohnberechtigungsschein', 'mit Wohnberechtigungsschein']),
  FinancingType: [
    [1, 'frei finanziert', { classification_id: 1, classification: 'freifinanziert' }],
    [2, 'öffentlich gefördert', { classification_id: 2, classification: 'gefördert' }],
  ],
  UseUnitUsageType: usage([
    ['Wohnung', 1, 'Wohnen'],
    ['Gewerbe', 2, 'Gewerbe'],
    ['Garage', 3, 'Parken'],
    ['Stellplatz', 3, 'Parken'],
  ]),
  UseUnitType: [
    [1, 'Wohnung', { classification: 'Wohnen' }],
    [2, 'Gewerbe', { classification: 'Gewerbe' }],
    [3, 'Garage', { classification: 'Parken' }],
    [4, 'Stellplatz', { classification: 'Parken' }],
  ],
  QuantityType: [
    [1, 'Wohnfläche', { code: 'WFL', short_code: 'ARGE-WFL' }],
    [2, 'Heizfläche', { code: 'HFL', short_code: 'ARGE-HFL' }],
    [3, 'Personen', { code: 'PERS' }],
  ],
  AdministrationType: list(['Mietverwaltung', 'WEG-Verwaltung', 'Eigenbestand']),
  DepartmentType: list(['Vermietung', 'Technik', 'Buchhaltung']),
  ValidContractPosition: list(['gültig', 'ungültig']),
  ChangeReasonContracts: list(['Neuvertrag', 'Mieterhöhung', 'Betriebskostenanpassung']),
  LoanType: [
    [1, 'Annuitätendarlehen', { code: 'ANN', short_code: 'AD' }],
    [2, 'Tilgungsdarlehen', { code: 'TIL', short_code: 'TD' }],
    [3, 'Förderdarlehen (KfW)', { code: 'KFW', short_code: 'FD' }],
  ],
  CollateralSecurity: coded([
    ['GS1', 'Grundschuld erstrangig'],
    ['GS2', 'Grundschuld nachrangig'],
    ['BUE', 'Bürgschaft'],
  ]),
  SubsidiesLoan: coded([
    ['FREI', 'frei finanziert'],
    ['OEFF', 'öffentlich gefördert'],
  ]),
  CancellationPossibility: coded([
    ['489', 'Kündigungsrecht nach § 489 BGB'],
    ['KEIN', 'kein Sonderkündigungsrecht'],
  ]),
  ObjectAllocationType: coded([
    ['GES', 'Gesamtobjekt'],
    ['ANT', 'anteilig'],
  ]),
  LoanTermsType: coded([
    ['ZINS', 'Zins'],
    ['TILG', 'Tilgung'],
    ['VERW', 'Verwaltungskosten'],
  ]),
  MaturityDateType: coded([
    ['MON', 'monatlich'],
    ['QUA', 'vierteljährlich'],
    ['HJ', 'halbjährlich'],
  ]),
  PeriodOfPerformance: coded([
    ['ANF', 'Periodenanfang'],
    ['END', 'Periodenende'],
  ]),
  RoundingType: coded([
    ['KAUF', 'kaufmännisch'],
    ['AUF', 'aufrunden'],
  ]),
  LoanBase: coded([
    ['NOM', 'Nominalkapital'],
    ['RST', 'Restkapital'],
  ]),
  ChangeReasonCostItem: coded([
    ['NEU', 'Neuabschluss'],
    ['PROL', 'Prolongation'],
  ]),
  MaturityPeriod: coded([
    ['1M', '1 Monat'],
    ['3M', '3 Monate'],
  ]),
};

/** Row ids of the demo's catalogue entries, per kind, in the order of ENTRIES (and by vendor id). */
export type MasterCatalog = Record<MasterCatalogKind, number[]> & {
  byKindId: (kind: MasterCatalogKind, id: number) => number;
};

export function generateMasterCatalog(sink: Sink): MasterCatalog {
  const out = {} as Record<MasterCatalogKind, number[]>;
  const byKey = new Map<string, number>();
  for (const [kind, entries] of Object.entries(ENTRIES) as [MasterCatalogKind, Entry[]][]) {
    out[kind] = entries.map(([kindId, name, extra]) => {
      const id = sink.nextId();
      sink.add('catalog_entries', { id, kind, kind_id: kindId, name, ...extra });
      byKey.set(`${kind}:${kindId}`, id);
      return id;
    });
  }
  return Object.assign(out, {
    byKindId(kind: MasterCatalogKind, kindId: number): number {
      const id = byKey.get(`${kind}:${kindId}`);
      if (id === undefined) throw new Error(`demo catalogue: no ${kind} ${kindId}`);
      return id;
    },
  });
}

/** Detail flags of the contract position types GM (net rent), BKV (running costs), HKV (heating), in that order. */
export function generateContractPositionTypeDetails(sink: Sink, types: number[]): void {
  types.forEach((id, i) =>
    sink.add('contract_position_type_details', {
      id,
      deposit: 0,
      wb_relevant: i === 0 ? 1 : 0,
      bgb_relevant: i === 0 ? 1 : 0,
      is_part_of_net_rent: i === 0 ? 1 : 0,
      using_cp_as_prepayment_block: i === 0 ? 0 : 1,
      assignment_prepayment: ['', 'Betriebskosten', 'Heizkosten'][i] ?? '',
      is_gross_rent_without_heating: i === 2 ? 0 : 1,
      is_part_of_net_rent_census: i === 0 ? 1 : 0,
      is_basis_calculation_reminder_charge_interest: 1,
      is_prepayment_heating: i === 2 ? 1 : 0,
      is_prepayment_running_cost: i === 1 ? 1 : 0,
      report_as_sinking_fund: i === 0 ? 0 : 1,
    }),
  );
}
