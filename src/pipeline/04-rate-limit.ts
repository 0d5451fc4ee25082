// Step 4: floods are refused before any work (RATE_LIMIT_PER_MINUTE per client address, 429 with Retry-After).
// Health probes and the metrics scrape are never limited (a scraper sharing a busy client's address would lose its
// metrics). Off when the limit is 0.
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { App } from '../app-types.ts';

/** The paths outside the limit: /health, /health/live, /health/ready and /metrics (with or without a query). */
export const UNLIMITED = /^\/(health(\/|\?|$)|metrics(\?|$))/i;

export default fp(
  async (app: App) => {
    const max = app.config.rateLimitPerMinute;
    if (max <= 0) return;
    await app.register(rateLimit, {
      global: false,
      max,
      timeWindow: 60_000,
      allowList: (request) => UNLIMITED.test(request.url),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        message: `Too many requests: the limit is ${context.max} per minute; retry in ${Math.ceil(context.ttl / 1000)} s.`,
      }),
    });
    app.addHook('onRequest', app.rateLimit());
  },
  { name: 'rate-limit', dependencies: ['errors'] },
);
