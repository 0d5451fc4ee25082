// npm run bench [-- --scale 10] [--scaling 1,10,100] [--duration 10] [--connections 10] [--postgres]
// Loads the demo data into a fresh database, starts the production server, drives it over real HTTP from
// separate processes, prints a table and writes bench/results/<date>-<engine>-scale<N>.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  ROOT,
  cli,
  freePort,
  runLoad,
  startProcess,
  startServer,
  stopProcess,
  table,
  withPeakRss,
  type LoadResult,
} from './harness.ts';
import { startCluster, type PgCluster } from '../scripts/pg-cluster.ts';
import { openDatabase } from '../src/db/database.ts';
import { MASTER_PERMISSIONS, masterDataScenarios } from './master-data.ts';

const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '10' },
    scaling: { type: 'string', default: '' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    postgres: { type: 'boolean', default: false },
  },
});
const duration = Number(args.duration);
const connections = Number(args.connections);
const RC = '/service/v1.2/RunningCostDistributionRead';
const INCLUDES = 'includeUseUnits=true&includeCostTypes=true&includeExplanations=true&includeOptionTaxes=true';

const running = new Set<{ stop(): Promise<void> }>();
const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-bench-'));
let cluster: PgCluster | undefined;
let dbCounter = 0;

async function newDatabaseUrl(): Promise<string> {
  if (!args.postgres) return `sqlite:${path.join(workdir, `bench${++dbCounter}.sqlite`)}`;
  cluster ??= await startCluster();
  const name = `bench${++dbCounter}`;
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return cluster.url.replace(/\/postgres$/, `/${name}`);
}

interface Prepared {
  env: { DATABASE_URL: string };
  apiKey: string;
  loadSeconds: number;
  counts: { allocation_group_bases: number; contract_agreements: number; use_units: number; graduated: number };
}

