// `wohnapi serve` as a group of processes (docs/deployment.md): a primary that has the database migrated once (in a
// short-lived process, so that the primary itself stays small), then forks N workers (node:cluster) that share the
// listening port, each with a bounded V8 heap. The primary restarts a worker that dies (with backoff), gives up with
// the worker's own error when workers keep failing at start, and on SIGTERM/SIGINT lets every worker drain its
// requests, killing what is left after a bounded time.
// Workers are stateless: everything they share lives in the database (caches check its data version; background
// jobs take leases there), so the same holds for several machines on one PostgreSQL.
import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import { MAX_WORKERS, type Config } from '../config.ts';
import { UsageError } from '../cli/errors.ts';
import { relayClusterMetrics } from './cluster-metrics.ts';

/** Worker start failures in a row (none became ready in between) after which the primary gives up. */
export const MAX_START_FAILURES = 3;
/**
 * After SIGTERM/SIGINT the workers get SHUTDOWN_TIMEOUT_MS for their requests (then they close the connections left)
 * and this much more to close their pools and exit, before the primary kills them.
 */
export const DRAIN_MARGIN_MS = 5_000;

/**
 * How long the primary waits for its workers after SIGTERM/SIGINT: their requests (SHUTDOWN_TIMEOUT_MS) and, at the
 * same time, the webhook deliveries under way, each of which ends within WEBHOOK_TIMEOUT_MS and is recorded (killed,
 * a worker would leave an attempt unrecorded, sent again later); then DRAIN_MARGIN_MS to close the pools and exit.
 */
export const drainTimeoutMs = (config: Readonly<Config>): number =>
  Math.max(config.shutdownTimeoutMs, config.webhookDispatcher ? config.webhookTimeoutMs : 0) + DRAIN_MARGIN_MS;
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 15_000;
/** A worker that served this long before dying starts the backoff afresh. */
const STABLE_MS = 60_000;

/** Messages a worker (or the prepare process) sends to the primary. */
type WorkerMessage =
  | { type: 'ready' }
  | { type: 'prepared'; bannerExtra: string[] }
  | { type: 'start-failed'; message: string; final?: boolean };

const SQLITE_REFUSAL =
  'SQLite takes one writer at a time and several server processes on one file fail writes with SQLITE_BUSY ' +
  '(measured, docs/deployment.md): use --workers 1 on SQLite, or PostgreSQL for several workers';

/**
 * The number of workers: the --workers flag, else WORKERS, else one per core on PostgreSQL and one on SQLite.
 * Throws UsageError (one line) for a malformed flag and for more than one worker on SQLite.
 */
export function workerCount(flag: string | undefined, config: Readonly<Config>): number {
  let n: number;
  if (flag !== undefined) {
    if (!/^[0-9]+$/.test(flag) || Number(flag) < 1 || Number(flag) > MAX_WORKERS)
      throw new UsageError(`--workers must be a whole number from 1 to ${MAX_WORKERS} (got '${flag}')`);
    n = Number(flag);
  } else if (config.workers !== undefined) {
    n = config.workers;
  } else {
    return config.databaseUrl.startsWith('sqlite:') ? 1 : Math.min(MAX_WORKERS, os.availableParallelism());
  }
  if (n > 1 && config.databaseUrl.startsWith('sqlite:'))
    // named as the operator gave it: the flag, or the variable
    throw new UsageError(`${flag !== undefined ? `--workers ${n}` : `WORKERS=${n}`}: ${SQLITE_REFUSAL}`);
  return n;
}

const LEVELS: Record<Config['logLevel'], number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};
let logLevel = LEVELS.info;
let logFormat: Config['logFormat'] = 'json';

/**
 * One log line in the server's format (pino's JSON fields, or with LOG_FORMAT=pretty a line for people like
 * pino-pretty's), so that the primary's lines join the same stream.
 */
