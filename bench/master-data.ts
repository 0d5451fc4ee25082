// Master-data scenarios (docs/master-data.md): M1 LicenseAgreements v1.2 limit=100, cold (every request a page the
// cache has not seen) and repeated (the same page); M2 the sync a vendor client runs (UseUnits, LicenseAgreements and
// Persons and Loans paged with limit=100, offset += 100 until a short page), in records/s. Called from bench/run.ts; also runs
// alone: node --import tsx bench/master-data.ts [--scale 100] [--duration 10]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cli, runLoad, startServer, table, treeCpuMs, withPeakRss, type LoadResult } from './harness.ts';

import { PERMISSIONS } from '../src/auth/permissions.ts';

const MASTER_PERMISSIONS = [PERMISSIONS.personsRead, PERMISSIONS.objectDataRead, PERMISSIONS.loansRead];
/** The lists of the master-data sync, in the order a client reads them. */
export const SYNC = [
  'v1.2/CommercialInventory/UseUnits',
  'v1.2/RentAccounting/LicenseAgreements',
  'v1.2/PersonsRead/Persons',
  'v1.2/Loans/Loan',
];

export interface MasterRow {
  scenario: string;
  scale: number;
  rps: number;
  p50: number;
  p99: number;
  peakRssMb: number;
  errors: number;
  note: string;
}

/** One client paging through every sync list; records per second over the whole run. */
async function sync(base: string, apiKey: string, headers: Record<string, string>) {
  let records = 0;
  let pages = 0;
  const t0 = performance.now();
  for (const list of SYNC)
    for (let offset = 0; ; offset += 100) {
      const res = await fetch(
        `${base}/openwowi/${list}?apiKey=${apiKey}&limit=100&offset=${offset}&showNullValues=true`,
        {
          headers,
        },
      );
      if (res.status !== 200) throw new Error(`${list} offset ${offset}: ${res.status}`);
      const page = (await res.json()) as unknown[];
      records += page.length;
      pages++;
      if (page.length < 100) break;
    }
  const seconds = (performance.now() - t0) / 1000;
  return { records, seconds, pages };
}

export async function masterDataScenarios(o: {
  base: string;
  pid: number;
  apiKey: string;
  headers: Record<string, string>;
  scale: number;
  duration: number;
  connections: number;
  agreements: number;
}): Promise<MasterRow[]> {
  const rows: MasterRow[] = [];
  const load = async (name: string, options: object, note = '') => {
    const { result, peakRssMb } = await withPeakRss(o.pid, () =>
      runLoad('load.ts', { connections: o.connections, duration: o.duration, ...options }),
    );
    const r: LoadResult = result;
    rows.push({
      scenario: name,
      scale: o.scale,
      rps: r.rps,
      p50: r.p50,
      p99: r.p99,
      peakRssMb,
      errors: r.errors,
      note,
    });
  };
  const url = `/service/v1.2/RentAccounting/LicenseAgreements?apiKey=${o.apiKey}&limit=100&includeBanking=true`;
  // cold: one pass over distinct pages (offset and showNullValues vary), so the page cache answers none of them
  const latencies: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < 400; i++) {
    const start = performance.now();
    const res = await fetch(
      `${o.base}${url}&offset=${(i * 37) % Math.max(1, o.agreements)}&showNullValues=${i % 2 === 0}`,
      { headers: o.headers },
    );
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`cold page ${i}: ${res.status}`);
    latencies.push(performance.now() - start);
  }
  const coldSeconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (q: number) =>
    +(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0).toFixed(1);
  rows.push({
    scenario: 'M1a LicenseAgreements v1.2 limit=100 cold (1 client, 400 distinct pages)',
    scale: o.scale,
    rps: Math.round(400 / coldSeconds),
    p50: pct(0.5),
    p99: pct(0.99),
    peakRssMb: 0,
    errors: 0,
    note: 'every request a page-cache miss',
  });
  await load('M1b LicenseAgreements v1.2 limit=100 repeated', { url: `${o.base}${url}`, headers: o.headers });
  const cpu0 = treeCpuMs(o.pid);
  const s = await sync(o.base, o.apiKey, o.headers);
  const cpuMs = treeCpuMs(o.pid) - cpu0;
  rows.push({
    scenario: 'M2 sync UseUnits + LicenseAgreements + Persons + Loans (records/s, 1 client)',
    scale: o.scale,
    rps: Math.round(s.records / s.seconds),
    p50: 0,
    p99: 0,
    peakRssMb: 0,
    errors: 0,
    note:
      `${s.records} records in ${s.seconds.toFixed(1)} s; server CPU ${(cpuMs / s.pages).toFixed(2)} ms/page, ` +
      `${Math.round((s.records * 1000) / cpuMs)} records per server CPU s`,
  });
  return rows;
}

async function standalone() {
  const { values } = parseArgs({
    options: { scale: { type: 'string', default: '100' }, duration: { type: 'string', default: '10' } },
  });
  const scale = Number(values.scale);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-bench-md-'));
  const env = { DATABASE_URL: `sqlite:${path.join(dir, 'bench.sqlite')}` };
  try {
    const t0 = performance.now();
    await cli(['demo', 'load', '--scale', String(scale), '--seed', '1'], env);
    process.stderr.write(`demo load scale ${scale}: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const perms = [PERMISSIONS.rentAccountingRead, ...MASTER_PERMISSIONS].flatMap((p) => ['--permission', p]);
    await cli(['user', 'add', 'bench', '--password', 'bench-password', ...perms], env);
    const apiKey = (await cli(['apikey', 'create', '--name', 'bench', '--all-ledgers'], env))
      .trim()
      .split('\n')
      .pop() as string;
    const server = await startServer(env);
    try {
      const res = await fetch(`${server.base}/oauth2/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'password', username: 'bench', password: 'bench-password' }),
      });
      const token = ((await res.json()) as { access_token: string }).access_token;
      const rows = await masterDataScenarios({
        base: server.base,
        pid: server.child.pid as number,
        apiKey,
        headers: { authorization: `Bearer ${token}` },
        scale,
        duration: Number(values.duration),
        connections: 10,
        agreements: 270 * scale,
      });
      console.log(table(rows as unknown as Array<Record<string, string | number>>));
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${path.resolve(process.argv[1])}`).href) await standalone();
