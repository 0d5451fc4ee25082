// The one generic read path of every rent-accounting endpoint: an Endpoint descriptor says which rows, what
// else a page needs (one query per related table) and how a row looks on the wire; this module registers the
// route, answers pages, and streams version 1.0's complete lists.
import { Readable } from 'node:stream';
import { Type, type TProperties } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { App } from '../app-types.ts';
import type { Executor } from '../db/database.ts';
import type { LedgerScope } from '../auth/ledger-scope.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { WireObject, errorResponses } from '../http/schemas.ts';
import { stripNulls } from '../http/response.ts';
import { compileSerializers, type Serialize, type Serializers } from '../http/serializer.ts';
import { querySchema, type ApiVersion, type FilterName, type Filters, type ListQuery } from './params.ts';

/** Which rows of the filtered, Id-ordered list: after a known Id (keyset), then offset, then limit. */
export interface Window {
  afterId?: number;
  offset: number;
  limit: number;
}

/** How one endpoint reads: which rows, what else a page needs (one query per related table), how a row looks. */
export interface Reader<R extends { id: number }, L> {
  summary: string;
  description?: string;
  filters: FilterName[];
  /** Properties of the wire object (the response schema). */
  fields: TProperties;
  /** The rows of the window, filtered and scoped in the database, ordered by id. */
  rows(db: Executor, filters: Filters, scope: LedgerScope, window: Window): Promise<R[]>;
  /** What the presenter needs besides the rows, for all of them at once (one query per related table). */
  related(db: Executor, rows: R[]): Promise<L>;
  present(row: R, related: L): Record<string, unknown>;
}

/** A presented window of records, with the Id of its last row for the next keyset window. */
export interface WindowResult {
  items: Record<string, unknown>[];
  lastId: number | undefined;
}

/** A reader at its URL, its row types closed over (so readers of different rows fit in one list). */
export interface Endpoint {
  /** The path below the prefix, e.g. '/v1.2/RentAccounting/PriceIndex'. */
  url: string;
  version: ApiVersion;
  summary: string;
  description?: string;
  filters: FilterName[];
  fields: TProperties;
  read(db: Executor, filters: Filters, scope: LedgerScope, window: Window): Promise<WindowResult>;
}

/** The endpoint serving `reader` at `url` (its version is the one the URL names). */
export function endpoint<R extends { id: number }, L>(
  url: `/v${ApiVersion}/${string}`,
  reader: Reader<R, L>,
): Endpoint {
  const version = url.slice(2, 5) as ApiVersion;
  const { summary, description, filters, fields } = reader;
  return {
    url,
    version,
    summary,
    description,
    filters,
    fields,
    async read(db, f, scope, window) {
      const rows = await reader.rows(db, f, scope, window);
      if (rows.length === 0) return { items: [], lastId: undefined };
      const related = await reader.related(db, rows);
      return { items: rows.map((r) => reader.present(r, related)), lastId: rows[rows.length - 1]?.id };
    },
  };
}

export const DEFAULT_LIMIT = 20;
/** Rows per chunk of a streamed answer: one query for the rows and one per related table per chunk. */
export const STREAM_CHUNK = 500;

const JSON_TYPE = 'application/json; charset=utf-8';

/** The endpoint's own filters (unknown query parameters stay in the query unvalidated; they must not filter). */
function filtersOf(ep: Endpoint, q: ListQuery): Filters {
  const out: Record<string, unknown> = {};
  for (const name of ep.filters) if (q[name] !== undefined) out[name] = q[name];
  return out;
}

/** The complete list in chunks: the first chunk after `offset`, then keyset windows (id > last) of STREAM_CHUNK. */
async function* chunks(
  db: Executor,
  ep: Endpoint,
  q: ListQuery,
  scope: LedgerScope,
): AsyncGenerator<Record<string, unknown>[]> {
  const filters = filtersOf(ep, q);
  let window: Window = { offset: q.offset, limit: STREAM_CHUNK };
  while (true) {
    const { items, lastId } = await ep.read(db, filters, scope, window);
    if (items.length > 0) yield items;
    if (items.length < STREAM_CHUNK || lastId === undefined) return;
    window = { afterId: lastId, offset: 0, limit: STREAM_CHUNK };
  }
}

/** A JSON array written piece by piece: one string per chunk, nulls left out unless showNullValues; each item
 *  written by the endpoint's compiled serializer (src/http/serializer.ts), as the paged answers are. */
async function* jsonArray(
  first: IteratorResult<Record<string, unknown>[]>,
  rest: AsyncGenerator<Record<string, unknown>[]>,
  serialize: Serialize,
) {
  let separator = '[';
  let next = first;
  while (!next.done) {
    let text = '';
    for (const item of next.value) {
      text += separator + serialize(item);
      separator = ',';
    }
    yield text;
    next = await rest.next();
  }
  yield separator === '[' ? '[]' : ']';
}

/**
 * Streams the complete list with constant memory. The first chunk is read before the status is sent, so a failing
 * query still answers 500 with an error map; later chunks are read as the client consumes the body (backpressure).
 */
async function streamAll(reply: FastifyReply, db: Executor, ep: Endpoint, q: ListQuery, scope: LedgerScope) {
  const rest = chunks(db, ep, q, scope);
  const first = await rest.next();
  const s = itemSerializers(ep);
  const body = Readable.from(jsonArray(first, rest, q.showNullValues === true ? s.keep : s.omit), {
    objectMode: true,
    highWaterMark: 1,
  });
  return reply.type(JSON_TYPE).send(body);
}

const serializers = new WeakMap<Endpoint, Serializers>();

/** The compiled serializers of one record of the endpoint (or, if its shape does not compile, the generic ones). */
function itemSerializers(ep: Endpoint): Serializers {
  let s = serializers.get(ep);
  if (!s) {
    s = compileSerializers(WireObject(ep.fields)) ?? {
      keep: (item) => JSON.stringify(item),
      omit: (item) => JSON.stringify(stripNulls(item)),
    };
    serializers.set(ep, s);
  }
  return s;
}

function describe(ep: Endpoint): string {
  const paging =
    ep.version === '1.0'
      ? 'Without `limit` the complete list is returned (streamed); with `limit` (1..100) and `offset` one page. '
      : 'Paged with `limit` (1..100, default 20) and `offset`. ';
  return `${ep.description ?? ep.summary} ${paging}Ordered by Id. Null properties are left out unless showNullValues=true.`;
}

export function registerEndpoint(app: App, ep: Endpoint): void {
  app.route({
    method: 'GET',
    url: ep.url,
    config: { auth: { permissions: [PERMISSIONS.rentAccountingRead], apiKey: 'optional' }, cache: true },
    schema: {
      tags: ['RentAccounting'],
      summary: ep.summary,
      description: describe(ep),
      querystring: querySchema(ep.version, ep.filters),
      response: { 200: Type.Array(WireObject(ep.fields)), ...errorResponses },
    },
    handler: async (request, reply) => {
      const q = request.query as unknown as ListQuery;
      if (ep.version === '1.0' && q.limit === undefined) return streamAll(reply, app.db, ep, q, request.scope);
      const { items } = await ep.read(app.db, filtersOf(ep, q), request.scope, {
        offset: q.offset,
        limit: q.limit ?? DEFAULT_LIMIT,
      });
      return items;
    },
  });
}
