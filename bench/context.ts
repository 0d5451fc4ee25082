// What every scenario gets: the run's options, the prepared database, the running server, and `measure`/`record`,
// which add the peak RSS, the server's own CPU time per request and the cache hits to every result row.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  cli,
  runLoad,
  startProcess,
  startServer,
  stopProcess,
  treeCpuMs,
  withPeakRss,
  type LoadResult,
  type ServerProcess,
  machineTicks,
  stealPercent,
} from './harness.ts';
import { ALL_PERMISSIONS } from '../src/auth/permissions.ts';
import { startCluster, type PgCluster } from '../scripts/pg-cluster.ts';
import { openDatabase } from '../src/db/database.ts';

export const RC = '/service/v1.2/RunningCostDistributionRead';
export const RA = '/service/v1.2/RentAccounting';
export const INCLUDES = 'includeUseUnits=true&includeCostTypes=true&includeExplanations=true&includeOptionTaxes=true';

export interface Options {
  scale: number;
  duration: number;
  connections: number;
  postgres: boolean;
  scaling: number[];
}

export interface Prepared {
  env: { DATABASE_URL: string };
  apiKey: string;
  loadSeconds: number;
  counts: { allocation_group_bases: number; contract_agreements: number; use_units: number; graduated: number };
}

export interface Row {
  scenario: string;
  scale: number;
  rps: number;
  p50: number;
  p99: number;
  /** Answers served from the page cache (`x-cache: hit`), of all answers. */
  hits: string;
  /** CPU time of the server's process tree per request (its own /proc counters: the load generator not counted). */
  cpuMs: number;
  peakRssMb: number;
  errors: number;
  /** Per cent of the machine's CPU time stolen by the hypervisor during the run (bench/harness.ts stealPercent). */
  steal: number;
  note: string;
}

export interface Measured extends LoadResult {
  peakRssMb: number;
  cpuMsPerRequest: number;
  stealPercent: number;
}

export interface Bench {
  options: Options;
  workdir: string;
  prepared: Prepared;
  server: ServerProcess;
  /** The server's process id (its tree is measured). */
  pid: number;
  token: string;
  headers: Record<string, string>;
  rows: Row[];
  /** Further result sections of scenarios (printed and written into the results file under their names). */
  sections: Record<string, Array<Record<string, string | number>>>;
  /** Runs `work` (a load against process `pid`) and adds its peak RSS and CPU ms per request. */
  measure(pid: number, work: () => Promise<LoadResult>): Promise<Measured>;
  /** A load script (bench/<script>) against process `pid`, measured. */
  load(pid: number, script: string, options: object): Promise<Measured>;
  record(scenario: string, r: Measured, note?: string): Row;
  /** Starts a process (stopped at the end of the run if still running). */
  spawn(
    command: string[],
    env: Record<string, string>,
    readyUrl: string,
  ): Promise<{ pid: number; stop(): Promise<void> }>;
  /** Stops the server and starts it again on the same database (an empty page cache); `env` adds variables. */
  restartServer(env?: Record<string, string>): Promise<void>;
  /** A fresh database with the demo data at `scale`, a user `bench` and an all-ledgers API key. */
  prepare(scale: number): Promise<Prepared>;
  newDatabaseUrl(): Promise<string>;
  startServer(env: Record<string, string>): Promise<ServerProcess>;
}

