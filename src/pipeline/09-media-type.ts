// Step 9 (after serialization): API answers are labelled with the media type the client prefers among those the
// interface offers (application/json, text/json, text/plain; all three carry JSON), by the Accept header's
// q-values (RFC 9110 §12.5.1, through `negotiator`). An Accept that allows none of them (`text/html`,
// `application/json;q=0`) still gets application/json: the interface names no 406. `Vary: Accept` says so to caches.
import fp from 'fastify-plugin';
import Negotiator from 'negotiator';
import type { App } from '../app-types.ts';

/**
 * The interface's media types as the answers are labelled, in the order that breaks ties (`*\/*` gets the first). With
 * their charset, so that a range with `charset=utf-8` matches (a range with another charset matches none).
 */
export const MEDIA_TYPES = ['application/json', 'text/json', 'text/plain'];
const OFFERED = MEDIA_TYPES.map((type) => `${type}; charset=utf-8`);
const known = new Map<string, string>();

/** The media type for an Accept header (remembered per header text: clients send the same few). */
function mediaType(accept: string | undefined): string {
  if (!accept) return 'application/json; charset=utf-8';
  let type = known.get(accept);
  if (type === undefined) {
    if (known.size >= 1000) known.clear();
    known.set(accept, (type = new Negotiator({ headers: { accept } }).mediaType(OFFERED) ?? OFFERED[0]!));
  }
  return type;
}

export default fp(
  async (app: App) => {
    app.addHook('onSend', (request, reply, payload, done) => {
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && type.startsWith('application/json') && request.routeOptions.config.auth) {
        reply.header('content-type', mediaType(request.headers.accept)).header('vary', 'Accept');
      }
      done(null, payload);
    });
  },
  { name: 'media-type' },
);
