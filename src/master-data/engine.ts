// The one read path of every master-data endpoint: a MasterRoute says which parameters it takes, how it lists (paged,
// version 1.0 with the complete list when limit is absent, a whole catalogue, or one record by path id), which keys
// stay present as null (decisions §7), and how it reads a window of presented records (filtered and ledger-scoped in
// the database, ordered by Id).
import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { App } from '../app-types.ts';
import type { Executor } from '../db/database.ts';
import type { LedgerScope } from '../auth/ledger-scope.ts';
import type { Permission } from '../auth/permissions.ts';
import { errorResponses, Int32 } from '../http/schemas.ts';
import { notFound } from '../http/errors.ts';
import { compileSerializer, type Serialize } from '../http/serializer.ts';
import { queryOf, querySchema, type Listing, type ParamName, type Query } from './params.ts';
import { schemaOf, type ShapeObject } from './shapes.ts';

export interface Window {
  afterId?: number;
  offset: number;
  limit: number;
}

export interface ReadContext {
  db: Executor;
  q: Query;
  scope: LedgerScope;
  /** The caller's permissions (a record may show some of its parts only with a further one). */
  permissions: ReadonlySet<Permission>;
  window: Window;
  /** The path id of a single-record route, or the value of the route's `pathId` parameter. */
  id?: number;
}

export type Item = Record<string, unknown>;

export interface MasterRoute {
  url: `/v1.${0 | 1 | 2}/${string}`;
  tag: string;
  summary: string;
  permissions: Permission[];
  params: readonly ParamName[];
  listing: Listing;
  shape: ShapeObject;
  /** Keys present as null even without showNullValues=true ('all': every key, as version 1.0 records carry). */
  keep: ReadonlySet<string> | 'all';
  read(ctx: ReadContext): Promise<Item[]>;
  /** A list below one record, `url` containing `:<pathId>` (Loans/Loan/:loanId/RepaymentPlan): its value is ctx.id. */
  pathId?: string;
  /** With `pathId`: whether that record exists within the caller's ledgers (else 404, decisions §3). */
  parentVisible?(ctx: ReadContext): Promise<boolean>;
}

/** Removes null properties at every depth, except keys in `keep`. */
export function prune(value: unknown, keep: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) {
    for (const v of value as unknown[]) if (v !== null && typeof v === 'object') prune(v, keep);
  } else if (value !== null && typeof value === 'object') {
    const obj = value as Item;
    for (const k in obj) {
      const v = obj[k];
      if (v === null) {
        if (!keep.has(k)) delete obj[k];
      } else if (typeof v === 'object') prune(v, keep);
    }
  }
  return value;
}

const DEFAULT_LIMIT = 20;
const CHUNK = 500;
const WHOLE = 100_000;

function present(route: MasterRoute, items: Item[], showNulls: boolean): Item[] {
  if (showNulls || route.keep === 'all') return items;
  for (const item of items) prune(item, route.keep);
  return items;
}

/**
 * The complete version 1.0 list, read in keyset chunks and written piece by piece by `write`: the same compiled
 * serializer and null handling a page of the route uses, so the list is its pages' records byte for byte (decimals
 * as the exact numbers they are stored as, not as text).
 */
async function* completeList(
  route: MasterRoute,
  ctx: Omit<ReadContext, 'window'>,
  offset: number,
  showNulls: boolean,
  write: Serialize,
) {
  let window: Window = { offset, limit: CHUNK };
  let separator = '[';
  while (true) {
    const items = await route.read({ ...ctx, window });
    const last = items[items.length - 1]?.Id;
    let text = '';
    for (const item of present(route, items, showNulls)) {
      text += separator + write(item);
      separator = ',';
    }
    if (text) yield text;
    if (items.length < CHUNK || typeof last !== 'number') break;
    window = { afterId: last, offset: 0, limit: CHUNK };
  }
  yield separator === '[' ? '[]' : ']';
}

