// S1: the smallest cached read (the shared catalogue of distribution periods).
import { RC, type Scenario } from '../context.ts';

export default {
  name: 'S1',
  async run(b) {
    const url = `${b.server.base}${RC}/DistributionPeriods?apiKey=${b.prepared.apiKey}`;
    b.record('S1 DistributionPeriods', await b.load(b.pid, 'load.ts', { url, headers: b.headers }));
  },
} satisfies Scenario;
