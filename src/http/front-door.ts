// The front door: a request that repeats one the pipeline has just answered from the page cache (same URL, same
// Authorization header, same Accept header) is answered from that cache before Fastify sees it, when every check
// the pipeline made still holds: the same auth version (no change to users, grants, tokens or keys since, in any
// process), the token not expired since, and a cached page for the current data version. Anything else — another
// URL, a stale page, a changed credential, a request with a body — goes to Fastify as before, which answers and
// remembers it again. The answer is the pipeline's hit byte for byte (status, body, headers in the same order, the
// request id rule of step 1), it is counted in the same metrics and logged with the same two lines.
// Why: a hit through Fastify's routing, query validation and hooks cost ~0.9 ms of server CPU against ~0.35 ms
// for node's bare HTTP sending the same bytes (docs/performance.md, "The front door").
// Pages at other offsets: a route whose page is one function of its offset (`offerPages`: AllocationGroupBases and
// the rent-accounting pages) lets the front door also answer the same URL with only the `offset` value changed
// (a client paging through a collection), under the same checks: the page comes from the cache, or from that
// function, read after the data version as the route's handler reads it, stored in the cache and sent with the
// pipeline's miss headers. The function gives nothing (the read model is not fresh) or fails: Fastify answers.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Database } from '../db/database.ts';
import type { PageCache } from './page-cache.ts';
import { requestId } from '../pipeline/01-request-id.ts';
import { INT32_MAX } from './int32.ts';

/** What the pipeline established for one URL + credentials + Accept: enough to answer its repeat. */
export interface Remembered {
  /** The page-cache key (visible ledgers, permissions and URL). */
  cacheKey: string;
  /** The auth version at which the token, API key and permissions were checked. */
  authVersion: string;
  /** When the token stops being valid (ISO text, as the principal carries it). */
  expiresAt: string;
  contentType: string;
  /** The route's path pattern, for the metrics label. */
  route: string;
}

/** The route's page at another offset, as its handler would send it; undefined: let the route answer. */
export type PageAt = (offset: number) => Promise<Buffer | string | undefined>;

/** What the pipeline established for one URL but its offset + credentials + Accept: enough to answer other pages. */
export interface RememberedPages extends Omit<Remembered, 'cacheKey'> {
  /** The page-cache key of one of these URLs. */
  keyOf: (url: string) => string;
  pageAt: PageAt;
}

/**
 * The URL with the value of its one `offset` parameter left out, and that offset (0..2^31-1, written plainly); undefined
 * for a URL without exactly one such parameter. Other spellings (`Offset`, `offset=007`) go to Fastify, which knows them.
 */
export function withoutOffset(url: string): { url: string; offset: number } | undefined {
  const at = url.indexOf('?');
  if (at < 0) return undefined;
  const params = url.slice(at + 1).split('&');
  let found = -1;
  for (let i = 0; i < params.length; i++) {
    if (!params[i]!.startsWith('offset=')) continue;
    if (found >= 0) return undefined;
    found = i;
  }
  const text = params[found]?.slice('offset='.length);
  if (text === undefined || !/^(?:0|[1-9][0-9]{0,9})$/.test(text) || Number(text) > INT32_MAX) return undefined;
  params[found] = 'offset=';
  return { url: `${url.slice(0, at)}?${params.join('&')}`, offset: Number(text) };
}

/** Records one answered request in the metrics (set by the metrics step, src/pipeline/10-metrics.ts). */
export type Observe = (method: string, status: number, route: string, seconds: number) => void;

export interface FrontDoorOptions {
  database: Database;
  now: () => Date;
  /** Rate limiting counts every request in Fastify: the front door then stays shut. */
  rateLimited: boolean;
  /** Behind a trusted proxy the logged client address is Fastify's to work out: logged requests go to Fastify. */
  proxied: boolean;
}

/** The options of Fastify's that shape the server it would make itself. */
interface ServerSettings {
  http?: http.ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
}

const MAX_ENTRIES = 10_000;
/**
 * The headers the front door's answer carries (besides Date and Connection, which node adds). An answer of the
 * pipeline with any other header (AllocationGroups' Deprecation, Sunset and Link, which a route hook decides on the
 * clock) is not remembered: its repeats go through Fastify, whose hooks answer them.
 */
const answerHeaders = (contentType: string, id: string, length: number) => ({
  'content-type': contentType,
  'x-cache': 'hit',
  'x-request-id': id,
  vary: 'Accept',
  'content-length': length,
});
/** The pipeline's headers for a page it read and stored in the cache (the same names, in its order). */
const missHeaders = (contentType: string, id: string, length: number) => ({
  'content-type': contentType,
  'x-request-id': id,
  'x-cache': 'miss',
  vary: 'Accept',
  'content-length': length,
});
export const FRONT_DOOR_HEADERS: ReadonlySet<string> = new Set(Object.keys(answerHeaders('', '', 0)));
/** Levels at which Fastify logs "incoming request" and "request completed". */
const REQUEST_LOG_LEVELS = new Set(['info', 'debug', 'trace']);

const keyOf = (url: string, authorization: string, accept: string | undefined) =>
  `${url}\n${authorization}\n${accept ?? ''}`;

export class FrontDoor {
  private readonly remembered = new Map<string, Remembered>();
  private readonly pages = new Map<string, RememberedPages>();
  private readonly offers = new WeakMap<IncomingMessage, PageAt>();
  private cache: PageCache | undefined;
  private closing = false;
  observe: Observe = () => {};
  /** The app's logger (set once Fastify is made, which needs the server factory first). */
  log: FastifyBaseLogger | undefined;

  constructor(private readonly options: FrontDoorOptions) {}

  /** Arms the front door with the page cache (step 7 does, when the cache is on). */
  open(cache: PageCache): void {
    this.cache = cache;
  }

