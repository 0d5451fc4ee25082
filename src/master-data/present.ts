// Conversions shared by the master-data presenters: catalogue entries (vendor ids per kind) loaded for a page in
// one query, references as {Id, Name} / {Id, Code}, estate addresses, the ledger reference, person visibility.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { LedgerScope } from '../auth/ledger-scope.ts';
import { bool } from '../http/present.ts';
import type { CatalogEntriesTable } from './tables.ts';

export type Entry = Omit<CatalogEntriesTable, 'kind'> & { kind: string };

/** The catalogue entries of a page, by row id. */
export class Entries {
  constructor(private readonly byId: Map<number, Entry>) {}

  static async load(db: Executor, ids: Iterable<number | null | undefined>): Promise<Entries> {
    const wanted = [...new Set([...ids].filter((id): id is number => typeof id === 'number'))];
    const rows = wanted.length
      ? await db.selectFrom('catalog_entries').selectAll().where('id', 'in', wanted).execute()
      : [];
    return new Entries(new Map(rows.map((r) => [r.id, r])));
  }

  get(id: number | null | undefined): Entry | undefined {
    return id === null || id === undefined ? undefined : this.byId.get(id);
  }
  /** {Id, Name} with the vendor's id, or null. */
  idName(id: number | null | undefined) {
    const e = this.get(id);
    return e ? { Id: e.kind_id, Name: e.name } : null;
  }
  /** {Id, Code}, or null. */
  idCode(id: number | null | undefined) {
    const e = this.get(id);
    return e ? { Id: e.kind_id, Code: e.code } : null;
  }
  /** {Id, Name, Code}, or null (Country, Nationality). */
  named(id: number | null | undefined) {
    const e = this.get(id);
    return e ? { Id: e.kind_id, Name: e.name, Code: e.code } : null;
  }
}

/** Every value of the given columns of the rows (catalogue ids to load). */
export function idsOf<R>(rows: readonly R[], columns: readonly (keyof R)[]): number[] {
  const out: number[] = [];
  for (const r of rows) for (const c of columns) if (typeof r[c] === 'number') out.push(r[c]);
  return out;
}

interface AddressColumns {
  zip: string | null;
  town: string | null;
  street: string | null;
  house_number: string | null;
  house_number_addition: string | null;
  country_id: number | null;
}

// The spec marks both never null (vendor-master-data.md §1.4): an address without a house number or street has them
// as empty text, not null.
export const houseNumberComplete = (a: AddressColumns): string =>
  a.house_number === null ? '' : `${a.house_number}${a.house_number_addition ?? ''}`;
export const streetComplete = (a: AddressColumns): string =>
  [a.street ?? '', houseNumberComplete(a)].filter((x) => x !== '').join(' ');

export function estateAddress(a: AddressColumns, e: Entries) {
  const country = e.get(a.country_id);
  return {
    Zip: a.zip,
    Town: a.town,
    Street: a.street,
    HouseNumber: a.house_number,
    HouseNumberAddition: a.house_number_addition,
    CountryId: country?.kind_id ?? null,
    CountryCode: country?.code ?? null,
    StreetComplete: streetComplete(a),
    HouseNumberComplete: houseNumberComplete(a),
  };
}

export const companyCode = (id: number, name: string | null, code: string | null) => ({
  Id: id,
  Name: name,
  Code: code,
  ArgeCode: null,
});

export const flag = bool;

/** `column IN (ids)` for a list of ids (1 = 0 for none). */
export function inList(column: Expression<number | null>, ids: readonly number[]): Expression<SqlBool> {
  return ids.length ? sql<SqlBool>`${column} in (${sql.join(ids)})` : sql<SqlBool>`1 = 0`;
}

/**
 * Where a person is linked to a ledger: as contractor, owner, management (through the management's ledgers),
 * responsible official (through jurisdictions), or lender or borrower of a loan. `person` and `ledger` are columns
 * of `from`. The one list behind personVisible (reads) and personLedgers (webhook events of persons).
 */
const PERSON_LINKS: ReadonlyArray<{ from: string; person: string; ledger: string }> = [
  { from: 'contractors', person: 'person_id', ledger: 'company_code_id' },
  { from: 'owners', person: 'person_id', ledger: 'company_code_id' },
  {
    from: 'managements m join management_company_codes mc on mc.management_id = m.id',
    person: 'm.person_id',
    ledger: 'mc.company_code_id',
  },
  {
    from: 'responsible_officials o join jurisdictions j on j.responsible_official_id = o.id',
    person: 'o.person_id',
    ledger: 'j.company_code_id',
  },
  { from: 'loans', person: 'lender_id', ledger: 'company_code_id' },
  { from: 'loans', person: 'borrower_id', ledger: 'company_code_id' },
];

/** A person is visible to a scope that can see one of the ledgers it is linked to; an all-ledgers scope sees all. */
export function personVisible(column: Expression<number>, scope: LedgerScope): Expression<SqlBool> {
  if (scope.all) return sql<SqlBool>`1 = 1`;
  if (scope.ids.length === 0) return sql<SqlBool>`1 = 0`;
  const ids = sql.join(scope.ids);
  const links = PERSON_LINKS.map(
    (l) =>
      sql`${column} in (select ${sql.raw(l.person)} from ${sql.raw(l.from)} where ${sql.raw(l.ledger)} in (${ids}))`,
  );
  return sql<SqlBool>`(${sql.join(links, sql` or `)})`;
}

/** The ledgers each of these persons is linked to (see PERSON_LINKS); a person without links is absent. */
export async function personLedgers(db: Executor, personIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (personIds.length === 0) return out;
  const ids = sql.join([...new Set(personIds)]);
  const parts = PERSON_LINKS.map(
    (l) =>
      sql`select ${sql.raw(l.person)} as person_id, ${sql.raw(l.ledger)} as company_code_id from ${sql.raw(l.from)} where ${sql.raw(l.person)} in (${ids})`,
  );
  const { rows } = await sql<{ person_id: number; company_code_id: number }>`${sql.join(parts, sql` union `)}`.execute(
    db,
  );
  for (const r of rows) {
    const list = out.get(Number(r.person_id)) ?? [];
    list.push(Number(r.company_code_id));
    out.set(Number(r.person_id), list);
  }
  return out;
}

/** Records active on `day` (from <= day and (to is null or to >= day)). */
export function activeOn(from: Expression<string | null>, to: Expression<string | null>, day: string) {
  return sql<SqlBool>`(${from} <= ${day} and (${to} is null or ${to} >= ${day}))`;
}
