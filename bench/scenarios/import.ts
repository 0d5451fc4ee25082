// S6: import throughput of the exported demo data into a fresh database (whole CLI run).
import fs from 'node:fs';
import path from 'node:path';
import { cli } from '../harness.ts';
import type { Scenario } from '../context.ts';

export default {
  name: 'S6',
  async run(b) {
    const file = path.join(b.workdir, 'export.json');
    await cli(['export', file], b.prepared.env);
    const importEnv = { DATABASE_URL: await b.newDatabaseUrl() };
    await cli(['migrate'], importEnv);
    const t0 = performance.now();
    const importOut = await cli(['import', file], importEnv);
    const seconds = (performance.now() - t0) / 1000;
    const records = Number(/([\d,]+) records/.exec(importOut)?.[1]?.replace(/,/g, '') ?? 0);
    b.rows.push({
      scenario: 'S6 import (records/s, whole CLI run)',
      scale: b.options.scale,
      rps: Math.round(records / seconds),
      p50: 0,
      p99: 0,
      hits: '-',
      cpuMs: 0,
      peakRssMb: 0,
      errors: 0,
      note: `${records} records in ${seconds.toFixed(1)} s, ${(fs.statSync(file).size / 1e6).toFixed(0)} MB`,
    });
  },
} satisfies Scenario;
