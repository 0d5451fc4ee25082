// What the in-process probes (bench/probe-bases.ts, bench/probe-reads.ts) share: the app built over an existing
// database (DATABASE_URL) with the page cache off, a user with every permission, its bearer header and an
// all-ledgers API key.
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { addUser } from '../src/auth/users.ts';
import { createApiKey } from '../src/auth/api-keys.ts';
import { ALL_PERMISSIONS } from '../src/auth/permissions.ts';

export async function probeApp() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('set DATABASE_URL to a database with data, e.g. sqlite:/tmp/s100.sqlite (a demo load)');
  const database = openDatabase(url);
  const app = await buildApp({ database, config: loadConfig({ DATABASE_URL: url, PAGE_CACHE_MB: '0' }) });
  await app.ready();
  const name = `probe-${Date.now()}`;
  await addUser(database.db, { name, password: 'probe-password', permissions: ALL_PERMISSIONS });
  const key = await createApiKey(database.db, { name, ledgers: 'all' });
  const token = await app.inject({
    method: 'POST',
    url: '/oauth2/token',
    payload: `grant_type=password&username=${name}&password=probe-password`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const headers = { authorization: `Bearer ${token.json<{ access_token: string }>().access_token}` };
  return {
    database,
    app,
    headers,
    key,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
