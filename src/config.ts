// Configuration: environment variables, validated once at start-up and frozen.
// Every variable is declared here and only here (name, property, kind, default, meaning); the Config type and
// `.env.example` (kept equal by a test) are derived from this one table.
import net from 'node:net';

/** How a variable's text becomes its value; `check` returns the problem, or undefined when the text is valid. */
interface Kind<T> {
  check(raw: string): string | undefined;
  parse(raw: string): T;
}

const int = (min: number, max: number): Kind<number> => ({
  check: (raw) =>
    !/^[0-9]+$/.test(raw)
      ? `must be a whole number between ${min} and ${max}`
      : Number(raw) < min || Number(raw) > max
        ? `must be between ${min} and ${max}`
        : undefined,
  parse: Number,
});

const bool: Kind<boolean> = {
  check: (raw) => (raw === 'true' || raw === 'false' ? undefined : 'must be true or false'),
  parse: (raw) => raw === 'true',
};

const text = (pattern: RegExp, expected: string): Kind<string> => ({
  check: (raw) => (pattern.test(raw) ? undefined : `must be ${expected}`),
  parse: (raw) => raw,
});

/** An IPv4 or IPv6 address, optionally with a prefix length in range (`10.0.0.0/8`, `fd00::/8`) or, for IPv4, a
 *  netmask (`10.0.0.0/255.0.0.0`), as Fastify's trustProxy takes them. */
