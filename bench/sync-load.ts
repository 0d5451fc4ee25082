// S8: one client syncing everything, sequentially: every page (limit, offset) of each collection until a page
// comes back short. Prints one JSON line: requests/s, records/s in `extra`. With `save`, writes every body to that
// folder and a manifest (path -> file) so that bench/static-server.ts can serve the same pages.
// Usage: node --import tsx bench/sync-load.ts '<json options>'
import { readOptions } from './options.ts';
import fs from 'node:fs';
import path from 'node:path';
import { Pool } from 'undici';

interface Options {
  base: string;
  headers?: Record<string, string>;
  /** Collection paths with their query (without limit and offset). */
  collections: string[];
  limit: number;
  save?: string;
  /** Print the milliseconds and pages of each collection to stderr. */
  detail?: boolean;
}
const o = readOptions<Options>('sync-load.ts');
const pool = new Pool(o.base, { connections: 1 });
const manifest: Record<string, string> = {};
const latencies: number[] = [];
let records = 0;
let errors = 0;
/** Milliseconds and pages per collection (its path without the query), to see where a sync's time goes. */
const perCollection: Record<string, { ms: number; pages: number }> = {};
const t0 = performance.now();
for (const collection of o.collections) {
  const c0 = performance.now();
  const pagesBefore = latencies.length;
  for (let offset = 0; ; offset += o.limit) {
    const p = `${collection}${collection.includes('?') ? '&' : '?'}limit=${o.limit}&offset=${offset}`;
    const start = performance.now();
    const res = await pool.request({ method: 'GET', path: p, headers: o.headers ?? {} });
    const body = await res.body.text();
    latencies.push(performance.now() - start);
    if (res.statusCode !== 200) {
      errors++;
      process.stderr.write(`${p}: ${res.statusCode} ${body.slice(0, 200)}\n`);
      break;
    }
    const n = (JSON.parse(body) as unknown[]).length;
    records += n;
    if (o.save) {
      const file = path.join(o.save, `${latencies.length}.json`);
      fs.writeFileSync(file, body);
      manifest[p] = file;
    }
    if (n < o.limit) break;
  }
  const name = collection.split('?')[0]!.split('/').slice(-1)[0]!;
  perCollection[name] = { ms: Math.round(performance.now() - c0), pages: latencies.length - pagesBefore };
}
const seconds = (performance.now() - t0) / 1000;
if (o.detail) process.stderr.write(`${JSON.stringify(perCollection)}\n`);
await pool.close();
if (o.save) fs.writeFileSync(path.join(o.save, 'manifest.json'), JSON.stringify(manifest));
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
process.stdout.write(
  `${JSON.stringify({
    rps: latencies.length / seconds,
    p50: pct(0.5),
    p99: pct(0.99),
    ok: latencies.length - errors,
    non2xx: errors,
    errors: 0,
    requests: latencies.length,
    extra: { records, seconds, recordsPerSecond: records / seconds },
  })}\n`,
);