export async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', username: 'bench', password: 'bench-password' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Creates the bench context; `close()` stops every process it started and removes the work folder. */
export async function createBench(options: Options): Promise<Bench & { close(): Promise<void> }> {
  const running = new Set<{ stop(): Promise<void> }>();
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-bench-'));
  let cluster: PgCluster | undefined;
  let dbCounter = 0;
  const rows: Row[] = [];

  async function newDatabaseUrl(): Promise<string> {
    if (!options.postgres) return `sqlite:${path.join(workdir, `bench${++dbCounter}.sqlite`)}`;
    cluster ??= await startCluster();
    const name = `bench${++dbCounter}`;
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    return cluster.url.replace(/\/postgres$/, `/${name}`);
  }

  async function prepare(scale: number): Promise<Prepared> {
    const env = { DATABASE_URL: await newDatabaseUrl() };
    const t0 = performance.now();
    await cli(['demo', 'load', '--scale', String(scale), '--seed', '1'], env);
    const loadSeconds = (performance.now() - t0) / 1000;
    await cli(
      ['user', 'add', 'bench', '--password', 'bench-password', ...ALL_PERMISSIONS.flatMap((p) => ['--permission', p])],
      env,
    );
    const out = await cli(['apikey', 'create', '--name', 'bench', '--all-ledgers'], env);
    const apiKey = out.trim().split('\n').pop() as string;
    const database = openDatabase(env.DATABASE_URL);
    const count = async (t: 'allocation_group_bases' | 'contract_agreements' | 'use_units', kind?: string) => {
      let q = database.db.selectFrom(t).select((eb) => eb.fn.countAll<number>().as('n'));
      if (kind) q = q.where('kind' as never, '=', kind as never);
      return Number((await q.executeTakeFirstOrThrow()).n);
    };
    const counts = {
      allocation_group_bases: await count('allocation_group_bases'),
      contract_agreements: await count('contract_agreements'),
      use_units: await count('use_units'),
      graduated: await count('contract_agreements', 'GraduatedRentAgreement'),
    };
    await database.close();
    return { env, apiKey, loadSeconds, counts };
  }

  async function start(env: Record<string, string>): Promise<ServerProcess> {
    const s = await startServer(env);
    running.add(s);
    return s;
  }

  async function measure(pid: number, work: () => Promise<LoadResult>): Promise<Measured> {
    const cpu0 = treeCpuMs(pid);
    const ticks = machineTicks();
    const { result, peakRssMb } = await withPeakRss(pid, work);
    const cpu = treeCpuMs(pid) - cpu0;
    const requests = result.requests ?? result.ok + (result.non2xx ?? 0);
    return {
      ...result,
      peakRssMb,
      cpuMsPerRequest: requests > 0 ? cpu / requests : 0,
      stealPercent: stealPercent(ticks),
    };
  }

  const prepared = await prepare(options.scale);
  process.stderr.write(
    `demo load scale ${options.scale}: ${prepared.loadSeconds.toFixed(1)} s, ${JSON.stringify(prepared.counts)}\n`,
  );
  const bench: Bench & { close(): Promise<void> } = {
    options,
    workdir,
    prepared,
    server: await start(prepared.env),
    pid: 0,
    token: '',
    headers: {},
    rows,
    sections: {},
    measure,
    load: (pid, script, o) =>
      measure(pid, () => runLoad(script, { connections: options.connections, duration: options.duration, ...o })),
    record(scenario, r, note = '') {
      const answers = r.ok + (r.non2xx ?? 0);
      const row: Row = {
        scenario,
        scale: options.scale,
        rps: Math.round(r.rps),
        p50: +r.p50.toFixed(1),
        p99: +r.p99.toFixed(1),
        hits: r.hits === undefined ? '-' : `${r.hits}/${answers}`,
        cpuMs: +r.cpuMsPerRequest.toFixed(2),
        peakRssMb: r.peakRssMb,
        errors: r.errors + (r.non2xx ?? 0),
        steal: r.stealPercent,
        note,
      };
      rows.push(row);
      process.stderr.write(`${Object.values(row).join(' | ')}\n`);
      return row;
    },
    async spawn(command, env, readyUrl) {
      const child = await startProcess(command, env, readyUrl);
      const proc = { pid: child.pid as number, stop: () => stopProcess(child) };
      running.add(proc);
      return proc;
    },
    async restartServer(env = {}) {
      await bench.server.stop();
      running.delete(bench.server);
      bench.server = await start({ ...prepared.env, ...env });
      bench.pid = bench.server.child.pid as number;
      bench.token = await login(bench.server.base);
      bench.headers = { authorization: `Bearer ${bench.token}` };
    },
    prepare,
    newDatabaseUrl,
    startServer: start,
    async close() {
      for (const proc of running) await proc.stop();
      cluster?.stop();
      fs.rmSync(workdir, { recursive: true, force: true });
    },
  };
  bench.pid = bench.server.child.pid as number;
  bench.token = await login(bench.server.base);
  bench.headers = { authorization: `Bearer ${bench.token}` };
  return bench;
}

/** One scenario (or a group of them): registered in bench/run.ts with one line. */
export interface Scenario {
  /** Short name, matched by `--only`. */
  name: string;
  run(bench: Bench): Promise<void>;
}
