// Area: running-cost distribution (controller RunningCostDistributionRead, v1.2).
import type { App } from '../app-types.ts';

export default async function runningCostArea(_app: App): Promise<void> {}