function log(level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown> = {}): void {
  if (LEVELS[level] < logLevel) return;
  if (logFormat === 'pretty') {
    const time = new Date().toISOString().slice(11, 23);
    const extra = Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : '';
    process.stdout.write(`[${time}] ${level.toUpperCase()} (primary ${process.pid}): ${msg}${extra}\n`);
    return;
  }
  const line = { level: LEVELS[level], time: Date.now(), pid: process.pid, role: 'primary', ...fields, msg };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** What this process is: the primary, the one-off prepare process (migrations, demo set-up), or a worker. */
export const role = (): 'primary' | 'prepare' | 'worker' =>
  cluster.isPrimary ? 'primary' : process.env.WOHNAPI_ROLE === 'prepare' ? 'prepare' : 'worker';

/**
 * Young-generation size of a worker in MiB (V8's default is 16): 4 keeps about 25 MB less per worker resident for
 * about 5% more CPU per request (measured, docs/deployment.md). A `--max-semi-space-size` given to node wins.
 */
const SEMI_SPACE_MB = 4;

/** Forked processes get the bounded heap; the primary itself only supervises. */
function setUp(config: Readonly<Config>): void {
  logLevel = LEVELS[config.logLevel];
  logFormat = config.logFormat;
  const own = process.execArgv.filter((a) => !a.startsWith('--max-old-space-size'));
  cluster.setupPrimary({
    execArgv: [
      ...own,
      `--max-old-space-size=${config.maxHeapMb}`,
      ...(own.some((a) => a.startsWith('--max-semi-space-size')) ? [] : [`--max-semi-space-size=${SEMI_SPACE_MB}`]),
    ],
  });
}

/**
 * Runs the prepare step (migrations, demo set-up: src/cli/serve.ts) once, in a process of its own so that the
 * primary never loads the database modules; resolves with the demo lines. If it fails, exits 1 with its error.
 */
export function runPrepare(config: Readonly<Config>): Promise<string[]> {
  setUp(config);
  return new Promise((resolve) => {
    let result: string[] | undefined;
    let error = 'the prepare step exited without an answer';
    const child = cluster.fork({ WOHNAPI_ROLE: 'prepare', MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' });
    child.on('message', (m: WorkerMessage) => {
      if (m.type === 'prepared') result = m.bannerExtra;
      else if (m.type === 'start-failed') error = m.message;
    });
    child.on('exit', () => {
      if (result) return resolve(result);
      process.stderr.write(`wohnapi: error: ${error}\n`);
      process.exit(1);
    });
  });
}

export interface PrimaryOptions {
  workers: number;
  /** Lines the first worker prints after its start-up banner (demo login). */
  bannerExtra: string[];
}

/** Runs the primary until the workers are stopped by a signal (exit 0) or keep failing to start (exit 1). */
export function runPrimary(config: Readonly<Config>, options: PrimaryOptions): Promise<never> {
  setUp(config);
  // The per-client request limit is counted in each process; divided, the workers together allow the configured rate.
  const rateLimit = config.rateLimitPerMinute
    ? String(Math.max(1, Math.ceil(config.rateLimitPerMinute / options.workers)))
    : '0';
  const state = new Map<Worker, { index: number; ready: boolean; error?: string; final?: boolean }>();
  let startFailures = 0;
  let recentCrashes = 0;
  let lastCrash = 0;
  let stopping = false;
  let bannerShown = false;
  // /metrics sums the workers that are ready (src/runtime/cluster-metrics.ts)
  relayClusterMetrics(() => [...state].filter(([, s]) => s.ready).map(([worker]) => worker));

  const fork = (index: number) => {
    const worker = cluster.fork({
      // The first worker prints the start-up banner (once), the others stay quiet.
      WOHNAPI_BANNER: index === 0 && !bannerShown ? JSON.stringify(options.bannerExtra) : '',
      RATE_LIMIT_PER_MINUTE: rateLimit,
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    });
    state.set(worker, { index, ready: false });
    worker.on('message', (m: WorkerMessage) => {
      const s = state.get(worker);
      if (!s) return;
      if (m.type === 'ready') {
        s.ready = true;
        startFailures = 0;
        if (s.index === 0) bannerShown = true;
        log('info', 'worker ready', { worker: s.index, workerPid: worker.process.pid });
      } else if (m.type === 'start-failed') {
        s.error = m.message;
        s.final = m.final === true;
      }
    });
  };

  return new Promise<never>(() => {
    const finish = (code: number) => process.exit(code);
    cluster.on('exit', (worker, code, signal) => {
      const s = state.get(worker);
      state.delete(worker);
      if (!s) return;
      if (stopping) {
        if (state.size === 0) finish(0);
        return;
      }
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (!s.ready) {
        startFailures++;
        const error = s.error ?? `a worker exited at start with ${how}`;
        if (s.final || startFailures >= MAX_START_FAILURES) {
          stopping = true;
          // The prepare step has created the demo user and key (shown only once): a server that never started
          // still hands them over, or they would be lost with the first start (decisions §1).
          if (!bannerShown && options.bannerExtra.length > 0)
            process.stdout.write(
              `The server did not start, but the demo set-up is done: keep these.\n${options.bannerExtra.join('\n')}\n`,
            );
          process.stderr.write(
            s.final
              ? `wohnapi: error: ${error}\n`
              : `wohnapi: error: ${error} (workers failed to start ${startFailures} times in a row; giving up)\n`,
          );
          for (const w of state.keys()) w.process.kill('SIGKILL');
          finish(1);
          return;
        }
        const delay = FIRST_BACKOFF_MS * 2 ** (startFailures - 1);
        log('warn', 'worker failed at start; restarting', { worker: s.index, error, delayMs: delay });
        setTimeout(() => stopping || fork(s.index), delay);
        return;
      }
      const now = Date.now();
      recentCrashes = now - lastCrash > STABLE_MS ? 1 : recentCrashes + 1;
      lastCrash = now;
      const delay = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (recentCrashes - 1));
      log('error', 'worker died; restarting', {
        worker: s.index,
        workerPid: worker.process.pid,
        exit: how,
        delayMs: delay,
      });
      setTimeout(() => stopping || fork(s.index), delay);
    });

    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.on(signal, () => {
        if (stopping) return;
        stopping = true;
        const drainMs = drainTimeoutMs(config);
        log('info', 'draining workers', { signal, workers: state.size, timeoutMs: drainMs });
        if (state.size === 0) finish(0);
        for (const w of state.keys()) w.process.kill('SIGTERM');
        setTimeout(() => {
          log('error', 'workers still busy after the drain timeout; killing them', { workers: state.size });
          for (const w of state.keys()) w.process.kill('SIGKILL');
          finish(1);
        }, drainMs).unref();
      });
    }

    log('info', 'starting workers', { workers: options.workers, maxHeapMb: config.maxHeapMb });
    for (let i = 0; i < options.workers; i++) fork(i);
  });
}

/** In a worker: the lines to print after the banner, or undefined when this worker prints no banner. */
export function workerBanner(): string[] | undefined {
  const raw = process.env.WOHNAPI_BANNER;
  return raw ? (JSON.parse(raw) as string[]) : undefined;
}

/** In a worker: tells the primary that it serves, or why it could not start (then exits 1). */
export function reportReady(): void {
  process.send?.({ type: 'ready' } satisfies WorkerMessage);
}

/** In the prepare process: hands the demo lines to the primary and exits. */
export async function reportPrepared(bannerExtra: string[]): Promise<never> {
  await send({ type: 'prepared', bannerExtra });
  process.exit(0);
}

const send = (message: WorkerMessage) =>
  new Promise<void>((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });

/** Why the port could not be opened, with the next step. Only a port in use may free itself (a process being
 *  replaced still draining): it is tried again like any other start failure; the others would fail the same way. */
const RETRIED = new Set(['EADDRINUSE']);
const LISTEN_ERRORS: Record<string, (address: string) => string> = {
  EADDRINUSE: (a) => `${a} is already in use; stop what listens there, or set PORT to a free port`,
  EACCES: (a) => `not allowed to listen on ${a}; set PORT to 1024 or above, or run with the rights for that port`,
  EADDRNOTAVAIL: (a) => `${a} is not an address of this machine; set HOST to one of its addresses, e.g. 127.0.0.1`,
  ENOTFOUND: (a) => `the host of ${a} is not known; set HOST to an address of this machine, e.g. 127.0.0.1`,
  EAI_AGAIN: (a) => `the host of ${a} could not be looked up; set HOST to an address of this machine, e.g. 127.0.0.1`,
};

export async function reportStartFailure(err: unknown): Promise<never> {
  const e = err as NodeJS.ErrnoException & { syscall?: string; hostname?: string; address?: string; port?: number };
  const listen = e.syscall === 'listen' || e.syscall === 'bind' || e.syscall === 'getaddrinfo';
  const explain = listen && e.code ? LISTEN_ERRORS[e.code] : undefined;
  const address = `${e.address ?? e.hostname ?? (process.env.HOST || '127.0.0.1')}${e.port ? `:${e.port}` : ''}`;
  const message = explain
    ? `cannot listen: ${explain(address)}`
    : ((err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '');
  await send({ type: 'start-failed', message, final: explain !== undefined && !RETRIED.has(e.code ?? '') });
  process.exit(1);
}
