// Step 7: repeated GETs of routes with config.cache are answered from serialized pages, keyed by URL and the
// ledgers the request may see (so it runs after authentication, which also still runs on every request), and valid
// only for the data version they were made at: any commit by any process sharing the database makes them stale.
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-types.ts';
import { versionsFor } from '../db/versions.ts';
import { PageCache } from '../http/page-cache.ts';

interface Ticket {
  key: string;
  version: string;
}
const tickets = new WeakMap<FastifyRequest, Ticket>();

/** URL -> its part of the key (the apiKey parameter left out), remembered: clients repeat the same URLs. */
const urlKeys = new Map<string, string>();

function urlKey(url: string): string {
  let key = urlKeys.get(url);
  if (key === undefined) {
    const [path = '', query = ''] = url.split('?', 2);
    const params = query.split('&').filter((p) => p && !/^apiKey=/i.test(p));
    key = `${path.toLowerCase()}?${params.join('&')}`;
    if (urlKeys.size >= 10_000) urlKeys.clear();
    urlKeys.set(url, key);
  }
  return key;
}

function cacheKey(request: FastifyRequest): string {
  const scope = request.scope.all ? '*' : request.scope.ids.join(',');
  return `${scope}|${urlKey(request.url)}`;
}

export default fp(
  async (app: App) => {
    const maxBytes = app.config.pageCacheMb * 1024 * 1024;
    if (maxBytes <= 0) return;
    const cache = new PageCache(maxBytes);

    app.addHook('preHandler', async (request, reply) => {
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

    app.addHook('onSend', (request, reply, payload, done) => {
      const ticket = tickets.get(request);
      if (ticket && reply.statusCode === 200 && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
        const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
        cache.set(ticket.key, ticket.version, body);
        reply.header('x-cache', 'miss');
        return done(null, body);
      }
      done(null, payload);
    });
  },
  { name: 'page-cache', dependencies: ['authentication', 'route-config'] },
);
