// The persisted read model of AllocationGroupBases (migration 2026112401; docs/performance.md, "The read model"):
// per base the JSON pieces of its wire form in both null modes — the text around the five include arrays, and each
// array — made by the live path's own presenter and compiled serializer, so that splicing them per request gives
// the live answer byte for byte. A page is then one statement: the ids of the filters (indexed, ledger-scoped, as
// the live query), the pieces of those ids, and the freshness of the read model, all from one snapshot.
// Fresh = no source row changed since the last rebuild (triggers of the migration mark it stale in the writing
// transaction) and built for this wire format. Otherwise the caller answers with the live path.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { isPostgres, type Executor } from '../db/database.ts';
import { BulkWriter } from '../db/bulk.ts';
import { ALL_LEDGERS, scopeOf, scopeValues, type LedgerScope } from '../auth/ledger-scope.ts';
import { compileSerializers, type Serializers } from '../http/serializer.ts';
import { headerConditions, listAllocationGroupBases, type GroupFilters, type Page } from './queries.ts';
import { containsPattern } from './search.ts';
import { fixedQueries, fixedQueryByShape } from '../db/fixed-query.ts';
import { loadBaseChildren, type Includes } from './children.ts';
import { presentAllocationGroupBase } from './presenters.ts';
import { AllocationGroupBase } from './schemas.ts';
import type { AllocationGroupBaseFragmentsTable } from './tables.ts';
import { idsAscending, stateGroupBy } from '../db/joined-order.ts';

const NAME = 'allocation_group_bases';

/** Bump the leading number whenever the presenter's output changes without the schema changing. */
export const FORMAT = `2:${crypto.createHash('sha256').update(JSON.stringify(AllocationGroupBase)).digest('hex').slice(0, 16)}`;

type Wire = ReturnType<typeof presentAllocationGroupBase>;
type ArrayColumn = 'use_units' | 'group_explanations' | 'combined_explanations' | 'cost_types' | 'option_taxes';

/** The sub-schema at a property path of AllocationGroupBase (nullable wrappers keep `properties`). */
function schemaAt(...path: string[]): object {
  let schema: unknown = AllocationGroupBase;
  for (const key of path) schema = (schema as { properties: Record<string, unknown> }).properties[key];
  if (typeof schema !== 'object' || schema === null) throw new Error(`read model: no schema at ${path.join('.')}`);
  return schema;
}

interface ArrayPiece {
  column: ArrayColumn;
  /** The wire property (its key, as written before the array). */
  key: string;
  flag: keyof Includes;
  get(w: Wire): unknown[] | null;
  serializers: Serializers;
}

const compiled = (schema: object): Serializers => {
  const s = compileSerializers(schema);
  if (!s) throw new Error('read model: a schema of AllocationGroupBase does not compile');
  return s;
};

/** The include arrays in wire order (the order of the schema's properties). */
const ARRAYS: ArrayPiece[] = [
  {
    column: 'use_units',
    key: 'UseUnits',
    flag: 'useUnits',
    get: (w) => w.AllocationGroup.UseUnits,
    serializers: compiled(schemaAt('AllocationGroup', 'UseUnits')),
  },
  {
    column: 'group_explanations',
    key: 'Explanations',
    flag: 'explanations',
    get: (w) => w.AllocationGroup.Explanations,
    serializers: compiled(schemaAt('AllocationGroup', 'Explanations')),
  },
  {
    column: 'combined_explanations',
    key: 'Explanations',
    flag: 'explanations',
    get: (w) => w.CombinedAllocationGroup.Explanations,
    serializers: compiled(schemaAt('CombinedAllocationGroup', 'Explanations')),
  },
  {
    column: 'cost_types',
    key: 'AllocationGroupCostTypes',
    flag: 'costTypes',
    get: (w) => w.AllocationGroupCostTypes,
    serializers: compiled(schemaAt('AllocationGroupCostTypes')),
  },
  {
    column: 'option_taxes',
    key: 'OptionTaxes',
    flag: 'optionTaxes',
    get: (w) => w.OptionTaxes,
    serializers: compiled(schemaAt('OptionTaxes')),
  },
];

const BASE = compiled(AllocationGroupBase);

/** The columns of a base's stored pieces, in the order the rebuild inserts them. */
const FRAGMENT_COLUMNS: Array<keyof AllocationGroupBaseFragmentsTable> = [
  'id',
  'head',
  'head_k',
  'middle',
  'middle_k',
  'complete',
  ...ARRAYS.flatMap((a) => [a.column, `${a.column}_k` as const]),
];

/**
 * The wire form with every include array empty is `head A1 '' A2 middle A3 '}' A4 '' A5 '}'`, where Ai is
 * `,"<key>":[]`: the text between the arrays other than head and middle is fixed by the schema's property order
 * (checked on every fragment, so a schema change that breaks the splice fails the rebuild and its tests).
 */
const FIXED = ['', '}', '', '}'];

/** How a base's JSON is put together from its pieces, in order: head and middle, an include array (its index in
 * ARRAYS, written `,"<key>":<array>`), fixed text. The one layout of both the SQL (rowExpression) and `complete`. */
