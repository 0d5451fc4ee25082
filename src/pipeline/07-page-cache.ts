// Step 7: repeated GETs of routes with config.cache are answered from serialized pages, keyed by URL, the caller's
// permissions and the ledgers the request may see (so it runs after authentication, which also still runs on every request), and valid
// only for the data version they were made at: any commit by any process sharing the database makes them stale.
// A 200 answered from or into the cache is remembered by the front door (src/http/front-door.ts), which answers
// its repeats before Fastify while the same checks hold.
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-types.ts';
import { versionsFor } from '../db/versions.ts';
import { PageCache } from '../http/page-cache.ts';
import { FRONT_DOOR_HEADERS } from '../http/front-door.ts';

/** Whether the front door's answer would carry every header of this one (see FRONT_DOOR_HEADERS). */
const frontDoorCanRepeat = (headers: Record<string, unknown>) =>
  Object.keys(headers).every((name) => FRONT_DOOR_HEADERS.has(name.toLowerCase()));

interface Ticket {
  key: string;
  version: string;
  /** Answered from the cache, or its answer stored in it: the front door may answer its repeats. */
  cached: boolean;
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

/** A principal's permissions as a text (remembered per principal, which the auth cache reuses per token). */
const permissionTexts = new WeakMap<object, string>();

function permissionText(principal: FastifyRequest['principal']): string {
  if (!principal) return '';
  let text = permissionTexts.get(principal);
  if (text === undefined) permissionTexts.set(principal, (text = [...principal.permissions].sort().join(',')));
  return text;
}

/**
 * Visible ledgers, the caller's permissions (a page may show a part only with a further permission: loans show
 * person names only with Personen lesen) and the URL.
 */
function cacheKey(request: FastifyRequest): string {
  const scope = request.scope.all ? '*' : request.scope.ids.join(',');
  return `${scope}|${permissionText(request.principal)}|${urlKey(request.url)}`;
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
        tickets.set(request, { key, version, cached: true });
        reply.header('content-type', 'application/json; charset=utf-8').header('x-cache', 'hit');
        return reply.send(body);
      }
      tickets.set(request, { key, version, cached: false });
    });

    app.addHook('onSend', (request, reply, payload, done) => {
      const ticket = tickets.get(request);
      if (
        ticket &&
        !ticket.cached &&
        reply.statusCode === 200 &&
        (typeof payload === 'string' || Buffer.isBuffer(payload))
      ) {
        const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
        cache.set(ticket.key, ticket.version, body);
        ticket.cached = true;
        reply.header('x-cache', 'miss');
        return done(null, body);
      }
      done(null, payload);
    });

    app.frontDoor.open(cache);
    app.addHook('onResponse', (request, reply, done) => {
      const ticket = tickets.get(request);
      const principal = request.principal;
      if (!ticket?.cached || reply.statusCode !== 200 || !principal || !frontDoorCanRepeat(reply.getHeaders()))
        return done();
      versionsFor(app.database, request).then((versions) => {
        app.frontDoor.remember(request.raw, {
          cacheKey: ticket.key,
          authVersion: versions.auth,
          expiresAt: principal.expiresAt,
          contentType: String(reply.getHeader('content-type')),
          route: request.routeOptions.url ?? 'unmatched',
        });
        done();
      }, done);
    });
  },
  { name: 'page-cache', dependencies: ['authentication', 'route-config'] },
);
