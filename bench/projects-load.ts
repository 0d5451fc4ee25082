// S5: concurrent clients each creating a project and assigning an economic unit, a building and a use unit
// (four requests per project). Prints one JSON line: projects/s and per-project latency percentiles.
// Usage: node --import tsx bench/projects-load.ts '<json options>'
import { readOptions } from './options.ts';
import { Pool } from 'undici';

interface Options {
  base: string;
  prefix: string;
  token: string;
  apiKey: string;
  ledger: number;
  economicUnit: number;
  building: number;
  useUnit: number;
  connections: number;
  duration: number;
}
const o = readOptions<Options>('projects-load.ts');
const pool = new Pool(o.base, { connections: o.connections });
const headers = { authorization: `Bearer ${o.token}`, 'content-type': 'application/json' };
const q = `?apiKey=${encodeURIComponent(o.apiKey)}`;

async function call(method: 'POST', path: string, body: unknown, expect: number): Promise<{ Id: number }> {
  const res = await pool.request({ method, path: `${o.prefix}${path}${q}`, headers, body: JSON.stringify(body) });
  const text = await res.body.text();
  if (res.statusCode !== expect) throw new Error(`${path}: ${res.statusCode} ${text}`);
  return JSON.parse(text) as { Id: number };
}

const latencies: number[] = [];
let errors = 0;
const end = Date.now() + o.duration * 1000;
let n = 0;
async function worker() {
  while (Date.now() < end) {
    const start = performance.now();
    try {
      const { Id } = await call(
        'POST',
        '/Project',
        { CompanyCodeId: o.ledger, ProjectLifeTimeFrom: '2026-01-01', Name: `Bench ${n++}` },
        201,
      );
      await call('POST', `/Project/${Id}/AssignEconomicUnit`, [o.economicUnit], 201);
      await call('POST', `/Project/${Id}/AssignBuilding`, [o.building], 201);
      await call('POST', `/Project/${Id}/AssignUseUnit`, [o.useUnit], 201);
      latencies.push(performance.now() - start);
    } catch (err) {
      errors++;
      if (errors < 3) process.stderr.write(`${(err as Error).message}\n`);
    }
  }
}
const t0 = performance.now();
await Promise.all(Array.from({ length: o.connections }, worker));
const seconds = (performance.now() - t0) / 1000;
await pool.close();
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : 0;
process.stdout.write(
  `${JSON.stringify({ rps: latencies.length / seconds, p50: pct(0.5), p99: pct(0.99), ok: latencies.length, errors })}\n`,
);