  close(): void {
    this.closing = true;
    this.remembered.clear();
    this.pages.clear();
  }

  /** Called by a route's handler: its page at any other offset of the same URL is `pageAt(offset)`. */
  offerPages(request: IncomingMessage, pageAt: PageAt): void {
    this.offers.set(request, pageAt);
  }

  /** Called by step 7 after the pipeline answered a cacheable GET with 200 from (or into) the page cache. */
  remember(request: IncomingMessage, entry: Remembered, keyOfUrl: (url: string) => string): void {
    const authorization = request.headers.authorization;
    if (this.options.rateLimited || this.closing || !authorization || request.url === undefined) return;
    if (this.remembered.size >= MAX_ENTRIES) this.remembered.clear();
    this.remembered.set(keyOf(request.url, authorization, request.headers.accept), entry);
    const pageAt = this.offers.get(request);
    const paged = pageAt && withoutOffset(request.url);
    if (!paged) return;
    if (this.pages.size >= MAX_ENTRIES) this.pages.clear();
    const { cacheKey: _key, ...checked } = entry;
    this.pages.set(keyOf(paged.url, authorization, request.headers.accept), { ...checked, keyOf: keyOfUrl, pageAt });
  }

  /** Fastify's serverFactory: node's HTTP server as Fastify makes it, with the front door before Fastify's handler. */
  serverFactory(): NonNullable<FastifyServerOptions['serverFactory']> {
    return (handler, opts) => {
      const options = opts as ServerSettings;
      const server = http.createServer(options.http ?? {}, (req, res) => {
        const found = this.candidate(req);
        if (!found) return handler(req, res);
        const answered = 'cacheKey' in found ? this.answer(req, res, found) : this.answerPage(req, res, found);
        answered.then(
          (done) => done || handler(req, res),
          () => handler(req, res),
        );
      });
      // What Fastify sets on the server it makes itself (fastify/lib/server.js).
      if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
      if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
      server.setTimeout(options.connectionTimeout ?? 0);
      return server;
    };
  }

  /** The logger when it writes Fastify's request lines (level info or finer), else undefined. */
  private requestLog(): FastifyBaseLogger | undefined {
    return this.log && REQUEST_LOG_LEVELS.has(this.log.level) ? this.log : undefined;
  }

  /**
   * The remembered answer this request repeats, or the remembered pages it is another page of, if it could be one
   * (checked without any I/O).
   */
  private candidate(req: IncomingMessage): Remembered | (RememberedPages & { offset: number }) | undefined {
    if (req.method !== 'GET' || this.closing || !this.cache || this.remembered.size === 0) return undefined;
    const { authorization, accept } = req.headers;
    if (!authorization || req.url === undefined) return undefined;
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) return undefined;
    // Pages first: they also read a page whose cached text is stale.
    const paged = this.pages.size > 0 ? withoutOffset(req.url) : undefined;
    const pages = paged && this.pages.get(keyOf(paged.url, authorization, accept));
    return pages ? { ...pages, offset: paged.offset } : this.remembered.get(keyOf(req.url, authorization, accept));
  }

  /** Whether the credentials were checked at this auth version and are still valid. */
  private stillHolds(entry: { authVersion: string; expiresAt: string }, auth: string): boolean {
    return auth === entry.authVersion && entry.expiresAt > this.options.now().toISOString();
  }

  private async answer(req: IncomingMessage, res: ServerResponse, entry: Remembered): Promise<boolean> {
    const started = performance.now();
    const versions = await this.options.database.versions();
    if (!this.stillHolds(entry, versions.auth)) return false;
    const body = this.cache?.get(entry.cacheKey, versions.read);
    if (body === undefined || this.closing) return false;
    return this.send(req, res, entry, started, body, answerHeaders);
  }

  /** Another page of remembered pages: from the cache, or read by the route's function and stored. */
  private async answerPage(
    req: IncomingMessage,
    res: ServerResponse,
    pages: RememberedPages & { offset: number },
  ): Promise<boolean> {
    const started = performance.now();
    if (this.options.proxied && this.requestLog()) return false;
    const versions = await this.options.database.versions();
    if (!this.stillHolds(pages, versions.auth) || !this.cache || req.url === undefined) return false;
    const cacheKey = pages.keyOf(req.url);
    const { keyOf: _keyOf, pageAt: _pageAt, offset: _offset, ...checked } = pages;
    const entry: Remembered = { ...checked, cacheKey };
    const cached = this.cache.get(cacheKey, versions.read);
    if (cached !== undefined) return !this.closing && this.send(req, res, entry, started, cached, answerHeaders);
    const page = await pages.pageAt(pages.offset);
    if (page === undefined || this.closing) return false;
    const body = typeof page === 'string' ? Buffer.from(page) : page;
    this.cache.set(cacheKey, versions.read, body);
    this.remember(req, entry, pages.keyOf);
    return this.send(req, res, entry, started, body, missHeaders);
  }

  private send(
    req: IncomingMessage,
    res: ServerResponse,
    entry: Remembered,
    started: number,
    body: Buffer,
    headers: typeof answerHeaders,
  ): boolean {
    const id = requestId(req);
    const log = this.requestLog();
    if (log && this.options.proxied) return false;
    log?.info(
      { reqId: id, req: { id, method: req.method, url: req.url, ip: req.socket.remoteAddress } },
      'incoming request',
    );
    res.writeHead(200, headers(entry.contentType, id, body.length));
    res.end(body);
    const ms = performance.now() - started;
    this.observe('GET', 200, entry.route, ms / 1000);
    log?.info({ reqId: id, res: { statusCode: 200 }, responseTime: ms }, 'request completed');
    return true;
  }
}
