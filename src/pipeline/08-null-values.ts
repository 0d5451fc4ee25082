// Step 8 (before serialization): properties whose value is null are left out at every depth unless the request
// says showNullValues=true. Applies to API routes (config.auth) except fixed-shape answers (config.keepNulls).
import fp from 'fastify-plugin';
import type { App } from '../app-types.ts';
import { stripNulls } from '../http/response.ts';

export default fp(
  async (app: App) => {
    app.addHook('preSerialization', async (request, _reply, payload) => {
      const config = request.routeOptions.config;
      if (!config.auth || config.keepNulls) return payload;
      const show = (request.query as { showNullValues?: unknown } | undefined)?.showNullValues;
      return show === true ? payload : stripNulls(payload);
    });
  },
  { name: 'null-values', dependencies: ['authentication', 'route-config'] },
);