export function registerMasterRoute(app: App, route: MasterRoute): void {
  const item = schemaOf(route.shape);
  // A page's records are written by the compiled serializer of its response schema (pipeline step 8, keepNulls);
  // the complete v1.0 list writes each record with the one of the item schema, which is the same code per record.
  const writeItem = route.listing === 'v1.0' ? compileSerializer(item, false) : undefined;
  if (route.listing === 'v1.0' && !writeItem)
    throw new Error(`${route.url}: the record schema does not compile to a serializer (src/http/serializer.ts)`);
  app.route({
    method: 'GET',
    url: route.listing === 'single' ? `${route.url}/:id` : route.url,
    config: { auth: { permissions: route.permissions, apiKey: 'optional' }, cache: true, keepNulls: true },
    schema: {
      tags: [route.tag],
      summary: route.summary,
      description: `${route.summary}. ${describe(route.listing)} ${
        route.listing === 'v1.0'
          ? 'Null properties are present as null; showNullValues is accepted and changes nothing (docs/master-data.md).'
          : 'Null properties are left out unless showNullValues=true, except the keys clients need (docs/master-data.md).'
      }`,
      // any int32 (0 and negatives name no record: 404, decisions §3); what is not one is a 400
      ...(route.listing === 'single' ? { params: Type.Object({ id: Int32() }) } : {}),
      ...(route.pathId ? { params: Type.Object({ [route.pathId]: Int32() }) } : {}),
      querystring: querySchema(route.listing, route.params),
      response: { 200: route.listing === 'single' ? item : Type.Array(item), ...errorResponses },
    },
    handler: async (request, reply) => {
      const raw = request.query as Record<string, unknown>;
      const ctx = {
        db: app.db,
        q: queryOf(route.params, raw),
        scope: request.scope,
        permissions: request.principal?.permissions ?? new Set<Permission>(),
        ...(route.pathId ? { id: (request.params as Record<string, number>)[route.pathId] } : {}),
      };
      const showNulls = raw.showNullValues === true;
      const offset = typeof raw.offset === 'number' ? raw.offset : 0;
      const limit = typeof raw.limit === 'number' ? raw.limit : undefined;
      if (route.listing === 'single') {
        const id = (request.params as { id: number }).id;
        const [found] = await route.read({ ...ctx, id, window: { offset: 0, limit: 1 } });
        if (!found) throw notFound('id', `No record with Id ${id}.`);
        return present(route, [found], showNulls)[0];
      }
      if (route.listing === 'catalogue')
        return present(route, await route.read({ ...ctx, window: { offset: 0, limit: WHOLE } }), showNulls);
      if (route.listing === 'v1.0' && limit === undefined && writeItem)
        return reply.type('application/json; charset=utf-8').send(
          Readable.from(completeList(route, ctx, offset, showNulls, writeItem), {
            objectMode: true,
            highWaterMark: 1,
          }),
        );
      const window = { offset, limit: limit ?? DEFAULT_LIMIT };
      const items = await route.read({ ...ctx, window });
      // an empty list below a record that does not exist (or is outside the caller's ledgers) is a 404
      if (items.length === 0 && route.pathId && route.parentVisible && !(await route.parentVisible({ ...ctx, window })))
        throw notFound(route.pathId, `No record with Id ${String(ctx.id)}.`);
      return present(route, items, showNulls);
    },
  });
}

function describe(listing: Listing): string {
  switch (listing) {
    case 'paged':
      return 'Paged with `limit` (1..100, default 20) and `offset`, ordered by Id.';
    case 'v1.0':
      return 'Without `limit` the complete list; with `limit` (1..100) and `offset` one page; ordered by Id. Every key is present.';
    case 'catalogue':
      return 'The whole catalogue (`limit` and `offset` are accepted and ignored).';
    case 'single':
      return 'One record by its Id; 404 when unknown or outside the visible ledgers.';
  }
}
