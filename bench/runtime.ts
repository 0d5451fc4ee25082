// The production runtime in the benchmark (docs/deployment.md): `serve --workers 1` against `--workers 2` for S2a,
// S2b (page cache off, so every request misses it) and S5, with server CPU seconds per 1,000 requests (independent
// of the load generator, which competes for the same cores) and the generator's own CPU share; peak RSS of the
// process tree at --workers 2 under S2b and S4b; idle RSS per worker; start-up medians of `wohnapi --help` and of
// `serve` until /health/ready answers. On SQLite, where more than one worker is refused, it measures why: S5 through
// two separate server processes on one SQLite file.
import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { promisify } from 'node:util';
import { ROOT, freePort, stopProcess, table, withPeakRss, type LoadResult } from './harness.ts';
import { openDatabase } from '../src/db/database.ts';

const execFileP = promisify(execFile);
const BIN = `${ROOT}bin/wohnapi.js`;
const RC = '/service/v1.2/RunningCostDistributionRead';
const INCLUDES = 'includeUseUnits=true&includeCostTypes=true&includeExplanations=true&includeOptionTaxes=true';
const TICKS = 100; // USER_HZ of /proc/<pid>/stat on Linux

export interface RuntimeBenchOptions {
  engine: 'sqlite' | 'postgres';
  scale: number;
  duration: number;
  connections: number;
  env: { DATABASE_URL: string };
  apiKey: string;
  counts: { allocation_group_bases: number; graduated: number };
}

interface Server {
  pid: number;
  base: string;
  stop(): Promise<void>;
}

/** Starts `serve --workers N` and waits until all workers run and it answers; its log goes to `logFile` if given. */
async function startServe(env: Record<string, string>, workers: number, logFile?: string): Promise<Server> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [BIN, 'serve', '--workers', String(workers)], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', logFile ? fs.openSync(logFile, 'a') : 'ignore', 'inherit'],
  });
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`serve --workers ${workers} exited with ${child.exitCode}`);
    if (childrenOf(child.pid as number).length === workers && (await ready(base))) break;
    await sleep(50);
  }
  return { pid: child.pid as number, base, stop: () => stopProcess(child) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ready(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/health/ready`)).ok;
  } catch {
    return false;
  }
}

function childrenOf(pid: number): number[] {
  try {
    const text = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return text ? text.split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
}

/** CPU seconds (user + system) used so far by a process and its live descendants. */
function treeCpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const own = (Number(fields[11]) + Number(fields[12])) / TICKS; // utime, stime
    return own + childrenOf(pid).reduce((sum, c) => sum + treeCpuSeconds(c), 0);
  } catch {
    return 0;
  }
}

/** CPU seconds of this process's waited-for children (the load generators), from /proc/self/stat. */
function reapedChildrenCpuSeconds(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS; // cutime, cstime
}

const rssMb = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

/** Runs a load generator script; returns its result and its stderr (projects-load prints its first errors there). */
async function runLoad(script: string, options: object): Promise<LoadResult & { stderr: string }> {
  const { stdout, stderr } = await execFileP(
    process.execPath,
    ['--import', 'tsx', `${ROOT}bench/${script}`, JSON.stringify(options)],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  return { ...(JSON.parse(stdout.trim().split('\n').pop() as string) as LoadResult), stderr };
}

interface Measured {
  scenario: string;
  workers: number;
  rps: number;
  p99: number;
  errors: number;
  cpuSecPer1000: number;
  generatorCpuShare: number;
  peakRssMb: number;
}

/** One load against a server: throughput, server CPU per 1,000 requests, the generator's CPU share, peak RSS. */
async function measure(
  scenario: string,
  workers: number,
  server: Server,
  script: string,
  options: object,
  requestsPerUnit = 1,
): Promise<Measured> {
  const cpu0 = treeCpuSeconds(server.pid);
  const gen0 = reapedChildrenCpuSeconds();
  const { result, peakRssMb } = await withPeakRss(server.pid, () => runLoad(script, options));
  const cpu = treeCpuSeconds(server.pid) - cpu0;
  const gen = reapedChildrenCpuSeconds() - gen0;
  const requests = result.ok * requestsPerUnit;
  const seconds = (options as { duration: number }).duration;
  const row = {
    scenario,
    workers,
    rps: Math.round(result.rps),
    p99: +result.p99.toFixed(1),
    errors: result.errors + (result.non2xx ?? 0),
    cpuSecPer1000: requests ? +((cpu / requests) * 1000).toFixed(3) : 0,
    generatorCpuShare: +(gen / (seconds * os.cpus().length)).toFixed(2),
    peakRssMb,
  };
  process.stderr.write(`runtime: ${JSON.stringify(row)}\n`);
  return row;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Median wall time of `wohnapi --help`, and of `serve --workers 1` until /health/ready answers (migrated database). */
async function startUp(env: Record<string, string>, runs: number) {
  const help: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [BIN, '--help'], { stdio: 'ignore' });
    if (r.status !== 0) throw new Error('wohnapi --help failed');
    help.push(performance.now() - t0);
  }
  const serve: number[] = [];
  for (let i = 0; i < Math.max(3, Math.ceil(runs / 2)); i++) {
    const port = await freePort();
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'serve', '--workers', '1'], {
      env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    while (!(await ready(`http://127.0.0.1:${port}`))) {
      if (child.exitCode !== null) throw new Error('serve exited');
      await sleep(5);
    }
    serve.push(performance.now() - t0);
    await stopProcess(child);
  }
  return { helpMedianMs: Math.round(median(help)), serveReadyMedianMs: Math.round(median(serve)), runs };
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', username: 'bench', password: 'bench-password' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

