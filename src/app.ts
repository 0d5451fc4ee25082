// Builds the Fastify application from its parts (database, config, clock). Tests register this; src/server.ts
// owns the process (logger destination, listen, signals).
import Fastify, { type FastifyServerOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import secureJson from 'secure-json-parse';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import crypto from 'node:crypto';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { WriteQueue } from './db/write-queue.ts';
import type { App } from './app-types.ts';
import { ApiError, errorHandler, notFoundHandler } from './http/errors.ts';
import { validatorCompiler } from './http/validation.ts';
import { registerResponseShaping } from './http/response.ts';
import { registerPageCache } from './http/page-cache.ts';
import { registerAuthentication, type Authenticator } from './auth/authenticate.ts';
import tokenRoutes from './auth/token-route.ts';
import healthRoutes from './ops/health.ts';
import { registerMetrics } from './ops/metrics.ts';
import { registerOpenApi } from './ops/openapi.ts';
import { registerApi } from './api.ts';

export interface AppOptions {
  database: Database;
  config: Readonly<Config>;
  /** The server clock; tests move it. Defaults to config NOW or the real time. */
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
  /** How API requests are authenticated; the default is the bearer token, permission and API-key check. */
  authenticate?: Authenticator;
}

const SECRET_QUERY = /([?&](?:apiKey|access_token|refresh_token|password)=)[^&]*/gi;

/** The request URL as logged: secrets in the query string replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

export async function buildApp(options: AppOptions): Promise<App> {
  const { config, database } = options;
  const fixed = config.now ? new Date(config.now) : undefined;
  const now = options.now ?? (fixed ? () => fixed : () => new Date());

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: config.bodyLimit,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : crypto.randomUUID();
    },
    requestIdHeader: false,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  app.decorate('db', database.db);
  app.decorate('database', database);
  app.decorate('config', config);
  app.decorate('now', now);
  app.decorate('writes', new WriteQueue(database));
  app.setValidatorCompiler(validatorCompiler);
  // Bodies are JSON only (a JSON text sent as text/plain gets the content-type message), and a malformed body
  // is answered with the parser's own words, which name the position. Prototype poisoning is refused.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, secureJson.parse(body as string, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      done(
        new ApiError(400, 'bad_request', { $: [`The body is not valid JSON: ${(err as Error).message}.`] }),
        undefined,
      );
    }
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    return payload;
  });

  if (config.rateLimitPerMinute > 0) {
    // Registered as an app-wide onRequest hook ahead of authentication, so floods are refused before any work.
    await app.register(rateLimit, {
      global: false,
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      allowList: (request) => request.url.startsWith('/health/'),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        message: `Too many requests: the limit is ${context.max} per minute; retry in ${Math.ceil(context.ttl / 1000)} s.`,
      }),
    });
    app.addHook('onRequest', app.rateLimit());
  }
  registerAuthentication(app, options.authenticate);
  registerResponseShaping(app);
  registerPageCache(app, config.pageCacheMb * 1024 * 1024);
  await registerOpenApi(app);
  registerMetrics(app);
  await app.register(healthRoutes);
  await app.register(tokenRoutes);
  await registerApi(app);
  return app;
}
