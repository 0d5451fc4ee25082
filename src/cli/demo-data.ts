// The demo data set that `serve --demo` (and `npm start`) loads into an empty database: scale 1 of `demo load`.
import type { Database } from '../db/database.ts';
import { loadDemo } from '../dataset/demo/load.ts';

export async function loadDemoData(database: Database): Promise<void> {
  await loadDemo(database, { scale: 1, seed: 1 });
}
