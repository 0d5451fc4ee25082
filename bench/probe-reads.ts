// In-process probe of the read paths of S4b, S8 (contract pages) and the master-data sync: builds the app over an
// existing database (DATABASE_URL, e.g. a scale-100 demo load) with the page cache off and reports the CPU time of
// this process per request and per record (`app.inject`: no socket, no authentication cost beyond the API key).
// Usage: DATABASE_URL=sqlite:/tmp/s100.sqlite node --import tsx bench/probe-reads.ts [s4b|s8|md] [rounds] [profile]
// With a profile file name, the measured rounds (not the start-up) are recorded as a V8 CPU profile for
// bench/profile-summary.ts.
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { addUser } from '../src/auth/users.ts';
import { ALL_PERMISSIONS } from '../src/auth/permissions.ts';
import { CONTRACT_AGREEMENT_KINDS } from '../src/rent-accounting/tables.ts';

const [what = 's4b', roundsArg = '3', profileFile] = process.argv.slice(2);
const rounds = Number(roundsArg);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL');
const database = openDatabase(url);
const app = await buildApp({ database, config: loadConfig({ DATABASE_URL: url, PAGE_CACHE_MB: '0' }) });
await app.ready();
const name = `probe-${Date.now()}`;
await addUser(database.db, { name, password: 'probe-password', permissions: ALL_PERMISSIONS });
const token = await app.inject({
  method: 'POST',
  url: '/oauth2/token',
  payload: `grant_type=password&username=${name}&password=probe-password`,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});
const headers = { authorization: `Bearer ${token.json<{ access_token: string }>().access_token}` };

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
      : ['v1.2/CommercialInventory/UseUnits', 'v1.2/RentAccounting/LicenseAgreements', 'v1.2/PersonsRead/Persons'];
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
await app.close();
await database.close();