function isProxyAddress(text: string): boolean {
  const [address = '', prefix, ...rest] = text.split('/');
  const version = net.isIP(address);
  if (version === 0 || rest.length) return false;
  if (prefix === undefined || (version === 4 && net.isIPv4(prefix))) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/** Fastify's trustProxy: false, true, a number of proxy hops, or a comma-separated list of addresses/CIDRs. */
const proxies: Kind<boolean | number | string> = {
  check: (raw) =>
    /^(true|false|[0-9]{1,3})$/.test(raw) || raw.split(',').every((a) => isProxyAddress(a.trim()))
      ? undefined
      : 'must be true, false, a number of proxy hops, or a comma-separated list of proxy addresses (IP or CIDR)',
  parse: (raw) => (raw === 'true' ? true : raw === 'false' ? false : /^[0-9]+$/.test(raw) ? Number(raw) : raw),
};

const oneOf = <T extends string>(values: readonly T[]): Kind<T> => ({
  check: (raw) => ((values as readonly string[]).includes(raw) ? undefined : `must be one of ${values.join(', ')}`),
  parse: (raw) => raw as T,
});

/** A date or date-time that names a real calendar day, or empty. */
const instant: Kind<string> = {
  check(raw) {
    if (raw === '') return undefined;
    const parsed = new Date(raw);
    const valid =
      /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(raw) &&
      !Number.isNaN(parsed.getTime()) &&
      parsed.toISOString().slice(0, 10) === raw.slice(0, 10);
    return valid ? undefined : 'is not a real date or date-time';
  },
  parse: (raw) => raw,
};

/** Most worker processes `serve --workers` starts. */
export const MAX_WORKERS = 64;

/** A number of worker processes, or empty for the default (src/runtime/cluster.ts). */
const workerCount: Kind<number | undefined> = {
  check: (raw) => (raw === '' ? undefined : int(1, MAX_WORKERS).check(raw)),
  parse: (raw) => (raw === '' ? undefined : Number(raw)),
};

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const variable = <K extends string, T>(key: K, kind: Kind<T>, fallback: string, doc: string) => ({
  key,
  kind,
  fallback,
  doc,
});

/** Every variable: property of Config, kind, default, and its line in `.env.example`. */
const VARIABLES = {
  PORT: variable('port', int(0, 65535), '8080', 'TCP port the HTTP server listens on'),
  HOST: variable('host', text(/^.+$/, 'a host name or address'), '127.0.0.1', 'Interface address to bind'),
  DATABASE_URL: variable(
    'databaseUrl',
    {
      check: (raw) =>
        /^sqlite:.+$/.test(raw) || (/^postgres(ql)?:\/\/.+$/.test(raw) && URL.canParse(raw))
          ? undefined
          : 'must be sqlite:<file> or postgres://user:pass@host:port/db (a valid URL: port 1-65535, special characters of the password percent-encoded)',
      parse: (raw) => raw,
    },
    'sqlite:./data/wohnapi.sqlite',
    'sqlite:<file> (embedded default) or postgres://user:pass@host:port/db',
  ),
  LOG_LEVEL: variable('logLevel', oneOf(LOG_LEVELS), 'info', `pino log level: ${LOG_LEVELS.join(', ')}`),
  ACCESS_TOKEN_TTL_SECONDS: variable('accessTokenTtl', int(1, 86400 * 7), '3600', 'Lifetime of an access token'),
  REFRESH_TOKEN_TTL_SECONDS: variable(
    'refreshTokenTtl',
    int(60, 86400 * 365),
    '1209600',
    'Lifetime of a refresh token (default 14 days)',
  ),
  LOGIN_MAX_FAILURES: variable(
    'loginMaxFailures',
    int(1, 1000),
    '5',
    'Failed logins for one user name before each further attempt must wait (1 s, doubling; docs/limits.md)',
  ),
  LOGIN_LOCK_SECONDS: variable(
    'loginLockSeconds',
    int(1, 86400),
    '300',
    'Longest wait (Retry-After) between failed logins for one user name or client address',
  ),
  BODY_LIMIT_BYTES: variable(
    'bodyLimit',
    int(1024, 100 * 1024 * 1024),
    '1048576',
    'Largest accepted request body (413 above it)',
  ),
  RATE_LIMIT_PER_MINUTE: variable(
    'rateLimitPerMinute',
    int(0, 10_000_000),
    '0',
    'Requests per minute per client address before 429 (0 = no limit)',
  ),
  PAGE_CACHE_MB: variable(
    'pageCacheMb',
    int(0, 4096),
    '64',
    'Memory for cached read responses, never older than the last commit (0 = off)',
  ),
  MAX_HEAP_MB: variable(
    'maxHeapMb',
    int(64, 65536),
    '256',
    'V8 heap limit of the `serve` process in MiB (keeps its memory flat)',
  ),
  DATABASE_POOL_MAX: variable(
    'databasePoolMax',
    int(1, 100),
    '10',
    'PostgreSQL connections per server process (pool size)',
  ),
  SQLITE_CACHE_MB: variable(
    'sqliteCacheMb',
    int(2, 4096),
    '64',
    'SQLite page cache per connection in MiB (filled as pages are read; pages of uncached reads come from it)',
  ),
  WEBHOOK_ALLOW_PRIVATE: variable(
    'webhookAllowPrivate',
    bool,
    'false',
    'Allow webhook URLs on private/loopback addresses (tests, local dev)',
  ),
  WEBHOOK_DISPATCHER: variable(
    'webhookDispatcher',
    bool,
    'true',
    '`serve` runs the webhook dispatcher (any number of processes may; they share the work through the database)',
  ),
  WEBHOOK_TIMEOUT_MS: variable('webhookTimeoutMs', int(100, 60000), '10000', 'Timeout of one webhook delivery'),
  WEBHOOK_CONCURRENCY: variable(
    'webhookConcurrency',
    int(1, 256),
    '8',
    'Deliveries in flight to one webhook, per dispatcher process',
  ),
  WEBHOOK_POLL_MS: variable(
    'webhookPollMs',
    int(5, 60000),
    '100',
    'How often an idle dispatcher looks for new events and due retries',
  ),
  WEBHOOK_RETRY_BASE_MS: variable(
    'webhookRetryBaseMs',
    int(1, 600000),
    '5000',
    'First retry delay; later ones grow from it (5 s, 30 s, 2 min, 10 min, 1 h, 2 h, 4 h, 8 h x3: 31 h)',
  ),
  WEBHOOK_RETENTION_DAYS: variable(
    'webhookRetentionDays',
    int(1, 3650),
    '30',
    'Delivered events and delivery-log rows older than this are pruned',
  ),
  WEBHOOK_BASE_URL: variable(
    'webhookBaseUrl',
    text(/^(|https?:\/\/[^\s]+)$/, 'empty or an http(s) URL'),
    '',
    'Public base URL of this server in webhook payloads (applicationBaseUrl, openWowiUrl); empty: http://HOST:PORT',
  ),
  NOW: variable('now', instant, '', 'Override the server clock (tests, e.g. 2027-01-01)'),
  WORKERS: variable(
    'workers',
    workerCount,
    '',
    `Server processes of \`serve\` (1-${MAX_WORKERS}; empty = one per core on PostgreSQL, 1 on SQLite)`,
  ),
  LOGIN_ADDRESS_MAX_FAILURES: variable(
    'loginAddressMaxFailures',
    int(1, 100000),
    '100',
    'Failed logins from one client address (any user names) before each further attempt must wait',
  ),
  TRUST_PROXY: variable(
    'trustProxy',
    proxies,
    'false',
    'Client address from X-Forwarded-For: false, true, proxy hops, or proxy addresses (throttles, rate limit)',
  ),
  HEADERS_TIMEOUT_MS: variable(
    'headersTimeoutMs',
    int(1000, 600_000),
    '10000',
    'Time a client has to send the request headers (408 and connection closed after it)',
  ),
  REQUEST_TIMEOUT_MS: variable(
    'requestTimeoutMs',
    int(1000, 3_600_000),
    '30000',
    'Time a client has to send the whole request, and longest idle time of a connection',
  ),
  KEEP_ALIVE_TIMEOUT_MS: variable(
    'keepAliveTimeoutMs',
    int(100, 600_000),
    '5000',
    'How long an idle keep-alive connection stays open between requests',
  ),
  SHUTDOWN_TIMEOUT_MS: variable(
    'shutdownTimeoutMs',
    int(100, 600_000),
    '10000',
    'On SIGTERM/SIGINT: time for requests in flight to finish before connections are closed',
  ),
  LOG_FORMAT: variable(
    'logFormat',
    oneOf(['json', 'pretty'] as const),
    'json',
    'Server log lines: json (one object per line, for machines) or pretty (pino-pretty, for a person at a terminal)',
  ),
};

type Variables = typeof VARIABLES;
export type ConfigName = keyof Variables;

/** The validated configuration: one property per variable, typed by its kind. */
export type Config = {
  [N in ConfigName as Variables[N]['key']]: ReturnType<Variables[N]['kind']['parse']>;
};

export class ConfigError extends Error {}

/** The default of a variable (for the few places that must know it without a loaded config). */
export const defaultOf = (name: ConfigName): string => VARIABLES[name].fallback;

/**
 * A database URL with its secrets as *** for messages and logs: the password of `user:password@` (which may hold an
 * unencoded '#' or '?': the userinfo ends at the last '@' before the path) and the password parameters of the query
 * string that libpq and pg read (`?password=`, `sslpassword`, `passfile`).
 */
export const redactUrl = (url: string): string =>
  url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)([^:/@]*):[^/]*@/i, '$1$2:***@')
    .replace(/([?&](?:password|sslpassword|passfile)=)[^&]*/gi, '$1***');

/**
 * Reads and validates the environment (an empty variable counts as unset); throws ConfigError with a one-line message
 * naming the variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(VARIABLES)) {
    // An empty value is an unset one (`PORT=` in an env file or compose file means "the default").
    const given = env[name];
    const raw = given === undefined || given === '' ? v.fallback : given;
    const problem = v.kind.check(raw);
    if (problem)
      throw new ConfigError(
        `Invalid configuration: ${name}=${JSON.stringify(name === 'DATABASE_URL' ? redactUrl(raw) : raw)} ${problem} (${v.doc}); set ${name} to a valid value, or unset it for the default ${JSON.stringify(v.fallback)}`,
      );
    out[v.key] = v.kind.parse(raw);
  }
  return Object.freeze(out as Config);
}

/** The text of `.env.example`: every variable with its meaning and default. */
export function envExample(): string {
  return (
    Object.entries(VARIABLES)
      .map(([name, v]) => `# ${v.doc}\n${name}=${v.fallback}`)
      .join('\n\n') + '\n'
  );
}
