// The production runtime in the benchmark (docs/deployment.md): `serve --workers 1` against `--workers 2` for S2a,
// S2b (page cache off, so every request misses it) and S5, with server CPU seconds per 1,000 requests (independent
// of the load generator, which competes for the same cores) and the generator's own CPU share; peak RSS of the
// process tree at --workers 2 under S2b and S4b; idle RSS per worker; start-up medians of `wohnapi --help` and of
// `serve` until /health/ready answers. On SQLite, where more than one worker is refused, it measures why: S5 through
// two separate server processes on one SQLite file.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { promisify } from 'node:util';
import { ROOT, table, treeCpuMs, withPeakRss, type LoadResult } from './harness.ts';
import {
  childrenOf,
  projectTarget,
  reapedChildrenCpuSeconds,
  rssMb,
  sleep,
  startServe,
  startUp,
  type Server,
} from './runtime-processes.ts';
import { INCLUDES, RC, login } from './context.ts';

const execFileP = promisify(execFile);

export interface RuntimeBenchOptions {
  engine: 'sqlite' | 'postgres';
  scale: number;
  duration: number;
  connections: number;
  env: { DATABASE_URL: string };
  apiKey: string;
  counts: { allocation_group_bases: number; graduated: number };
}

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
  const cpu0 = treeCpuMs(server.pid) / 1000;
  const gen0 = reapedChildrenCpuSeconds();
  const { result, peakRssMb } = await withPeakRss(server.pid, () => runLoad(script, options));
  const cpu = treeCpuMs(server.pid) / 1000 - cpu0;
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
