// Shared pieces of the factories: deterministic ids, the generic insert, catalogue codes and other small references.
import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { CatalogKind } from '../../master-data/tables.ts';
import type { DB } from '../../db/schema.ts';

export type Table = keyof DB;
export type Row<T extends Table> = Selectable<DB[T]>;
export type New<T extends Table> = Insertable<DB[T]>;
export type Overrides<T extends Table> = Partial<New<T>>;

const FIRST_ID = 100_000;
let lastId = FIRST_ID - 1;
const sequences = new Map<string, number>();

/** The next id for a domain row (ids are given by the data, so the factories hand them out). */
export function nextId(): number {
  return ++lastId;
}

/** 1, 2, 3, ... per name: for numbers and codes that read naturally ('1001', 'AG-3'). */
export function seq(name: string): number {
  const n = (sequences.get(name) ?? 0) + 1;
  sequences.set(name, n);
  return n;
}

/** Restarts ids and sequences, so a generator run from a fresh process state produces the same data. */
export function resetFactoryIds(firstId = FIRST_ID): void {
  lastId = firstId - 1;
  sequences.clear();
}

/** Inserts one row and returns it as stored. */
export async function insertRow<T extends Table>(db: Executor, table: T, row: New<T>): Promise<Row<T>> {
  return db.insertInto(table).values(row).returningAll().executeTakeFirstOrThrow();
}

/** Inserts rows in one statement (no-op for none). */
export async function insertRows<T extends Table>(db: Executor, table: T, rows: New<T>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto(table).values(rows).execute();
}

type Parent = 'economic_units' | 'buildings' | 'use_units' | 'license_agreements' | 'owners' | 'allocation_groups';

/** The row with this id, if there is one (factories resolve parents' ledgers and numbers with it). */
export async function findRow<T extends Parent>(db: Executor, table: T, id: number): Promise<Row<T> | undefined> {
  // Kysely cannot build a query on a table that is a type parameter: the query is built for any parent table,
  // and its row is the row of table T.
  const parent: Parent = table;
  const row = await db.selectFrom(parent).selectAll().where('id', '=', id).executeTakeFirst();
  return row as Row<T> | undefined;
}

/** The row with this id, or an error naming it. */
export async function getRow<T extends Parent>(db: Executor, table: T, id: number): Promise<Row<T>> {
  const row = await findRow(db, table, id);
  if (!row) throw new Error(`factories: ${table} ${id} does not exist`);
  return row;
}

export async function insertCompanyCode(
  db: Executor,
  o: Overrides<'company_codes'> = {},
): Promise<Row<'company_codes'>> {
  const id = o.id ?? nextId();
  const n = seq('company_code');
  return insertRow(db, 'company_codes', { id, code: String(n).padStart(4, '0'), name: `Ledger ${n}`, ...o });
}

/** The catalogue kinds whose wire Ref carries a ShortCode ({Id, Name, ShortCode} or {Id, Code, ShortCode}). */
export const SHORT_CODE_KINDS: readonly CatalogKind[] = [
  'DistributionCostType',
  'StandardDistributionKey',
  'ContractPositionType',
  'CalculationBase',
];

/** A catalogue code of one kind; kind-specific extras (short code, ArgeCode, NodeId, charge-type flags) filled. */
export function buildCatalogCode(kind: CatalogKind, o: Overrides<'catalog_codes'> = {}): New<'catalog_codes'> {
  const n = seq(`catalog:${kind}`);
  return {
    id: o.id ?? nextId(),
    kind,
    code: `${kind.replace(/[a-z]/g, '')}${n}`,
    name: `${kind} ${n}`,
    short_code: SHORT_CODE_KINDS.includes(kind) ? `S${n}` : null,
    node_id: kind === 'ReasonOfWaiver' ? 10 + n : null,
    arge_code: kind === 'BillingUnitValue' ? `ARGE${n}` : null,
    ...(kind === 'DistributionSpecialChargeType'
      ? {
          is_fix_costs_per_distribution_key_unit: n % 2,
          is_percent_of_contract_position: 1 - (n % 2),
          is_upper_limit: 0,
        }
      : {}),
    ...o,
  };
}

export async function insertCatalogCode(
  db: Executor,
  kind: CatalogKind,
  o: Overrides<'catalog_codes'> = {},
): Promise<Row<'catalog_codes'>> {
  return insertRow(db, 'catalog_codes', buildCatalogCode(kind, o));
}

/** `given` if set (null stays null), else the lowest-id code of the kind, created when the kind is empty. */
export async function catalogId(db: Executor, kind: CatalogKind, given?: number | null): Promise<number> {
  if (given !== undefined && given !== null) return given;
  const row = await db
    .selectFrom('catalog_codes')
    .select('id')
    .where('kind', '=', kind)
    .orderBy('id')
    .executeTakeFirst();
  return row?.id ?? (await insertCatalogCode(db, kind)).id;
}

export async function insertFacility(db: Executor, o: Overrides<'facilities'> = {}): Promise<Row<'facilities'>> {
  return insertRow(db, 'facilities', { id: o.id ?? nextId(), name: `Boiler house ${seq('facility')}`, ...o });
}

export async function insertExplanationGroup(
  db: Executor,
  o: Overrides<'explanation_groups'> = {},
): Promise<Row<'explanation_groups'>> {
  return insertRow(db, 'explanation_groups', { id: o.id ?? nextId(), name: `Notes ${seq('explanation_group')}`, ...o });
}

/** The id of the lowest-id row of a shared table, created with `create` when the table is empty. */
export async function firstOr(
  db: Executor,
  table: 'facilities' | 'explanation_groups' | 'distribution_periods' | 'price_indices',
  create: () => Promise<{ id: number }>,
): Promise<number> {
  const row = await db.selectFrom(table).select('id').orderBy('id').executeTakeFirst();
  return row?.id ?? (await create()).id;
}