const LAYOUT: Array<'head' | 'middle' | number | { text: string }> = [
  'head',
  0,
  1,
  'middle',
  2,
  { text: '}' },
  3,
  4,
  { text: '}' },
];

function skeleton(w: Wire): Wire {
  return {
    ...w,
    AllocationGroup: { ...w.AllocationGroup, UseUnits: [], Explanations: [] },
    CombinedAllocationGroup: { ...w.CombinedAllocationGroup, Explanations: [] },
    AllocationGroupCostTypes: [],
    OptionTaxes: [],
  };
}

/** head and middle of the skeleton's JSON. */
function split(json: string): { head: string; middle: string } {
  const segments: string[] = [];
  let from = 0;
  for (const a of ARRAYS) {
    const marker = `,${JSON.stringify(a.key)}:[]`;
    const at = json.indexOf(marker, from);
    if (at < 0) throw new Error(`read model: ${a.key} not found in the wire form`);
    segments.push(json.slice(from, at));
    from = at + marker.length;
  }
  segments.push(json.slice(from));
  const [head = '', , middle = ''] = segments;
  const fixed = [segments[1], segments[3], segments[4], segments[5]];
  if (fixed.some((s, i) => s !== FIXED[i])) throw new Error('read model: unexpected wire form (schema changed?)');
  return { head, middle };
}

/** The stored pieces of one presented base (with every include array). */
export function fragmentsOf(w: Wire): AllocationGroupBaseFragmentsTable {
  const sk = skeleton(w);
  const omit = split(BASE.omit(sk));
  const keep = split(BASE.keep(sk));
  const row = {
    id: w.Id,
    head: omit.head,
    head_k: keep.head === omit.head ? null : keep.head,
    middle: omit.middle,
    middle_k: keep.middle === omit.middle ? null : keep.middle,
  } as AllocationGroupBaseFragmentsTable;
  for (const a of ARRAYS) {
    const value = a.get(w);
    const o = a.serializers.omit(value);
    const k = a.serializers.keep(value);
    row[a.column] = o;
    row[`${a.column}_k`] = k === o ? null : k;
  }
  // the common page's text: the pieces spliced as the SQL splices them (serializing the base once more took a third
  // of the rebuild's serializing; the read-model tests compare every variant with the live path byte for byte)
  row.complete = LAYOUT.map((part) =>
    typeof part === 'number'
      ? `,${JSON.stringify(ARRAYS[part]?.key)}:${row[ARRAYS[part]?.column as ArrayColumn]}`
      : typeof part === 'string'
        ? row[part]
        : part.text,
  ).join('');
  return row;
}

/** SQL of one base's JSON for a null mode and include flags (fixed text only: no input reaches it). */
const expressions = new Map<string, string>();
function rowExpression(keep: boolean, inc: Includes): string {
  const id = `${keep}|${inc.useUnits}|${inc.costTypes}|${inc.explanations}|${inc.optionTaxes}`;
  let e = expressions.get(id);
  if (e === undefined && !keep && inc.useUnits && inc.costTypes && inc.explanations && inc.optionTaxes) {
    // the common request (everything, nulls omitted) has its own column: no splice
    e = 'f.complete';
    expressions.set(id, e);
  }
  if (e === undefined) {
    const col = (c: string) => (keep ? `coalesce(f.${c}_k, f.${c})` : `f.${c}`);
    const array = (a: ArrayPiece) => {
      const prefix = `,${JSON.stringify(a.key)}:`;
      if (inc[a.flag]) return `'${prefix}' || ${col(a.column)}`;
      return keep ? `'${prefix}null'` : undefined;
    };
    const parts = LAYOUT.map((part) =>
      typeof part === 'number'
        ? array(ARRAYS[part] as ArrayPiece)
        : typeof part === 'string'
          ? col(part)
          : `'${part.text}'`,
    );
    e = parts.filter((p) => p !== undefined).join(' || ');
    expressions.set(id, e);
  }
  return e;
}

interface PageRow {
  stale: number | boolean;
  format: string;
  ids: number | string;
  found: number | string;
  /** SQLite: the ids in the order their pieces were joined (checked; see below). */
  order: string | null;
  json: Buffer | string;
}

/** The values of a page statement: the filters given, the visible ledgers (s0, s1, ...) and the window. */
type PageValues = Record<string, unknown>;

function pageValues(f: GroupFilters, scope: LedgerScope, page: Page): PageValues {
  return {
    id: f.id,
    code: f.code === '' ? undefined : f.code,
    ownerId: f.ownerId,
    companyCodeId: f.companyCodeId,
    distributionPeriodId: f.distributionPeriodId,
    prepaymentBlockId: f.prepaymentBlockId,
    like: f.searchPattern ? containsPattern(f.searchPattern) : undefined,
    ...scopeValues(scope),
    limit: page.limit,
    offset: page.offset,
    format: FORMAT,
    name: NAME,
  };
}

