// The front door: a request that repeats one the pipeline has just answered from the page cache (same URL, same
// Authorization header, same Accept header) is answered from that cache before Fastify sees it, when every check
// the pipeline made still holds: the same auth version (no change to users, grants, tokens or keys since, in any
// process), the token not expired since, and a cached page for the current data version. Anything else — another
// URL, a stale page, a changed credential, a request with a body — goes to Fastify as before, which answers and
// remembers it again. The answer is the pipeline's hit byte for byte (status, body, headers in the same order, the
// request id rule of step 1), it is counted in the same metrics and logged with the same two lines.
// Why: a hit through Fastify's routing, query validation and hooks cost ~0.9 ms of server CPU against ~0.35 ms
// for node's bare HTTP sending the same bytes (docs/performance.md, "The front door").
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Database } from '../db/database.ts';
import type { PageCache } from './page-cache.ts';
import { requestId } from '../pipeline/01-request-id.ts';

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
export const FRONT_DOOR_HEADERS: ReadonlySet<string> = new Set(Object.keys(answerHeaders('', '', 0)));
/** Levels at which Fastify logs "incoming request" and "request completed". */
const REQUEST_LOG_LEVELS = new Set(['info', 'debug', 'trace']);

const keyOf = (url: string, authorization: string, accept: string | undefined) =>
  `${url}\n${authorization}\n${accept ?? ''}`;

export class FrontDoor {
  private readonly remembered = new Map<string, Remembered>();
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
  }

  /** Called by step 7 after the pipeline answered a cacheable GET with 200 from (or into) the page cache. */
  remember(request: IncomingMessage, entry: Remembered): void {
    const authorization = request.headers.authorization;
    if (this.options.rateLimited || this.closing || !authorization || request.url === undefined) return;
    if (this.remembered.size >= MAX_ENTRIES) this.remembered.clear();
    this.remembered.set(keyOf(request.url, authorization, request.headers.accept), entry);
  }

  /** Fastify's serverFactory: node's HTTP server as Fastify makes it, with the front door before Fastify's handler. */
  serverFactory(): NonNullable<FastifyServerOptions['serverFactory']> {
    return (handler, opts) => {
      const options = opts as ServerSettings;
      const server = http.createServer(options.http ?? {}, (req, res) => {
        const entry = this.candidate(req);
        if (!entry) return handler(req, res);
        this.answer(req, res, entry).then(
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

  /** The remembered answer this request repeats, if it could be one (checked without any I/O). */
  private candidate(req: IncomingMessage): Remembered | undefined {
    if (req.method !== 'GET' || this.closing || !this.cache || this.remembered.size === 0) return undefined;
    const { authorization, accept } = req.headers;
    if (!authorization || req.url === undefined) return undefined;
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) return undefined;
    return this.remembered.get(keyOf(req.url, authorization, accept));
  }

  private async answer(req: IncomingMessage, res: ServerResponse, entry: Remembered): Promise<boolean> {
    const started = performance.now();
    const versions = await this.options.database.versions();
    if (versions.auth !== entry.authVersion || !(entry.expiresAt > this.options.now().toISOString())) return false;
    const body = this.cache?.get(entry.cacheKey, versions.read);
    if (body === undefined || this.closing) return false;
    const id = requestId(req);
    const log = this.requestLog();
    if (log && this.options.proxied) return false;
    log?.info(
      { reqId: id, req: { id, method: req.method, url: req.url, ip: req.socket.remoteAddress } },
      'incoming request',
    );
    res.writeHead(200, answerHeaders(entry.contentType, id, body.length));
    res.end(body);
    const ms = performance.now() - started;
    this.observe('GET', 200, entry.route, ms / 1000);
    log?.info({ reqId: id, res: { statusCode: 200 }, responseTime: ms }, 'request completed');
    return true;
  }
}
