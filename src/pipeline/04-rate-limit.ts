// Step 4: floods are refused before any work (RATE_LIMIT_PER_MINUTE per client address, 429 with Retry-After).
// Health probes are never limited. Off when the limit is 0.
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { App } from '../app-types.ts';

export default fp(
  async (app: App) => {
    const max = app.config.rateLimitPerMinute;
    if (max <= 0) return;
    await app.register(rateLimit, {
      global: false,
      max,
      timeWindow: 60_000,
      allowList: (request) => request.url.startsWith('/health/'),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        message: `Too many requests: the limit is ${context.max} per minute; retry in ${Math.ceil(context.ttl / 1000)} s.`,
      }),
    });
    app.addHook('onRequest', app.rateLimit());
  },
  { name: 'rate-limit', dependencies: ['errors'] },
);
