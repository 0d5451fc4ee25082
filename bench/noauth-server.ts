// B2: the real application over the same database, but with authentication and ledger scoping replaced by
// "everything visible", to show what they cost. Usage: DATABASE_URL=... node --import tsx bench/noauth-server.ts <port>
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { ALL_LEDGERS } from '../src/auth/ledger-scope.ts';

const config = loadConfig();
const database = openDatabase(config.databaseUrl);
const app = await buildApp({
  database,
  config,
  authenticate: async (_app, request) => {
    request.scope = ALL_LEDGERS;
  },
});
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.once(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0)),
);
