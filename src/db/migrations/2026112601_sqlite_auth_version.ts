// SQLite gets the auth counter PostgreSQL has had since 2026112204: a one-row table that row-level triggers on the
// tables of users, grants, tokens and keys move on in the writing transaction. Until now SQLite's auth version was
// its data version (PRAGMA data_version and total_changes(), which move with every commit), so every project write
// emptied the cache of verified tokens and keys and the next request of every caller checked its token again
// (docs/performance.md, "S5"). The data version still serves the page cache and the read models.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database.ts';

const AUTH_TABLES = ['users', 'user_permissions', 'user_ledgers', 'oauth_tokens', 'api_keys', 'api_key_ledgers'];
const EVENTS = ['INSERT', 'UPDATE', 'DELETE'];

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema
    .createTable('auth_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('auth_version').values({ id: 1, version: 0 }).execute();
  for (const table of AUTH_TABLES)
    for (const event of EVENTS)
      await sql`CREATE TRIGGER ${sql.raw(`${table}_auth_version_${event.toLowerCase()}`)} AFTER ${sql.raw(event)}
        ON ${sql.table(table)} BEGIN UPDATE auth_version SET version = version + 1 WHERE id = 1; END`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  for (const table of AUTH_TABLES)
    for (const event of EVENTS)
      await sql`DROP TRIGGER ${sql.raw(`${table}_auth_version_${event.toLowerCase()}`)}`.execute(db);
  await db.schema.dropTable('auth_version').execute();
}
