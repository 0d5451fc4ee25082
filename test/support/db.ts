// Fresh, migrated databases for tests, one per call, on either engine. Every database test loops over DIALECTS.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database, type DialectName } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

export const DIALECTS: DialectName[] = ['sqlite', 'postgres'];

export interface TestDatabase extends Database {
  /** Closes the handle and deletes the database. */
  drop(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.WOHNAPI_TEST_PG;
  if (!url) throw new Error('WOHNAPI_TEST_PG is not set: run the tests with `npm test` (it starts PostgreSQL)');
  return url;
}

/** Creates an empty database of the given engine and returns its URL (not migrated). */
export async function createEmptyDatabaseUrl(
  dialect: DialectName,
): Promise<{ url: string; remove: () => Promise<void> }> {
  const name = `wohnapi_t_${crypto.randomBytes(6).toString('hex')}`;
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-sqlite-'));
    const file = path.join(dir, `${name}.sqlite`);
    fs.writeFileSync(file, ''); // an empty file is an empty SQLite database (the CLI refuses to create a new one)
    return {
      url: `sqlite:${file}`,
      remove: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl());
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    remove: async () => {
      const c = new pg.Client({ connectionString: adminUrl() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function freshDatabase(dialect: DialectName): Promise<TestDatabase> {
  const { url, remove } = await createEmptyDatabaseUrl(dialect);
  const database = openDatabase(url);
  await migrateToLatest(database);
  return {
    ...database,
    async drop() {
      await database.close();
      await remove();
    },
  };
}
