// A cache of serialized read responses, keyed by route URL and visible ledgers, and valid only for the
// database's data version at the time it was filled: any committed change, by any server process sharing the
// database, moves the version on, so a cached page is never older than the last committed change.
// Routes opt in with `config: { cache: true }`. Authentication and permission checks still run on every request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-types.ts';
import { versionsFor } from '../db/versions.ts';

interface Entry {
  version: string;
  body: string;
}

/** Least-recently-used map bounded by the total size of its bodies. */
export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.version !== version) {
      this.bytes -= entry.body.length;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry.body;
  }

  set(key: string, version: string, body: string): void {
    if (body.length > this.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(key);
    }
    this.entries.set(key, { version, body });
    this.bytes += body.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.body.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

interface Ticket {
  key: string;
  version: string;
}
const tickets = new WeakMap<FastifyRequest, Ticket>();

function cacheKey(request: FastifyRequest): string {
  const scope = request.scope.all ? '*' : request.scope.ids.join(',');
  const [path, query = ''] = request.url.split('?', 2);
  const params = query.split('&').filter((p) => p && !/^apiKey=/i.test(p));
  return `${scope}|${path.toLowerCase()}?${params.join('&')}`;
}

export function registerPageCache(app: App, maxBytes: number): void {
  if (maxBytes <= 0) return;
  const cache = new PageCache(maxBytes);

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.routeOptions.config.cache || request.method !== 'GET') return;
    const version = (await versionsFor(app.database, request)).read;
    const key = cacheKey(request);
    const body = cache.get(key, version);
    if (body !== undefined) {
      reply.header('content-type', 'application/json; charset=utf-8').header('x-cache', 'hit');
      return reply.send(body);
    }
    tickets.set(request, { key, version });
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const ticket = tickets.get(request);
    if (ticket && reply.statusCode === 200 && typeof payload === 'string') {
      cache.set(ticket.key, ticket.version, payload);
      reply.header('x-cache', 'miss');
    }
    return payload;
  });
}
