// npm run bench [-- --scale 10] [--scaling 1,10,100] [--duration 10] [--connections 10] [--postgres] [--only S2,S8]
// Loads the demo data into a fresh database, starts the production server, runs the scenarios below over real HTTP
// from separate processes, prints a table and writes bench/results/<date>-<engine>-scale<N>.json.
// A scenario is a module whose default export is a Scenario (bench/context.ts): register it with one line below.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, table } from './harness.ts';
import { createBench, type Scenario } from './context.ts';
import { ratios } from './report.ts';

const SCENARIOS: Array<() => Promise<{ default: Scenario }>> = [
  () => import('./scenarios/periods.ts'),
  () => import('./scenarios/allocation-group-bases.ts'),
  () => import('./scenarios/baselines.ts'),
  () => import('./scenarios/rent-accounting.ts'),
  () => import('./scenarios/master-data.ts'),
  () => import('./scenarios/projects.ts'),
  () => import('./scenarios/token.ts'),
  () => import('./scenarios/sync.ts'),
  () => import('./scenarios/import.ts'),
  () => import('./scenarios/scaling.ts'),
  () => import('./scenarios/webhooks.ts'),
  () => import('./scenarios/runtime.ts'),
];

const { values: args } = parseArgs({
  options: {
    scale: { type: 'string', default: '10' },
    scaling: { type: 'string', default: '' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    postgres: { type: 'boolean', default: false },
    only: { type: 'string', default: '' },
  },
});
const options = {
  scale: Number(args.scale),
  duration: Number(args.duration),
  connections: Number(args.connections),
  postgres: args.postgres,
  scaling: args.scaling ? args.scaling.split(',').map(Number) : [],
};
const only = args.only ? args.only.split(',') : [];
process.stderr.write(
  `bench: scale ${options.scale}, ${options.postgres ? 'postgres' : 'sqlite'}, ${options.duration}s per scenario, ` +
    `${options.connections} connections, ${os.cpus().length} cores\n`,
);

const bench = await createBench(options);
try {
  for (const load of SCENARIOS) {
    const scenario = (await load()).default;
    if (only.length === 0 || only.includes(scenario.name)) await scenario.run(bench);
  }
  const figures = ratios(bench.rows);
  console.log(table(bench.rows as unknown as Array<Record<string, string | number>>));
  console.log('');
  for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${v}`);
  for (const [name, rows] of Object.entries(bench.sections)) console.log(`\n${name}:\n${table(rows)}`);
  const result = {
    date: new Date().toISOString(),
    machine: {
      cores: os.cpus().length,
      cpu: os.cpus()[0]?.model,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    engine: options.postgres ? 'postgres' : 'sqlite',
    ...options,
    only,
    counts: bench.prepared.counts,
    demoLoadSeconds: bench.prepared.loadSeconds,
    rows: bench.rows,
    ratios: figures,
    ...bench.sections,
  };
  const out = path.join(
    ROOT,
    'bench',
    'results',
    `${result.date.slice(0, 10)}-${result.engine}-scale${options.scale}${only.length ? `-${only.join('+')}` : ''}.json`,
  );
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nresults written to ${path.relative(process.cwd(), out)}`);
} finally {
  await bench.close();
}
