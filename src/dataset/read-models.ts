// The persisted read models (docs/performance.md): AllocationGroupBases and the contract agreements. Whatever fills
// the database (import, demo load) rebuilds them at the end of its transaction, so they are fresh exactly when it
// commits; `serve` rebuilds one that is not fresh (an upgrade changed its format, or its tables were written by
// hand) before its workers start. While one is not fresh, its live path answers.
import type { Executor } from '../db/database.ts';
import { readModelFresh, rebuildReadModel } from '../running-cost/read-model.ts';
import { contractReadModelFresh, rebuildContractReadModel } from '../rent-accounting/index.ts';

interface ReadModel {
  /** What its count counts, for the start banner. */
  counts: string;
  fresh(db: Executor): Promise<boolean>;
  rebuild(db: Executor): Promise<number>;
}

const READ_MODELS: ReadModel[] = [
  { counts: 'AllocationGroupBases', fresh: readModelFresh, rebuild: rebuildReadModel },
  { counts: 'contract agreements', fresh: contractReadModelFresh, rebuild: rebuildContractReadModel },
];

/** Rebuilds every read model in the caller's transaction. */
export async function rebuildReadModels(trx: Executor): Promise<void> {
  for (const model of READ_MODELS) await model.rebuild(trx);
}

/**
 * Rebuilds, in the caller's transaction, each read model that is not fresh: one of its source tables was written since
 * its last rebuild (its triggers mark it stale, in this transaction too), or it was built for another format. So it is
 * fresh exactly when the transaction commits, and an import that writes none of its sources (persons, say) leaves it
 * as it is instead of rebuilding it from the whole database.
 */
export async function rebuildStaleReadModels(trx: Executor): Promise<void> {
  for (const model of READ_MODELS) if (!(await model.fresh(trx))) await model.rebuild(trx);
}

/** Rebuilds each read model that is not fresh (each in a transaction of its own); a banner line per rebuild. */
export async function refreshReadModels(db: Executor): Promise<string[]> {
  const lines: string[] = [];
  for (const model of READ_MODELS) {
    if (await model.fresh(db)) continue;
    const started = performance.now();
    const count = await model.rebuild(db);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (count > 0) lines.push(`  read model: rebuilt for ${count} ${model.counts} in ${seconds} s`);
  }
  return lines;
}
