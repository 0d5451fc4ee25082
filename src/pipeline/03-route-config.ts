// Step 3 (at boot): the per-route settings the later steps key off are checked when each route is added, so a
// route that asks for the page cache or fixed nulls without authentication is refused at start, not at run time.
import fp from 'fastify-plugin';
import type { App } from '../app-types.ts';

export default fp(
  async (app: App) => {
    app.addHook('onRoute', (route) => {
      const config = route.config ?? {};
      const needsAuth = (['cache', 'keepNulls'] as const).filter((flag) => config[flag]);
      if (needsAuth.length && !config.auth) {
        throw new Error(
          `Route ${String(route.method)} ${route.url}: ${needsAuth.join(' and ')} need(s) config.auth (the ledger scope and showNullValues come from authentication)`,
        );
      }
    });
  },
  { name: 'route-config' },
);