async function prepare(scale: number): Promise<Prepared> {
  const env = { DATABASE_URL: await newDatabaseUrl() };
  const t0 = performance.now();
  await cli(['demo', 'load', '--scale', String(scale), '--seed', '1'], env);
  const loadSeconds = (performance.now() - t0) / 1000;
  await cli(
    [
      'user',
      'add',
      'bench',
      '--password',
      'bench-password',
      '--permission',
      'Umlageabrechnung-Stammdaten',
      '--permission',
      'Umlageabrechnung-lesen',
      '--permission',
      'Belegsystem Projekt ändern',
      '--permission',
      'Mietenbuchhaltung-lesen',
      ...MASTER_PERMISSIONS.flatMap((perm) => ['--permission', perm]),
    ],
    env,
  );
  const out = await cli(['apikey', 'create', '--name', 'bench', '--all-ledgers'], env);
  const apiKey = out.trim().split('\n').pop() as string;
  const database = openDatabase(env.DATABASE_URL);
  const rowsOf = async (t: 'allocation_group_bases' | 'contract_agreements' | 'use_units') => {
    const row = await database.db
      .selectFrom(t)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const gra = await database.db
    .selectFrom('contract_agreements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', 'GraduatedRentAgreement')
    .executeTakeFirstOrThrow();
  const counts = {
    allocation_group_bases: await rowsOf('allocation_group_bases'),
    contract_agreements: await rowsOf('contract_agreements'),
    use_units: await rowsOf('use_units'),
    graduated: Number(gra.n),
  };
  await database.close();
  return { env, apiKey, loadSeconds, counts };
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', username: 'bench', password: 'bench-password' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

interface Row {
  scenario: string;
  scale: number;
  rps: number;
  p50: number;
  p99: number;
  peakRssMb: number;
  errors: number;
  note: string;
}
const rows: Row[] = [];
let currentCacheOff = false;

function record(scenario: string, scale: number, r: LoadResult & { peakRssMb: number }, note = ''): Row {
  if (currentCacheOff) scenario += ' (no cache)';
  const row = {
    scenario,
    scale,
    rps: Math.round(r.rps),
    p50: +r.p50.toFixed(1),
    p99: +r.p99.toFixed(1),
    peakRssMb: r.peakRssMb,
    errors: r.errors + (r.non2xx ?? 0),
    note,
  };
  rows.push(row);
  process.stderr.write(
    `${scenario} scale ${scale}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, rss ${row.peakRssMb} MB${row.errors ? `, ${row.errors} errors` : ''}\n`,
  );
  return row;
}

async function load(pid: number, script: string, options: object): Promise<LoadResult & { peakRssMb: number }> {
  const { result, peakRssMb } = await withPeakRss(pid, () => runLoad(script, { connections, duration, ...options }));
  return { ...result, peakRssMb };
}

/** S2 and S3 at one scale: the same page repeated, varied pages, the last page. */
async function readScenarios(
  scale: number,
  p: Prepared,
  base: string,
  pid: number,
  headers: Record<string, string>,
  full: boolean,
  limit = 100,
) {
  const q = `apiKey=${p.apiKey}&limit=${limit}&${INCLUDES}`;
  const total = p.counts.allocation_group_bases;
  const lastOffset = Math.max(0, Math.floor((total - 1) / limit) * limit);
  const s2a = record(
    'S2a AllocationGroupBases same page',
    scale,
    await load(pid, 'load.ts', { url: `${base}${RC}/AllocationGroupBases?${q}`, headers }),
  );
  const varied = Array.from(
    { length: 400 },
    (_, i) =>
      `${RC}/AllocationGroupBases?${q}&offset=${(i * 37) % Math.max(1, total)}${i % 3 === 0 ? `&companyCodeId=${1 + (i % 4)}` : ''}`,
  );
  const s2b = full
    ? record(
        'S2b AllocationGroupBases varied',
        scale,
        await load(pid, 'load.ts', { url: base, paths: varied, headers }),
      )
    : undefined;
  const s3 = record(
    'S3 AllocationGroupBases last page',
    scale,
    await load(pid, 'load.ts', { url: `${base}${RC}/AllocationGroupBases?${q}&offset=${lastOffset}`, headers }),
    `offset ${lastOffset}`,
  );
  return { s2a, s2b, s3, path: `${RC}/AllocationGroupBases?${q}` };
}

async function main() {
  const scale = Number(args.scale);
  process.stderr.write(
    `bench: scale ${scale}, ${args.postgres ? 'postgres' : 'sqlite'}, ${duration}s per scenario, ${connections} connections, ${os.cpus().length} cores\n`,
  );
  const p = await prepare(scale);
  process.stderr.write(`demo load scale ${scale}: ${p.loadSeconds.toFixed(1)} s, ${JSON.stringify(p.counts)}\n`);
  const server = await startServer(p.env);
  running.add(server);
  const pid = server.child.pid as number;
  const token = await login(server.base);
  const headers = { authorization: `Bearer ${token}` };

  record(
    'S1 DistributionPeriods',
    scale,
    await load(pid, 'load.ts', { url: `${server.base}${RC}/DistributionPeriods?apiKey=${p.apiKey}`, headers }),
  );
  const { s2a, s2b, path: s2path } = await readScenarios(scale, p, server.base, pid, headers, true);

  // B1: a bare node:http server answering with the same bytes as S2.
  const s2body = await (await fetch(`${server.base}${s2path}`, { headers })).arrayBuffer();
  const bodyFile = path.join(workdir, 's2.json');
  fs.writeFileSync(bodyFile, Buffer.from(s2body));
  const b1port = await freePort();
  const b1child = await startProcess(
    ['--import', 'tsx', `${ROOT}bench/baseline-server.ts`, String(b1port), bodyFile],
    {},
    `http://127.0.0.1:${b1port}/`,
  );
  running.add({ stop: () => stopProcess(b1child) });
  const b1r = record(
    'B1 bare node:http, same bytes as S2',
    scale,
    await load(b1child.pid as number, 'load.ts', { url: `http://127.0.0.1:${b1port}/` }),
    `${s2body.byteLength} bytes`,
  );
  await stopProcess(b1child);

  // B2: S2 through the same app without authentication and ledger scoping.
  const b2port = await freePort();
  const b2child = await startProcess(
    ['--import', 'tsx', `${ROOT}bench/noauth-server.ts`, String(b2port)],
    p.env,
    `http://127.0.0.1:${b2port}/health/ready`,
  );
  running.add({ stop: () => stopProcess(b2child) });
  const b2 = record(
    'B2 S2a without auth and scoping',
    scale,
    await load(b2child.pid as number, 'load.ts', { url: `http://127.0.0.1:${b2port}${s2path}` }),
  );
  await stopProcess(b2child);

  record(
    'S4a GraduatedRentAgreement v1.2 limit=100',
    scale,
    await load(pid, 'load.ts', {
      url: `${server.base}/service/v1.2/RentAccounting/ContractAgreement/GraduatedRentAgreement?apiKey=${p.apiKey}&limit=100`,
      headers,
    }),
  );
  record(
    'S4b GraduatedRentAgreement v1.0 complete list',
    scale,
    await load(pid, 'load.ts', {
      url: `${server.base}/service/v1.0/RentAccounting/GraduatedRentAgreement?apiKey=${p.apiKey}`,
      headers,
    }),
    `${p.counts.graduated} records`,
  );
  const base = server.base;
  const agreements = p.counts.use_units; // about one current agreement per use unit
  rows.push(
    ...(await masterDataScenarios({ base, pid, apiKey: p.apiKey, headers, scale, duration, connections, agreements })),
  );

  const database = openDatabase(p.env.DATABASE_URL);
  const uu = await database.db
    .selectFrom('use_units')
    .select(['id', 'economic_unit_id', 'building_id', 'company_code_id'])
    .where('building_id', 'is not', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirstOrThrow();
  await database.close();
  record(
    'S5 project create + 3 assigns (projects/s, 32 clients)',
    scale,
    await load(pid, 'projects-load.ts', {
      connections: 32,
      base: server.base,
      prefix: '/service/v1.2/AccountancyProjectEdit',
      token,
      apiKey: p.apiKey,
      ledger: uu.company_code_id,
      economicUnit: uu.economic_unit_id,
      building: uu.building_id,
      useUnit: uu.id,
    }),
  );

  record(
    'S7 token endpoint (password grant)',
    scale,
    await load(pid, 'load.ts', {
      url: `${server.base}/oauth2/token`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password&username=bench&password=bench-password',
    }),
  );
  await server.stop();

  // S6: import throughput of the exported demo data into a fresh database.
  const file = path.join(workdir, 'export.json');
  await cli(['export', file], p.env);
  const importEnv = { DATABASE_URL: await newDatabaseUrl() };
  await cli(['migrate'], importEnv);
  const t0 = performance.now();
  const importOut = await cli(['import', file], importEnv);
  const seconds = (performance.now() - t0) / 1000;
  const records = Number(/([\d,]+) records/.exec(importOut)?.[1]?.replace(/,/g, '') ?? 0);
  rows.push({
    scenario: 'S6 import (records/s, whole CLI run)',
    scale,
    rps: Math.round(records / seconds),
    p50: 0,
    p99: 0,
    peakRssMb: 0,
    errors: 0,
    note: `${records} records in ${seconds.toFixed(1)} s, ${(fs.statSync(file).size / 1e6).toFixed(0)} MB`,
  });

  // Scaling run: S2 and S3 at several scales, on the database path (page cache off), with a page size that is
  // full at every scale so that only the data size differs.
  const scaling: Array<{
    scale: number;
    limit: number;
    s2p50: number;
    s2p99: number;
    s3p99: number;
    s3offset: number;
  }> = [];
  if (args.scaling) {
    const scales = [...new Set([...args.scaling.split(',').map(Number), scale])].sort((a, b) => a - b);
    const prepared: Array<{ s: number; ps: Prepared }> = [];
    for (const s of scales) prepared.push({ s, ps: await prepare(s) });
    const limit = Math.min(100, ...prepared.map(({ ps }) => ps.counts.allocation_group_bases));
    for (const { s, ps } of prepared) {
      const srv = await startServer({ ...ps.env, PAGE_CACHE_MB: '0' });
      currentCacheOff = true;
      running.add(srv);
      const tok = await login(srv.base);
      const r = await readScenarios(
        s,
        ps,
        srv.base,
        srv.child.pid as number,
        { authorization: `Bearer ${tok}` },
        false,
        limit,
      );
      const s3offset = Math.floor((ps.counts.allocation_group_bases - 1) / limit) * limit;
      scaling.push({ scale: s, limit, s2p50: r.s2a.p50, s2p99: r.s2a.p99, s3p99: r.s3.p99, s3offset });
      await srv.stop();
    }
  }

  const ratios = {
    'S2a / B1 throughput (target >= 0.5)': +(s2a.rps / b1r.rps).toFixed(2),
    'S2b / B1 throughput (target >= 0.25)': s2b ? +(s2b.rps / b1r.rps).toFixed(2) : null,
    'S2a / B2 throughput (cost of auth + scoping)': +(s2a.rps / b2.rps).toFixed(2),
  };
  console.log(table(rows as unknown as Array<Record<string, string | number>>));
  console.log('');
  for (const [k, v] of Object.entries(ratios)) console.log(`${k}: ${v}`);
  if (scaling.length > 1) {
    console.log('\nScaling (page cache off):');
    console.log(table(scaling));
  }
  const result = {
    date: new Date().toISOString(),
    machine: {
      cores: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    engine: args.postgres ? 'postgres' : 'sqlite',
    duration,
    connections,
    scale,
    counts: p.counts,
    demoLoadSeconds: p.loadSeconds,
    rows,
    ratios,
    scaling,
  };
  const out = path.join(ROOT, 'bench', 'results', `${result.date.slice(0, 10)}-${result.engine}-scale${scale}.json`);
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nresults written to ${path.relative(process.cwd(), out)}`);
}

try {
  await main();
} finally {
  for (const proc of running) await proc.stop();
  cluster?.stop();
  fs.rmSync(workdir, { recursive: true, force: true });
}
