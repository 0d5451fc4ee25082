// Master data (issue 14): LicenseAgreements v1.2 limit=100 cold and repeated, and the sync of UseUnits,
// LicenseAgreements and Persons in records/s (bench/master-data.ts).
import type { Scenario } from '../context.ts';
import { masterDataScenarios } from '../master-data.ts';

const scenario: Scenario = {
  name: 'master-data',
  async run(bench) {
    const { scale, duration, connections } = bench.options;
    const rows = await masterDataScenarios({
      base: bench.server.base,
      pid: bench.pid,
      apiKey: bench.prepared.apiKey,
      headers: bench.headers,
      scale,
      duration,
      connections,
      agreements: bench.prepared.counts.use_units, // about one current agreement per use unit
    });
    bench.sections['master data'] = rows as unknown as Array<Record<string, string | number>>;
  },
};
export default scenario;