async function projectTarget(url: string) {
  const database = openDatabase(url);
  try {
    return await database.db
      .selectFrom('use_units')
      .select(['id', 'economic_unit_id', 'building_id', 'company_code_id'])
      .where('building_id', 'is not', null)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
  } finally {
    await database.close();
  }
}

export async function runtimeBench(o: RuntimeBenchOptions) {
  const load = { connections: o.connections, duration: o.duration };
  const q = `apiKey=${o.apiKey}&limit=100&${INCLUDES}`;
  const total = o.counts.allocation_group_bases;
  const varied = Array.from(
    { length: 400 },
    (_, i) => `${RC}/AllocationGroupBases?${q}&offset=${(i * 37) % Math.max(1, total)}`,
  );
  const uu = await projectTarget(o.env.DATABASE_URL);
  const s5 = (base: string, token: string, connections: number) => ({
    connections,
    duration: o.duration,
    base,
    prefix: '/service/v1.2/AccountancyProjectEdit',
    token,
    apiKey: o.apiKey,
    ledger: uu.company_code_id,
    economicUnit: uu.economic_unit_id,
    building: uu.building_id,
    useUnit: uu.id,
  });

  const startup = await startUp(o.env, 10);
  process.stderr.write(`runtime: start-up ${JSON.stringify(startup)}\n`);

  const rows: Measured[] = [];
  const idle: Array<{ workers: number; primaryMb: number; workerMb: number[] }> = [];
  const counts = o.engine === 'postgres' ? [1, 2] : [1];
  for (const workers of counts) {
    const server = await startServe(o.env, workers);
    try {
      await sleep(2000);
      idle.push({ workers, primaryMb: rssMb(server.pid), workerMb: childrenOf(server.pid).map(rssMb) });
      const headers = { authorization: `Bearer ${await login(server.base)}` };
      rows.push(
        await measure('S2a same page', workers, server, 'load.ts', {
          ...load,
          url: `${server.base}${RC}/AllocationGroupBases?${q}`,
          headers,
        }),
      );
      rows.push(
        await measure('S4b GraduatedRentAgreement v1.0 complete list', workers, server, 'load.ts', {
          ...load,
          url: `${server.base}/service/v1.0/RentAccounting/GraduatedRentAgreement?apiKey=${o.apiKey}`,
          headers,
        }),
      );
      const token = headers.authorization.slice('Bearer '.length);
      rows.push(
        await measure(
          'S5 projects (4 requests each)',
          workers,
          server,
          'projects-load.ts',
          s5(server.base, token, 32),
          4,
        ),
      );
    } finally {
      await server.stop();
    }
    // S2b with the page cache off: every request reads the database.
    const nocache = await startServe({ ...o.env, PAGE_CACHE_MB: '0' }, workers);
    try {
      const headers = { authorization: `Bearer ${await login(nocache.base)}` };
      rows.push(
        await measure('S2b varied pages, cache off', workers, nocache, 'load.ts', {
          ...load,
          url: nocache.base,
          paths: varied,
          headers,
        }),
      );
    } finally {
      await nocache.stop();
    }
  }

  // SQLite: the measurement behind refusing --workers > 1 — S5 through two server processes on one file.
  let sqliteTwoProcesses: object | undefined;
  if (o.engine === 'sqlite') {
    const logFile = `${os.tmpdir()}/wohnapi-bench-two-processes-${process.pid}.log`;
    const [a, b] = [await startServe(o.env, 1, logFile), await startServe(o.env, 1, logFile)];
    try {
      const [ta, tb] = [await login(a.base), await login(b.base)];
      const [ra, rb] = await Promise.all([
        runLoad('projects-load.ts', s5(a.base, ta, 16)),
        runLoad('projects-load.ts', s5(b.base, tb, 16)),
      ]);
      sqliteTwoProcesses = {
        projectsOk: ra.ok + rb.ok,
        projectsFailed: ra.errors + rb.errors,
        projectsPerSecond: Math.round(ra.rps + rb.rps),
        firstErrors: [...ra.stderr.split('\n'), ...rb.stderr.split('\n')].filter(Boolean).slice(0, 2),
        // what the servers logged for their 500s: the SQLite error codes and how often each occurred
        loggedErrorCodes: Object.fromEntries(
          [...fs.readFileSync(logFile, 'utf8').matchAll(/"code":"(SQLITE_\w+)"/g)]
            .map((m) => m[1] as string)
            .reduce((counts, code) => counts.set(code, (counts.get(code) ?? 0) + 1), new Map<string, number>()),
        ),
      };
      process.stderr.write(`runtime: SQLite, two processes: ${JSON.stringify(sqliteTwoProcesses)}\n`);
    } finally {
      await a.stop();
      await b.stop();
      fs.rmSync(logFile, { force: true });
    }
  }

  const rps = (scenario: string, workers: number) =>
    rows.find((r) => r.scenario === scenario && r.workers === workers)?.rps;
  const scaling = Object.fromEntries(
    [...new Set(rows.map((r) => r.scenario))].map((s) => {
      const [one, two] = [rps(s, 1), rps(s, 2)];
      return [s, one && two ? +(two / one).toFixed(2) : null];
    }),
  );
  console.log(`\nRuntime (${o.engine}, scale ${o.scale}, ${os.cpus().length} cores):`);
  console.log(table(rows as unknown as Array<Record<string, string | number>>));
  console.log(`scaling --workers 2 / --workers 1 (rps): ${JSON.stringify(scaling)}`);
  console.log(`idle RSS (MB): ${JSON.stringify(idle)}`);
  console.log(
    `start-up medians: wohnapi --help ${startup.helpMedianMs} ms, serve ready ${startup.serveReadyMedianMs} ms`,
  );
  const result = {
    date: new Date().toISOString(),
    machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version, loadAverage: os.loadavg() },
    engine: o.engine,
    scale: o.scale,
    duration: o.duration,
    connections: o.connections,
    rows,
    scaling,
    idleRssMb: idle,
    startup,
    sqliteTwoProcesses,
  };
  const out = `${ROOT}bench/results/${result.date.slice(0, 10)}-${o.engine}-scale${o.scale}-runtime.json`;
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`runtime results written to ${out.slice(ROOT.length)}`);
  return result;
}
