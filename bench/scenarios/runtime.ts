// Workers, memory and start-up of the production runtime (bench/runtime.ts): `--only runtime` runs it alone.
import type { Scenario } from '../context.ts';
import { runtimeBench } from '../runtime.ts';

const scenario: Scenario = {
  name: 'runtime',
  async run(bench) {
    const { scale, duration, connections, postgres } = bench.options;
    const { env, apiKey, counts } = bench.prepared;
    await runtimeBench({ engine: postgres ? 'postgres' : 'sqlite', scale, duration, connections, env, apiKey, counts });
  },
};
export default scenario;
