// The OpenAPI document exactly as the server serves it (/service/openapi.json), built on an in-memory database.
// `node --import tsx scripts/openapi-document.ts [file]` writes it (stdout without a file); the client generator,
// the Postman collection and the examples page are generated from it.
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

export async function servedDocument(): Promise<Record<string, unknown>> {
  const database = openDatabase('sqlite::memory:');
  try {
    await migrateToLatest(database);
    const app = await buildApp({ database, config: loadConfig({}) });
    try {
      const res = await app.inject({ url: '/service/openapi.json', headers: { host: '127.0.0.1:8080' } });
      return res.json<Record<string, unknown>>();
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = `${JSON.stringify(await servedDocument(), null, 2)}\n`;
  const file = process.argv[2];
  if (file) writeFileSync(file, text);
  else process.stdout.write(text);
}
