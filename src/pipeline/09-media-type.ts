// Step 9 (after serialization): API answers are labelled with the media type the client accepts among those the
// interface offers (application/json, text/json, text/plain); all three carry JSON.
import fp from 'fastify-plugin';
import type { App } from '../app-types.ts';

const known = new Map<string, string>();

/** The media type for an Accept header (remembered per header text: clients send the same few). */
function mediaType(accept: string | undefined): string {
  if (!accept) return 'application/json; charset=utf-8';
  let type = known.get(accept);
  if (type === undefined) {
    if (known.size >= 1000) known.clear();
    known.set(accept, (type = chooseMediaType(accept)));
  }
  return type;
}

function chooseMediaType(accept: string): string {
  const a = accept.toLowerCase();
  if (a.includes('application/json') || a.includes('*/*') || a.includes('application/*'))
    return 'application/json; charset=utf-8';
  if (a.includes('text/json')) return 'text/json; charset=utf-8';
  if (a.includes('text/plain') || a.includes('text/*')) return 'text/plain; charset=utf-8';
  return 'application/json; charset=utf-8';
}

export default fp(
  async (app: App) => {
    app.addHook('onSend', (request, reply, payload, done) => {
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && type.startsWith('application/json') && request.routeOptions.config.auth) {
        reply.header('content-type', mediaType(request.headers.accept));
      }
      done(null, payload);
    });
  },
  { name: 'media-type' },
);
