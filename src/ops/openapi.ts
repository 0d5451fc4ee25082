// OpenAPI 3 document generated from the route schemas (/service/openapi.json) and the docs page (/docs).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import type { App } from '../app-types.ts';

async function openApi(app: App) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'wohnapi',
        version: '1.2',
        description:
          'Property-management data interface: running-cost distribution (read), accounting projects (write), rent accounting (read, v1.0 and v1.2). ' +
          'Log in at POST /oauth2/token (password grant, form-encoded) and send `Authorization: Bearer <token>`. ' +
          'Every /service path is also served under /openwowi for clients of the vendor interface; paths match case-insensitively.',
      },
      components: {
        securitySchemes: {
          oauth2: { type: 'oauth2', flows: { password: { tokenUrl: '/oauth2/token', scopes: {} } } },
          apiKey: { type: 'apiKey', in: 'query', name: 'apiKey' },
        },
      },
      security: [{ oauth2: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/service/openapi.json' } });
  app.get('/service/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/** At the root (not encapsulated), so the document sees every route registered after it. */
export default fp(openApi, { name: 'openapi' });
