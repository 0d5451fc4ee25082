// Configuration: environment variables, validated once at start-up and frozen.
// Every variable is declared here and only here; `.env.example` lists them for operators.
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')]);
const Int = (min: number, max: number) => Type.String({ pattern: '^[0-9]+$', 'x-min': min, 'x-max': max });

/** name -> [schema, default, description] */
const VARIABLES = {
  PORT: [Int(0, 65535), '8080', 'TCP port the HTTP server listens on'],
  HOST: [Type.String({ minLength: 1 }), '127.0.0.1', 'Interface address to bind'],
  DATABASE_URL: [
    Type.String({ pattern: '^(sqlite:.+|postgres(ql)?://.+)$' }),
    'sqlite:./data/wohnapi.sqlite',
    'sqlite:<file> (embedded default) or postgres://user:pass@host:port/db',
  ],
  LOG_LEVEL: [
    Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
    'info',
    'pino log level',
  ],
  ACCESS_TOKEN_TTL_SECONDS: [Int(1, 86400 * 7), '3600', 'Lifetime of an access token'],
  REFRESH_TOKEN_TTL_SECONDS: [Int(60, 86400 * 365), '1209600', 'Lifetime of a refresh token (default 14 days)'],
  LOGIN_MAX_FAILURES: [Int(1, 1000), '5', 'Failed logins for one user name before it is throttled'],
  LOGIN_LOCK_SECONDS: [Int(1, 86400), '300', 'How long a throttled user name must wait (Retry-After)'],
  BODY_LIMIT_BYTES: [Int(1024, 100 * 1024 * 1024), '1048576', 'Largest accepted request body (413 above it)'],
  RATE_LIMIT_PER_MINUTE: [Int(0, 10_000_000), '0', 'Requests per minute per client address before 429 (0 = no limit)'],
  PAGE_CACHE_MB: [Int(0, 4096), '64', 'Memory for cached read responses, never older than the last commit (0 = off)'],
  MAX_HEAP_MB: [Int(64, 65536), '256', 'V8 heap limit of the `serve` process in MiB (keeps its memory flat)'],
  DB_POOL_SIZE: [Int(1, 100), '10', 'PostgreSQL connection pool size'],
  WEBHOOK_ALLOW_PRIVATE: [Bool, 'false', 'Allow webhook URLs on private/loopback addresses (tests, local dev)'],
  NOW: [
    Type.String({ pattern: '^$|^\\d{4}-\\d{2}-\\d{2}(T.*)?$' }),
    '',
    'Override the server clock (tests, e.g. 2027-01-01)',
  ],
} as const;

export type ConfigName = keyof typeof VARIABLES;

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  logLevel: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  loginMaxFailures: number;
  loginLockSeconds: number;
  bodyLimit: number;
  dbPoolSize: number;
  rateLimitPerMinute: number;
  pageCacheMb: number;
  maxHeapMb: number;
  webhookAllowPrivate: boolean;
  now: string;
}

export class ConfigError extends Error {}

function read(env: NodeJS.ProcessEnv, name: ConfigName): string {
  const [schema, def] = VARIABLES[name];
  const raw = env[name] ?? def;
  if (!Value.Check(schema, raw)) {
    throw new ConfigError(`Invalid configuration: ${name}=${JSON.stringify(raw)} (${VARIABLES[name][2]})`);
  }
  const s = schema as { 'x-min'?: number; 'x-max'?: number };
  if (s['x-min'] !== undefined) {
    const n = Number(raw);
    if (n < s['x-min'] || n > (s['x-max'] ?? Infinity)) {
      throw new ConfigError(`Invalid configuration: ${name}=${raw} must be between ${s['x-min']} and ${s['x-max']}`);
    }
  }
  return raw;
}

/** Reads and validates the environment; throws ConfigError with a one-line message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const now = read(env, 'NOW');
  const parsed = new Date(now);
  if (now && (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== now.slice(0, 10)))
    throw new ConfigError(`Invalid configuration: NOW=${JSON.stringify(now)} is not a real date or date-time`);
  return Object.freeze({
    port: Number(read(env, 'PORT')),
    host: read(env, 'HOST'),
    databaseUrl: read(env, 'DATABASE_URL'),
    logLevel: read(env, 'LOG_LEVEL'),
    accessTokenTtl: Number(read(env, 'ACCESS_TOKEN_TTL_SECONDS')),
    refreshTokenTtl: Number(read(env, 'REFRESH_TOKEN_TTL_SECONDS')),
    loginMaxFailures: Number(read(env, 'LOGIN_MAX_FAILURES')),
    loginLockSeconds: Number(read(env, 'LOGIN_LOCK_SECONDS')),
    bodyLimit: Number(read(env, 'BODY_LIMIT_BYTES')),
    dbPoolSize: Number(read(env, 'DB_POOL_SIZE')),
    rateLimitPerMinute: Number(read(env, 'RATE_LIMIT_PER_MINUTE')),
    pageCacheMb: Number(read(env, 'PAGE_CACHE_MB')),
    maxHeapMb: Number(read(env, 'MAX_HEAP_MB')),
    webhookAllowPrivate: read(env, 'WEBHOOK_ALLOW_PRIVATE') === 'true',
    now,
  });
}

/** The lines of `.env.example`, generated from the single declaration above (see scripts/env-example.ts). */
export function envExample(): string {
  return (
    Object.entries(VARIABLES)
      .map(([name, [, def, doc]]) => `# ${doc}\n${name}=${def}`)
      .join('\n\n') + '\n'
  );
}
