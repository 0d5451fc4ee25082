// In-process probe of the read paths of S4b, S8 (contract pages) and the master-data sync: builds the app over an
// existing database (DATABASE_URL, e.g. a scale-100 demo load) with the page cache off and reports the CPU time of
// this process per request and per record (`app.inject`: no socket, no authentication cost beyond the API key).
// Usage: DATABASE_URL=sqlite:/tmp/s100.sqlite node --import tsx bench/probe-reads.ts [s4b|s8|md] [rounds] [profile]
// With a profile file name, the measured rounds (not the start-up) are recorded as a V8 CPU profile for
// bench/profile-summary.ts.
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { CONTRACT_AGREEMENT_KINDS } from '../src/rent-accounting/tables.ts';
import { SYNC } from './master-data.ts';
import { probeApp } from './probe-app.ts';

const [what = 's4b', roundsArg = '3', profileFile] = process.argv.slice(2);
const rounds = Number(roundsArg);
const { app, headers, close } = await probeApp();

async function get(path: string): Promise<number> {
  const res = await app.inject({ method: 'GET', url: `/service/${path}`, headers });
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  return res.json<unknown[]>().length;
}

/** Every page (limit=100) of a list until a short page. */
async function pages(list: string, extra = ''): Promise<[number, number]> {
  let records = 0;
  let requests = 0;
  for (let offset = 0; ; offset += 100) {
    const n = await get(`${list}?limit=100&offset=${offset}${extra}`);
    records += n;
    requests++;
    if (n < 100) return [records, requests];
  }
}

async function work(): Promise<[number, number]> {
  if (what === 's4b') return [await get('v1.0/RentAccounting/GraduatedRentAgreement'), 1];
  let records = 0;
  let requests = 0;
  const lists =
    what === 's8'
      ? [
          ...CONTRACT_AGREEMENT_KINDS.map((k) => `v1.2/RentAccounting/ContractAgreement/${k}`),
          'v1.2/RentAccounting/PriceIndexValue',
        ]
      : SYNC;
  for (const list of lists) {
    const [n, r] = await pages(list, what === 'md' ? '&showNullValues=true' : '');
    records += n;
    requests += r;
  }
  return [records, requests];
}

await work(); // warm-up
const session = profileFile ? new Session() : undefined;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
let records = 0;
let requests = 0;
const cpu0 = process.cpuUsage();
for (let i = 0; i < rounds; i++) {
  const [n, r] = await work();
  records += n;
  requests += r;
}
const cpu = process.cpuUsage(cpu0);
if (session && profileFile) {
  const { profile } = await session.post('Profiler.stop');
  fs.writeFileSync(profileFile, JSON.stringify(profile));
}
const ms = (cpu.user + cpu.system) / 1000;
console.log(
  `${what}: ${requests} requests, ${records} records, ${(ms / requests).toFixed(2)} ms CPU/request, ` +
    `${((ms * 1000) / records).toFixed(1)} us CPU/record, ${Math.round((records * 1000) / ms)} records per CPU s`,
);
await close();