/**
 * The statement of a page: the state row, the page's ids (headerConditions: the live query's filters and ledger
 * scope) and their pieces joined into the page's text, all from one snapshot. Built by Kysely once per shape of the
 * values (src/db/fixed-query.ts), one family per row expression (null mode and includes) and `sorted`.
 * SQLite feeds the aggregate in the order of the ids subquery, but does not promise it: the statement also returns
 * the ids in the order it joined them, and only if that is not ascending does it run again with ORDER BY (`sorted`,
 * which sorts the pieces, ~0.5 ms a page).
 */
const pageQuery = fixedQueries(
  ({ expression, sorted }: { expression: string; sorted: boolean }) =>
    fixedQueryByShape<PageValues, PageRow>((db, v) => {
      const where = sql.join(
        headerConditions(db, 'b', v as GroupFilters, scopeOf(v), v.like as string | undefined),
        sql` and `,
      );
      const expr = sql.raw(expression);
      const joined = isPostgres(db)
        ? sql`null as "order", '[' || coalesce(string_agg(${expr}, ',' order by p.id), '') || ']'`
        : sorted
          ? sql`null as "order", cast('[' || coalesce(group_concat(${expr}, ',' order by p.id), '') || ']' as blob)`
          : sql`group_concat(p.id) as "order", cast('[' || coalesce(group_concat(${expr}, ','), '') || ']' as blob)`;
      return sql<PageRow>`select s.stale, s.format, count(p.id) as ids, count(f.id) as found, ${joined} as json
    from read_model_state s
    left join (select b.id from allocation_group_bases b where ${where} order by b.id limit ${v.limit} offset ${v.offset}) p
      on s.stale = 0 and s.format = ${v.format}
    left join allocation_group_base_fragments f on f.id = p.id
    where s.name = ${v.name}${stateGroupBy(db)}`;
    }),
  ({ expression, sorted }) => `${expression}|${sorted}`,
);

/**
 * The JSON text of a page of AllocationGroupBases (the same filters, scope and paging as listAllocationGroupBases)
 * from the read model, or undefined when the read model is not fresh (the caller then answers with the live path).
 * One statement reads the state row, the page's ids and their pieces (one snapshot) and joins the pieces into the
 * page's text in the database; on SQLite as a blob, so the UTF-8 bytes reach the socket without passing through a
 * JavaScript string.
 */
export async function readBasePage(
  db: Executor,
  f: GroupFilters,
  scope: LedgerScope,
  page: Page,
  inc: Includes,
  keepNulls: boolean,
  sorted = false,
): Promise<Buffer | string | undefined> {
  const rows = await pageQuery({ expression: rowExpression(keepNulls, inc), sorted }).rows(
    db,
    pageValues(f, scope, page),
  );
  const row = rows[0];
  if (!row || Number(row.stale) !== 0 || row.format !== FORMAT) return undefined;
  // a base without pieces is never expected while fresh; the live path would still answer it right
  if (Number(row.found) !== Number(row.ids)) return undefined;
  if (!idsAscending(row.order)) return readBasePage(db, f, scope, page, inc, keepNulls, true);
  return row.json;
}

/** Whether the read model is fresh for this wire format. */
export async function readModelFresh(db: Executor): Promise<boolean> {
  const row = await db
    .selectFrom('read_model_state')
    .select(['stale', 'format'])
    .where('name', '=', NAME)
    .executeTakeFirst();
  return row !== undefined && Number(row.stale) === 0 && row.format === FORMAT;
}

const ALL_INCLUDES: Includes = { useUnits: true, costTypes: true, explanations: true, optionTaxes: true };
const BATCH = 500;

/**
 * Rebuilds the read model from the current data and marks it fresh, in the caller's transaction (or its own). Its
 * first statement locks the state row, so on PostgreSQL every writer of a source table (whose trigger updates that
 * row) is ordered before or after the rebuild: nothing commits in between unseen. Returns the number of bases.
 */
export async function rebuildReadModel(db: Executor): Promise<number> {
  if (!db.isTransaction) return db.transaction().execute((trx) => rebuildReadModel(trx));
  await db.updateTable('read_model_state').set({ stale: 1 }).where('name', '=', NAME).execute();
  await db.deleteFrom('allocation_group_base_fragments').execute();
  const bulk = new BulkWriter(db, { dialect: isPostgres(db) ? 'postgres' : 'sqlite' });
  let count = 0;
  for (let offset = 0; ; offset += BATCH) {
    const rows = await listAllocationGroupBases(db, {}, ALL_LEDGERS, { limit: BATCH, offset });
    if (rows.length === 0) break;
    const children = await loadBaseChildren(db, rows, ALL_INCLUDES);
    const fragments = rows.map((row) => fragmentsOf(presentAllocationGroupBase(row, children)));
    await bulk.insertObjects('allocation_group_base_fragments', FRAGMENT_COLUMNS, fragments);
    count += rows.length;
    if (rows.length < BATCH) break;
  }
  await db.updateTable('read_model_state').set({ stale: 0, format: FORMAT }).where('name', '=', NAME).execute();
  return count;
}
