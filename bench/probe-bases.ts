// In-process probe of uncached AllocationGroupBases pages (limit=100, all includes) over an existing database:
// CPU ms per page of the read model alone, of the live path alone, and through the app (app.inject, page cache off).
// DATABASE_URL=sqlite:/path [PROBE=readmodel|live|inject] node --import tsx bench/probe-bases.ts [pages]
// (add --cpu-prof to node for a profile, PROBE to profile one of them)
import { ALL_LEDGERS } from '../src/auth/ledger-scope.ts';
import { readBasePage, readModelFresh } from '../src/running-cost/read-model.ts';
import { listAllocationGroupBases } from '../src/running-cost/queries.ts';
import { loadBaseChildren } from '../src/running-cost/children.ts';
import { presentAllocationGroupBase } from '../src/running-cost/presenters.ts';
import { INCLUDES, RC } from './context.ts';
import { probeApp } from './probe-app.ts';

const pages = Number(process.argv[2] ?? 80);
const { database, app, headers, key, close } = await probeApp();
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
await timed('inject: app.inject, auth, read model when fresh', async (offset) => {
  const res = await app.inject({
    url: `${RC}/AllocationGroupBases?limit=100&offset=${offset}&${INCLUDES}&apiKey=${key}`,
    headers,
  });
  if (res.statusCode !== 200) throw new Error(res.body);
});
await close();
