// The demo data set that `serve --demo` loads into an empty database.
import type { Database } from '../db/database.ts';

export async function loadDemoData(database: Database): Promise<void> {
  // Until the demo generator exists, the demo consists of two ledgers.
  await database.db.insertInto('company_codes').values([
    { id: 1, code: '1000', name: 'Wohnbau Nord GmbH' },
    { id: 2, code: '2000', name: 'Stadtwohnen Süd eG' },
  ]).execute();
}
