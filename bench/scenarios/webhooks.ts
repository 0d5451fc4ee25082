// W1, W2, B3: webhook deliveries to a local receiver, beside the receiver driven directly (bench/webhooks.ts).
import type { Scenario } from '../context.ts';
import { webhookScenarios } from '../webhooks.ts';

const scenario: Scenario = {
  name: 'webhooks',
  async run(bench) {
    const { duration, connections } = bench.options;
    const rows = await webhookScenarios(() => bench.newDatabaseUrl(), { duration, connections });
    bench.sections.webhooks = rows as unknown as Array<Record<string, string | number>>;
  },
};
export default scenario;
