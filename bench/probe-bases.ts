// In-process probe of uncached AllocationGroupBases pages (limit=100, all includes) over an existing database:
// CPU ms per page of the read model alone, of the live path alone, and through the app (app.inject, page cache off).
// DATABASE_URL=sqlite:/path [PROBE=readmodel|live|inject] node --import tsx bench/probe-bases.ts [pages]\n// (add --cpu-prof to node for a profile, PROBE to profile one of them)
import { openDatabase } from '../src/db/database.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { ALL_LEDGERS } from '../src/auth/ledger-scope.ts';
import { createApiKey } from '../src/auth/api-keys.ts';
import { readBasePage, readModelFresh } from '../src/running-cost/read-model.ts';
import { listAllocationGroupBases } from '../src/running-cost/queries.ts';
import { loadBaseChildren } from '../src/running-cost/children.ts';
import { presentAllocationGroupBase } from '../src/running-cost/presenters.ts';
import { addUser } from '../src/auth/users.ts';
import { ALL_PERMISSIONS } from '../src/auth/permissions.ts';

const url = process.env.DATABASE_URL ?? '';
const pages = Number(process.argv[2] ?? 80);
const database = openDatabase(url);
const inc = { useUnits: true, costTypes: true, explanations: true, optionTaxes: true };

const only = process.env.PROBE; // readmodel | live | inject: run only that one (for a profile)

async function timed(label: string, fn: (offset: number) => Promise<unknown>): Promise<void> {
  if (only && !label.startsWith(only)) return;
  for (let i = 0; i < 5; i++) await fn(i * 100); // warm-up
  const t0 = process.cpuUsage();
  for (let p = 0; p < pages; p++) await fn((p % 78) * 100); // scale 100: 8,000 bases
  const d = process.cpuUsage(t0);
  console.log(`${label}: ${((d.user + d.system) / 1000 / pages).toFixed(2)} ms CPU per page`);
}

console.log(`read model fresh: ${await readModelFresh(database.db)}`);
await timed('readmodel: readBasePage', (offset) =>
  readBasePage(database.db, {}, ALL_LEDGERS, { limit: 100, offset }, inc, false),
);
await timed('live: query + children + present', async (offset) => {
  const rows = await listAllocationGroupBases(database.db, {}, ALL_LEDGERS, { limit: 100, offset });
  const children = await loadBaseChildren(database.db, rows, inc);
  return rows.map((r) => presentAllocationGroupBase(r, children));
});
const app = await buildApp({
  database,
  config: loadConfig({ DATABASE_URL: url, PAGE_CACHE_MB: '0' }),
  now: () => new Date(),
});
await app.ready();
const name = `probe${Date.now()}`;
await addUser(database.db, { name, password: 'probe-password-1', permissions: ALL_PERMISSIONS });
const key = await createApiKey(database.db, { name, ledgers: 'all' });
const token = (
  await app.inject({
    method: 'POST',
    url: '/oauth2/token',
    payload: `grant_type=password&username=${name}&password=probe-password-1`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
).json<{ access_token: string }>().access_token;
const INCLUDES = 'includeUseUnits=true&includeCostTypes=true&includeExplanations=true&includeOptionTaxes=true';
await timed('inject: app.inject, auth, read model when fresh', async (offset) => {
  const res = await app.inject({
    url: `/service/v1.2/RunningCostDistributionRead/AllocationGroupBases?limit=100&offset=${offset}&${INCLUDES}&apiKey=${key}`,
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
});
await app.close();
