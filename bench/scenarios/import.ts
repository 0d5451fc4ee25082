// S6: import throughput of the exported demo data into a fresh database (whole CLI run). The import process's own
// CPU time (user + system) and peak RSS come from /usr/bin/time when it is there, so that the figure does not depend
// on what else the shared cores run at the same time.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, cli, machineTicks, stealPercent } from '../harness.ts';
import type { Scenario } from '../context.ts';

const execFileP = promisify(execFile);
const TIME = '/usr/bin/time';

/** Runs `wohnapi import <file>`; stdout, and CPU ms and peak RSS of the process when /usr/bin/time measured them. */
async function timedImport(file: string, env: Record<string, string>) {
  const args = [`${ROOT}bin/wohnapi.js`, 'import', file];
  const timed = fs.existsSync(TIME);
  const { stdout, stderr } = await execFileP(
    timed ? TIME : process.execPath,
    timed ? ['-f', 'rusage %U %S %M', process.execPath, ...args] : args,
    { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
  );
  const m = /rusage ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
  return {
    stdout,
    cpuMs: m ? Math.round((Number(m[1]) + Number(m[2])) * 1000) : 0,
    peakRssMb: m ? Math.round(Number(m[3]) / 1024) : 0,
  };
}

export default {
  name: 'S6',
  async run(b) {
    // the export of the demo data as loaded (the bench's own database holds what earlier scenarios wrote, S5's
    // projects among them, which made the file larger and its records heavier than the demo's)
    const file = path.join(b.workdir, 'export.json');
    const demoEnv = { DATABASE_URL: await b.newDatabaseUrl() };
    await cli(['migrate'], demoEnv);
    await cli(['demo', 'load', '--scale', String(b.options.scale), '--seed', '1'], demoEnv);
    await cli(['export', file], demoEnv);
    const importEnv = { DATABASE_URL: await b.newDatabaseUrl() };
    await cli(['migrate'], importEnv);
    // the demo load's and the export's writes reach the disk first, so that the import's fsyncs do not wait for them
    await execFileP('sync');
    const t0 = performance.now();
    const ticks = machineTicks();
    const { stdout, cpuMs, peakRssMb } = await timedImport(file, importEnv);
    const steal = stealPercent(ticks);
    const seconds = (performance.now() - t0) / 1000;
    const records = Number(/([\d,]+) records/.exec(stdout)?.[1]?.replace(/,/g, '') ?? 0);
    b.rows.push({
      scenario: 'S6 import (records/s, whole CLI run)',
      scale: b.options.scale,
      rps: Math.round(records / seconds),
      p50: 0,
      p99: 0,
      hits: '-',
      cpuMs,
      peakRssMb,
      errors: 0,
      steal,
      note: `${records} records in ${seconds.toFixed(1)} s, ${(fs.statSync(file).size / 1e6).toFixed(0)} MB; ${cpuMs ? `cpuMs = the whole import: ${Math.round(records / (cpuMs / 1000)).toLocaleString('en')} records per CPU second` : 'CPU not measured'}`,
    });
  },
} satisfies Scenario;
