// OpenAPI 3 document generated from the route schemas (/service/openapi.json) and the docs page (/docs).
// What a route contributes beyond its schema is derived centrally: per route in openapi-operations.ts (operation
// ids, tags, security, error responses), for the whole document in openapi-components.ts (named schemas, examples).
// Choices: docs/openapi.md.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-types.ts';
import { CURRENT_VERSION, transformRoute } from './openapi-operations.ts';
import { transformDocument } from './openapi-components.ts';

export const DOCUMENT_PATH = '/service/openapi.json';

const INTRO = [
  'wohnapi serves the property-management data interface (OPENWOWI-compatible): running-cost distribution (read),',
  'accounting projects (write), rent accounting (read, v1.0 and v1.2).',
  '',
  '**Log in** at `POST /oauth2/token` (OAuth 2.0 password grant, form-encoded) and send `Authorization: Bearer <token>`;',
  'most endpoints also take the `apiKey` query parameter of your client application, which narrows the ledgers you see',
  '(writes require it). On this page: **Authorize**, fill in user and password under *oauth2* and the key under',
  '*apiKey*, then use **Try it out**.',
  '',
  'Every `/service` path is also served under `/openwowi` for clients of the vendor interface; paths match',
  'case-insensitively. Errors answer `{ key: [messages] }`, where key names the parameter or body property.',
].join('\n');

const LICENSE = 'Proprietary: use under the terms agreed with the operator of this server';

/** The origin the request reached us on, so the document's server is the one the reader uses. */
export function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

async function openApi(app: App) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        // interface.md, Versioning 1: "The schema title of version 1.2 is V1.2".
        title: `V${CURRENT_VERSION}`,
        version: CURRENT_VERSION,
        description: INTRO,
        contact: { name: 'wohnapi operators' },
        license: { name: LICENSE },
      },
      servers: [{ url: `http://localhost:${app.config.port}`, description: 'this server' }],
      components: {
        securitySchemes: {
          oauth2: {
            type: 'oauth2',
            description: 'Bearer token from POST /oauth2/token (password grant; refresh with the refresh_token grant).',
            flows: { password: { tokenUrl: '/oauth2/token', scopes: {} } },
          },
          apiKey: {
            type: 'apiKey',
            in: 'query',
            name: 'apiKey',
            description: 'API key of the client application (wohnapi apikey create); scopes the visible ledgers.',
          },
        },
      },
    },
    transform: transformRoute,
    transformObject: transformDocument as never,
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    transformSpecification: servedDocument,
    transformSpecificationClone: false,
    uiConfig: {
      url: DOCUMENT_PATH,
      docExpansion: 'list',
      tagsSorter: 'alpha',
      // credentials stay in the page: persisting them would write the password, key and tokens to localStorage
      persistAuthorization: false,
      displayRequestDuration: true,
      tryItOutEnabled: true,
    },
    theme: { title: 'wohnapi: API documentation' },
    logo: {
      type: 'image/svg+xml',
      content: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="40"><text x="0" y="28" font-family="sans-serif" font-size="26" font-weight="bold" fill="#ffffff">wohnapi</text></svg>',
      ),
    },
  });
  app.get(DOCUMENT_PATH, { schema: { hide: true } }, async (request) =>
    servedDocument(app.swagger() as unknown as Record<string, unknown>, request),
  );
}

/** The document as served: the server (and so the token URL the docs page resolves) is the origin the reader used. */
function servedDocument(document: Readonly<Record<string, unknown>>, request: FastifyRequest) {
  const origin = originOf(request);
  const info = document.info as Record<string, unknown>;
  return {
    ...document,
    info: { ...info, license: { name: LICENSE, url: `${origin}/docs` } },
    servers: [{ url: origin, description: 'this server' }],
  };
}

/** At the root (not encapsulated), so the document sees every route registered after it. */
export default fp(openApi, { name: 'openapi' });
