// Step 1: every request gets an id: the caller's X-Request-Id when it is a plain token, otherwise a new UUID.
// It names the request in the logs and is sent back as x-request-id on every answer.
import fp from 'fastify-plugin';
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { App } from '../app-types.ts';

/** Fastify's genReqId (a server option, so it is exported for the constructor in app.ts). */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : crypto.randomUUID();
}

export default fp(
  async (app: App) => {
    // Callback-style hooks (here and in the other per-request steps): no promise per request and step.
    app.addHook('onSend', (request, reply, payload, done) => {
      reply.header('x-request-id', request.id);
      done(null, payload);
    });
  },
  { name: 'request-id' },
);
