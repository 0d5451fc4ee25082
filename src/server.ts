// The server process: logger, database, migrations, listen, graceful shutdown on SIGTERM/SIGINT.
import type { FastifyServerOptions } from 'fastify';
import { buildApp } from './app.ts';
import type { Config } from './config.ts';
import { describeUrl, openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { App } from './app-types.ts';
import { startDispatcher } from './webhooks/dispatcher.ts';

const SECRET_NAMES = new Set(['apikey', 'access_token', 'refresh_token', 'password']);

/** Whether a query parameter's name, as the server reads it (percent-decoded, any case), names a secret. */
function isSecretName(raw: string): boolean {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // not URL text: compared as sent
  }
  return SECRET_NAMES.has(name.toLowerCase());
}

/** The request URL as logged: the values of secret query parameters replaced, however their names are written
 *  (`apiKey`, `APIKEY`, `api%4Bey` are all the API key to the server). */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      return eq >= 0 && isSecretName(part.slice(0, eq)) ? `${part.slice(0, eq)}=[redacted]` : part;
    });
  return `${url.slice(0, q + 1)}${parts.join('&')}`;
}

export function loggerOptions(config: Readonly<Config>): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    // LOG_FORMAT=pretty: readable lines for a person at a terminal (pino-pretty in a worker); JSON stays the default.
    ...(config.logFormat === 'pretty'
      ? {
          transport: {
            target: 'pino-pretty',
            options: { destination: 1, colorize: Boolean(process.stdout.isTTY), ignore: 'pid,hostname' },
          },
        }
      : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'password', 'token', 'apiKey'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string; ip?: string }) => ({
        id: req.id,
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}

export interface RunningServer {
  app: App;
  url: string;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Runs after migrations, before listening (demo set-up). Its lines are printed after the listen line. */
  beforeListen?: (app: App) => Promise<string[]>;
  print?: (line: string) => void;
}

/** A PostgreSQL statement of a request gets half the request timeout (15 s by default) before it is a 503. */
export const queryTimeoutOf = (config: Readonly<Config>): number =>
  Math.max(1000, Math.floor(config.requestTimeoutMs / 2));

export async function startServer(config: Readonly<Config>, options: StartOptions = {}): Promise<RunningServer> {
  // The start banner goes to stderr, so stdout carries only the (JSON) log lines.
  const print = options.print ?? ((line: string) => process.stderr.write(`${line}\n`));
  const database = openDatabase(config.databaseUrl, {
    poolSize: config.databasePoolMax,
    sqliteCacheMb: config.sqliteCacheMb,
    queryTimeoutMs: queryTimeoutOf(config),
  });
  const { applied, newer } = await migrateToLatest(database);
  const app = await buildApp({ database, config, logger: loggerOptions(config) });
  const extra = options.beforeListen ? await options.beforeListen(app) : [];
  const address = await app.listen({ port: config.port, host: config.host });
  const base = address.replace('[::1]', 'localhost');
  print(`wohnapi listening on ${base}`);
  print(
    `  database: ${database.dialect} ${describeUrl(config.databaseUrl)}${applied.length ? ` (applied ${applied.length} migration(s))` : ''}`,
  );
  if (newer.length)
    print(`  note:     the database schema is a newer release's (${newer.join(', ')}); served as it is, not migrated`);
  print(`  API:      ${base}/service/v1.2/...  (also ${base}/openwowi/...)`);
  print(`  login:    POST ${base}/oauth2/token (grant_type=password)`);
  print(`  docs:     ${base}/docs   OpenAPI: ${base}/service/openapi.json`);
  print(`  health:   ${base}/health/ready   metrics: ${base}/metrics`);
  for (const line of extra) print(line);
  // Webhook deliveries from the outbox (any number of processes may run it; they share the work via the database).
  const dispatcher = config.webhookDispatcher ? startDispatcher({ database, config, logger: app.log }) : undefined;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Stops accepting and lets requests in flight finish, for at most SHUTDOWN_TIMEOUT_MS: then every connection
      // is closed, so a stalled client cannot hold the shutdown.
      const force = setTimeout(() => app.server.closeAllConnections(), config.shutdownTimeoutMs);
      // the dispatcher stops at the same time: its deliveries under way end within WEBHOOK_TIMEOUT_MS and are recorded
      const stopping = dispatcher?.stop();
      try {
        await app.close();
      } finally {
        clearTimeout(force);
      }
      await stopping;
      await database.close();
    })());
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      close().then(
        () => process.exit(0),
        (err) => {
          app.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  return { app, url: base, close };
}
