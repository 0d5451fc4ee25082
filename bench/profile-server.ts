// Profiles the production server (node --cpu-prof) under one load: S5 (project create + 3 assigns, 32 clients) or
// S2a (the same AllocationGroupBases page repeated, a page-cache hit) or S2b (every request a page not asked before) or
// S4b (the v1.0 complete GraduatedRentAgreement list, 10 concurrent downloads), then prints bench/profile-summary.ts of it.
// Usage: npm run build && node --import tsx bench/profile-server.ts S5|S2a|S2b|S4b [--scale 10] [--duration 10]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { ROOT, cli, freePort, runLoad, startProcess, stopProcess } from './harness.ts';
import { INCLUDES, RC, login } from './context.ts';
import { ALL_PERMISSIONS } from '../src/auth/permissions.ts';
import { openDatabase } from '../src/db/database.ts';

/** CPU ms (user + system) per thread of the process tree under `pid` (the worker's main thread, libuv pool, GC). */
function threadCpu(pid: number): string {
  const tick = 10; // ms per clock tick (USER_HZ 100)
  const lines: string[] = [];
  const walk = (p: number) => {
    for (const tid of fs.readdirSync(`/proc/${p}/task`)) {
      const stat = fs.readFileSync(`/proc/${p}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const user = Number(fields[11]) * tick;
      const system = Number(fields[12]) * tick;
      if (user + system > 0) lines.push(`  pid ${p} ${name.padEnd(16)} user ${user} ms, system ${system} ms`);
      const children = fs.readFileSync(`/proc/${p}/task/${tid}/children`, 'utf8').trim();
      for (const c of children ? children.split(' ') : []) walk(Number(c));
    }
  };
  walk(pid);
  return `CPU per thread:\n${lines.join('\n')}`;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { scale: { type: 'string', default: '10' }, duration: { type: 'string', default: '10' } },
});
const what = positionals[0] ?? 'S5';
const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-profile-'));
const env = { DATABASE_URL: `sqlite:${path.join(workdir, 'db.sqlite')}` };
await cli(['migrate'], env);
await cli(['demo', 'load', '--scale', values.scale, '--seed', '1'], env);
await cli(
  ['user', 'add', 'bench', '--password', 'bench-password', ...ALL_PERMISSIONS.flatMap((p) => ['--permission', p])],
  env,
);
const apiKey = (await cli(['apikey', 'create', '--name', 'bench', '--all-ledgers'], env)).trim().split('\n').pop()!;
const database = openDatabase(env.DATABASE_URL);
const uu = await database.db
  .selectFrom('use_units')
  .select(['id', 'economic_unit_id', 'building_id', 'company_code_id'])
  .where('building_id', 'is not', null)
  .orderBy('id')
  .limit(1)
  .executeTakeFirstOrThrow();
const { bases } = await database.db
  .selectFrom('allocation_group_bases')
  .select((eb) => eb.fn.countAll<number>().as('bases'))
  .executeTakeFirstOrThrow();
await database.close();

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const profiles = path.join(workdir, 'profiles');
const started = Date.now();
const child = await startProcess(
  ['--cpu-prof', `--cpu-prof-dir=${profiles}`, `${ROOT}bin/wohnapi.js`, 'serve'],
  { ...env, PORT: String(port), LOG_LEVEL: 'warn' },
  `${base}/health/ready`,
);
const token = await login(base);
// The server's start-up is left out of the summary: samples before the load began.
const after = String((Date.now() - started) / 1000 + 1);
const duration = Number(values.duration);
const page = `${RC}/AllocationGroupBases?apiKey=${apiKey}&limit=100&${INCLUDES}`;
const result =
  what === 'S5'
    ? await runLoad('projects-load.ts', {
        connections: 32,
        duration,
        base,
        prefix: '/service/v1.2/AccountancyProjectEdit',
        token,
        apiKey,
        ledger: uu.company_code_id,
        economicUnit: uu.economic_unit_id,
        building: uu.building_id,
        useUnit: uu.id,
      })
    : what === 'S4b'
      ? await runLoad('load.ts', {
          connections: 10,
          url: `${base}/service/v1.0/RentAccounting/GraduatedRentAgreement?apiKey=${apiKey}`,
          headers: { authorization: `Bearer ${token}` },
          timeout: 120,
          amount: 10 * duration,
        })
      : await runLoad('load.ts', {
          connections: 10,
          duration,
          url: what === 'S2b' ? base : `${base}${page}`,
          ...(what === 'S2b' && {
            uniquePaths: Array.from({ length: Number(bases) }, (_, offset) => `${page}&offset=${offset}`),
          }),
          headers: { authorization: `Bearer ${token}` },
        });
console.log(JSON.stringify(result));
console.log(threadCpu(child.pid!));
await stopProcess(child);
// The worker (the process that served) writes the largest profile, and may finish writing after the primary exited.
let worker: string | undefined;
for (let i = 0; i < 100 && !worker; i++) {
  await new Promise((r) => setTimeout(r, 200));
  const files = fs.readdirSync(profiles).map((f) => path.join(profiles, f));
  if (files.length >= 3) worker = files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
}
if (!worker) throw new Error(`no worker profile in ${profiles}`);
const summary = [
  `${ROOT}bench/profile-summary.ts`,
  worker,
  '--after',
  after,
  '--inclusive',
  'dist/(pipeline|projects|auth|http|db|events)/',
];
console.log(execFileSync(process.execPath, ['--import', 'tsx', ...summary], { encoding: 'utf8' }));
console.log(`profile: ${worker} (summary: node --import tsx bench/profile-summary.ts ${worker} --after ${after})`);
