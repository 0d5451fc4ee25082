// The shared catalogues of the demo: catalogue codes of every kind (German names where they matter), facilities,
// explanation groups, distribution periods, price indices with monthly values.
import { CATALOG_KINDS, type CatalogKind } from '../../master-data/tables.ts';
import { buildCatalogCode, SHORT_CODE_KINDS } from '../factories/core.ts';
import { buildDistributionPeriod, buildPriceIndex, buildPriceIndexValue } from '../factories/builders.ts';
import { nth, type Random } from './random.ts';

export interface Sink {
  nextId(): number;
  add(table: string, row: object): void;
}

const NAMES: Partial<Record<CatalogKind, [string, string][]>> = {
  RegularDistributionPeriod: [
    ['KJ', 'Kalenderjahr'],
    ['WJ', 'Wirtschaftsjahr 1.7.-30.6.'],
  ],
  AllocationGroupState: [
    ['OFFEN', 'offen'],
    ['ABGER', 'abgerechnet'],
    ['GESP', 'gesperrt'],
  ],
  PrepaymentBlock: [
    ['BK', 'Betriebskosten'],
    ['HK', 'Heizkosten'],
    ['WK', 'Warmwasser'],
  ],
  DistributionType: [
    ['WFL', 'nach Wohnfläche'],
    ['PERS', 'nach Personen'],
    ['VERB', 'nach Verbrauch'],
  ],
  AllocationGroupCostType: [
    ['GRST', 'Grundsteuer'],
    ['WASS', 'Wasserversorgung'],
    ['MUELL', 'Müllbeseitigung'],
    ['HAUSW', 'Hauswart'],
    ['STROM', 'Allgemeinstrom'],
  ],
  FuelEnergyType: [
    ['GAS', 'Erdgas'],
    ['FW', 'Fernwärme'],
    ['OEL', 'Heizöl'],
  ],
  VatRate: [
    ['19', 'Umsatzsteuer 19 %'],
    ['7', 'Umsatzsteuer 7 %'],
    ['0', 'steuerfrei'],
  ],
  ContractPositionType: [
    ['GM', 'Grundmiete'],
    ['BKV', 'Betriebskostenvorauszahlung'],
    ['HKV', 'Heizkostenvorauszahlung'],
  ],
  DistributionSpecialChargeType: [
    ['FIX', 'Festbetrag je Einheit des Verteilerschlüssels'],
    ['PROZ', 'Prozent der Vertragsposition'],
    ['MAX', 'Höchstbetrag'],
  ],
  CalculationBase: [
    ['NKM', 'Nettokaltmiete'],
    ['BKM', 'Bruttokaltmiete'],
    ['GES', 'Gesamtmiete'],
  ],
  ContractAgreementAccountingInterval: [
    ['M', 'monatlich'],
    ['Q', 'quartalsweise'],
    ['J', 'jährlich'],
  ],
  Currency: [['EUR', 'Euro']],
  DunningLevel: [
    ['M1', '1. Mahnung'],
    ['M2', '2. Mahnung'],
    ['M3', 'letzte Mahnung'],
  ],
  ReasonOfWaiver: [
    ['KV', 'Kündigungsverzicht vereinbart'],
    ['SOZ', 'Sozialklausel'],
  ],
  Municipality: [
    ['B', 'Berlin'],
    ['HH', 'Hamburg'],
    ['M', 'München'],
  ],
  CapLimit: [
    ['KAP15', 'Kappungsgrenze 15 %'],
    ['KAP20', 'Kappungsgrenze 20 %'],
  ],
};

export type CatalogIds = Record<CatalogKind, number[]>;

export function generateCatalog(sink: Sink): CatalogIds {
  const ids = {} as CatalogIds;
  for (const kind of CATALOG_KINDS) {
    const names =
      NAMES[kind] ?? [1, 2, 3].map((n): [string, string] => [`${kind.replace(/[a-z]/g, '')}${n}`, `${kind} ${n}`]);
    ids[kind] = names.map(([code, name], i) => {
      const n = i + 1;
      const row = buildCatalogCode(kind, {
        id: sink.nextId(),
        code,
        name,
        short_code: SHORT_CODE_KINDS.includes(kind) ? code : null,
        // NodeId: ReasonOfWaiver's, and ContractPositionType's (W needs all keys of the type's details: decisions §7)
        node_id: kind === 'ReasonOfWaiver' || kind === 'ContractPositionType' ? 10 + n : null,
        arge_code: kind === 'BillingUnitValue' ? `ARGE${n}` : null,
        // FIX, PROZ, MAX: each charge type sets the one flag its name says
        ...(kind === 'DistributionSpecialChargeType'
          ? {
              is_fix_costs_per_distribution_key_unit: n === 1 ? 1 : 0,
              is_percent_of_contract_position: n === 2 ? 1 : 0,
              is_upper_limit: n === 3 ? 1 : 0,
            }
          : {}),
      });
      sink.add('catalog_codes', row);
      return row.id;
    });
  }
  return ids;
}

export interface Shared {
  catalog: CatalogIds;
  facilities: number[];
  explanationGroups: number[];
  periods: number[];
  priceIndices: number[];
  /** Value ids per price index, oldest first. */
  priceIndexValues: number[][];
}

export function generateShared(sink: Sink, rnd: Random): Shared {
  const catalog = generateCatalog(sink);
  const facilities = ['Heizzentrale Nord', 'Heizzentrale Süd', 'Fernwärmeübergabestation', 'Blockheizkraftwerk'].map(
    (name) => {
      const id = sink.nextId();
      sink.add('facilities', { id, name });
      return id;
    },
  );
  const explanationGroups = ['Hinweise zur Abrechnung', 'Verteilerschlüssel', 'Sonstiges'].map((name) => {
    const id = sink.nextId();
    sink.add('explanation_groups', { id, name });
    return id;
  });
  const periods = [2022, 2023, 2024, 2025].map((year) => {
    const row = buildDistributionPeriod(sink.nextId(), year, nth(catalog.RegularDistributionPeriod, 0), {
      code: `AZ${year}`,
      is_bookable: year >= 2024 ? 1 : 0,
    });
    sink.add('distribution_periods', row);
    return row.id;
  });
  const priceIndices: number[] = [];
  const priceIndexValues: number[][] = [];
  for (const [n, code, note] of [
    [1, 'VPI2020', 'Verbraucherpreisindex für Deutschland (2020 = 100)'],
    [2, 'HVPI2015', 'Harmonisierter Verbraucherpreisindex (2015 = 100)'],
  ] as const) {
    const index = buildPriceIndex(sink.nextId(), n, { code, note });
    sink.add('price_indices', index);
    const values: number[] = [];
    let value = 92 + n * 3;
    for (let year = 2015; year <= 2025; year++) {
      for (let month = 1; month <= 12; month++) {
        value += rnd.next() * 0.6 - 0.1;
        const row = buildPriceIndexValue(sink.nextId(), values.length + 1, index.id, {
          index_value: value.toFixed(1),
          reference_date: `${year}-${String(month).padStart(2, '0')}-01`,
        });
        sink.add('price_index_values', row);
        values.push(row.id);
      }
    }
    priceIndices.push(index.id);
    priceIndexValues.push(values);
  }
  return { catalog, facilities, explanationGroups, periods, priceIndices, priceIndexValues };
}
