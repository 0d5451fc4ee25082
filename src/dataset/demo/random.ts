// A seeded pseudo-random generator (mulberry32) and the German names the demo data set is made of.
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 1;
  }

  /** [0, 1) */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return nth(items, Math.floor(this.next() * items.length));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A decimal with `digits` fraction digits in [min, max], as exact text. */
  decimal(min: number, max: number, digits = 2): string {
    const scale = 10 ** digits;
    const v = this.int(Math.round(min * scale), Math.round(max * scale));
    const sign = v < 0 ? '-' : '';
    const a = Math.abs(v);
    return digits ? `${sign}${Math.floor(a / scale)}.${String(a % scale).padStart(digits, '0')}` : `${sign}${a}`;
  }

  /** A date 'YYYY-MM-DD' in [fromYear, toYear], day 1..28. */
  date(fromYear: number, toYear: number): string {
    return `${this.int(fromYear, toYear)}-${String(this.int(1, 12)).padStart(2, '0')}-${String(this.int(1, 28)).padStart(2, '0')}`;
  }
}

export const STREETS = [
  'Hauptstraße',
  'Schulstraße',
  'Gartenstraße',
  'Bahnhofstraße',
  'Dorfstraße',
  'Bergstraße',
  'Birkenweg',
  'Lindenstraße',
  'Kirchstraße',
  'Waldstraße',
  'Ringstraße',
  'Schillerstraße',
  'Goethestraße',
  'Mühlenweg',
  'Am Sportplatz',
  'Rosenstraße',
  'Friedrichstraße',
  'Beethovenstraße',
  'Eichendorffstraße',
  'Am Rathaus',
  'Lessingstraße',
  'Blumenstraße',
  'Uhlandstraße',
  'Feldstraße',
];

export const PLACES = [
  ['Berlin', '10115'],
  ['Hamburg', '20095'],
  ['München', '80331'],
  ['Köln', '50667'],
  ['Frankfurt am Main', '60311'],
  ['Stuttgart', '70173'],
  ['Düsseldorf', '40213'],
  ['Leipzig', '04109'],
  ['Dortmund', '44135'],
  ['Essen', '45127'],
  ['Bremen', '28195'],
  ['Dresden', '01067'],
  ['Hannover', '30159'],
  ['Nürnberg', '90402'],
  ['Bochum', '44787'],
  ['Bielefeld', '33602'],
  ['Münster', '48143'],
  ['Kassel', '34117'],
] as const;

export const COMPANIES = [
  'Wohnbau Nord GmbH',
  'Stadtwohnen Süd eG',
  'Gemeinnützige Wohnungsbaugesellschaft West mbH',
  'Baugenossenschaft Ost eG',
  'Rheinische Wohnstätten AG',
  'Wohnungsgesellschaft Elbtal mbH',
  'Siedlungswerk Main GmbH',
  'Heimstatt Weser eG',
];

export const SURNAMES = [
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Koch',
  'Richter',
];

export const FLOORS = ['EG', '1. OG', '2. OG', '3. OG', '4. OG', 'DG'];
export const SIDES = ['links', 'Mitte', 'rechts'];

/** The item at `index`; a list shorter than the generator expects is a bug in the generator. */
export function nth<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`demo data: no item ${index} in a list of ${items.length}`);
  return item;
}
