// First start with --demo on an empty database: demo data, a demo user with every permission, an all-ledgers key.
import type { Database } from '../db/database.ts';
import { addUser } from '../auth/users.ts';
import { createApiKey } from '../auth/api-keys.ts';
import { ALL_PERMISSIONS } from '../auth/permissions.ts';
import { randomSecret } from '../auth/secrets.ts';
import { tableWithData } from '../dataset/demo/load.ts';

export const DEMO_USER = 'demo';

export async function isEmpty(database: Database): Promise<boolean> {
  const users = await database.db.selectFrom('users').select('id').limit(1).execute();
  return users.length === 0 && (await tableWithData(database.db)) === undefined;
}

/** Returns the lines to print: the login and key, or why nothing was set up (the database already had users or data). */
export async function setUpDemo(
  database: Database,
  baseUrl: string,
  loadData: (database: Database) => Promise<void>,
): Promise<string[]> {
  if (!(await isEmpty(database))) {
    const demo = await database.db.selectFrom('users').select('id').where('name', '=', DEMO_USER).executeTakeFirst();
    return [
      '',
      demo
        ? `--demo: set up on an earlier start; log in as '${DEMO_USER}' with the password printed then ('wohnapi user passwd ${DEMO_USER}' sets a new one)`
        : `--demo: the database already has users or data, so no demo data was loaded; log in with its own users (an empty database gets the demo data and the '${DEMO_USER}' login)`,
    ];
  }
  await loadData(database);
  const password = randomSecret().slice(0, 16);
  await addUser(database.db, { name: DEMO_USER, password, permissions: ALL_PERMISSIONS });
  const key = await createApiKey(database.db, { name: 'demo', ledgers: 'all' });
  return [
    '',
    'Demo data loaded. Log in with:',
    `  user:     ${DEMO_USER}`,
    `  password: ${password}`,
    `  API key:  ${key}   (all ledgers; shown only now)`,
    '',
    'Try:',
    `  TOKEN=$(curl -s ${baseUrl}/oauth2/token -d grant_type=password -d username=${DEMO_USER} -d 'password=${password}' | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
    `  curl -s -H "Authorization: Bearer $TOKEN" '${baseUrl}/service/v1.2/RunningCostDistributionRead/DistributionPeriods?apiKey=${key}'`,
  ];
}
