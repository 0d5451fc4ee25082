// Builds the Fastify application from its parts (database, config, clock). Tests register this; src/server.ts
// owns the process (logger destination, listen, signals). It reads as the way of a request through the server:
// the pipeline steps of src/pipeline/ in request order, then the routes.
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { WriteQueue } from './db/write-queue.ts';
import type { App } from './app-types.ts';
import type { Authenticator } from './auth/authenticate.ts';
import { clientErrorHandler, frameworkErrors } from './http/client-errors.ts';
import { FrontDoor } from './http/front-door.ts';
import requestIdStep, { requestId } from './pipeline/01-request-id.ts';
import errorsStep from './pipeline/02-errors.ts';
import routeConfigStep from './pipeline/03-route-config.ts';
import rateLimitStep from './pipeline/04-rate-limit.ts';
import bodyParserStep from './pipeline/05-body-parser.ts';
import queryNamesStep from './pipeline/05-query-names.ts';
import authenticationStep from './pipeline/06-authentication.ts';
import pageCacheStep from './pipeline/07-page-cache.ts';
import nullValuesStep from './pipeline/08-null-values.ts';
import mediaTypeStep from './pipeline/09-media-type.ts';
import metricsStep from './pipeline/10-metrics.ts';
import openApi from './ops/openapi.ts';
import healthRoutes from './ops/health.ts';
import tokenRoutes from './auth/token-route.ts';
import apiRoutes from './api.ts';

export interface AppOptions {
  database: Database;
  config: Readonly<Config>;
  /** The server clock; tests move it. Defaults to config NOW or the real time. */
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
  /** How API requests are authenticated; the default is the bearer token, permission and API-key check. */
  authenticate?: Authenticator;
}

export async function buildApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const fixed = config.now ? new Date(config.now) : undefined;
  const now = options.now ?? (fixed ? () => fixed : () => new Date());

  // Repeated page-cache hits are answered before Fastify (src/http/front-door.ts); step 7 arms it.
  const frontDoor = new FrontDoor({
    database,
    now,
    rateLimited: config.rateLimitPerMinute > 0,
    proxied: config.trustProxy !== false && config.trustProxy !== 0,
  });
  const app = Fastify({
    serverFactory: frontDoor.serverFactory(),
    logger: options.logger ?? false,
    bodyLimit: config.bodyLimit,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    genReqId: requestId,
    requestIdHeader: false,
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // Slow or stalled clients cannot hold connections (docs/limits.md); node checks the timeouts every second. A
    // connection without any traffic either way (a client that stopped reading) is closed after twice the request
    // timeout, so that a late request first gets its 408.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: 2 * config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: Math.min(config.headersTimeoutMs, config.requestTimeoutMs),
      connectionsCheckingInterval: 1000,
    },
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    clientErrorHandler,
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('db', database.db);
  app.decorate('database', database);
  app.decorate('config', config);
  app.decorate('now', now);
  app.decorate('writes', new WriteQueue(database));
  app.decorate('frontDoor', frontDoor);
  frontDoor.log = app.log;
  app.addHook('onClose', async () => {
    frontDoor.close();
    await app.writes.close();
  });

  // The request pipeline, in the order a request meets it (each step names the steps it depends on).
  await app.register(requestIdStep);
  await app.register(errorsStep);
  await app.register(routeConfigStep);
  await app.register(rateLimitStep);
  await app.register(bodyParserStep);
  await app.register(queryNamesStep);
  await app.register(authenticationStep, { authenticate: options.authenticate });
  await app.register(pageCacheStep);
  await app.register(nullValuesStep);
  await app.register(mediaTypeStep);
  await app.register(metricsStep);

  // The routes.
  await app.register(openApi);
  await app.register(healthRoutes);
  await app.register(tokenRoutes);
  await app.register(apiRoutes);
  return app;
}
