// A second counter beside data_version.version, for the cache of verified tokens and API keys: statement-level
// triggers on the tables of users, grants, tokens and keys move it on in the writing transaction (PostgreSQL only;
// on SQLite PRAGMA data_version and total_changes() cover every table).
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database.ts';

const AUTH_TABLES = ['users', 'user_permissions', 'user_ledgers', 'oauth_tokens', 'api_keys', 'api_key_ledgers'];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema
    .alterTable('data_version')
    .addColumn('auth_version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`CREATE FUNCTION bump_auth_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE data_version SET auth_version = auth_version + 1 WHERE id = 1; RETURN NULL; END $$`.execute(db);
  for (const table of AUTH_TABLES) {
    await sql`CREATE TRIGGER ${sql.raw(`${table}_auth_version`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_version()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of AUTH_TABLES)
    await sql`DROP TRIGGER ${sql.raw(`${table}_auth_version`)} ON ${sql.table(table)}`.execute(db);
  await sql`DROP FUNCTION bump_auth_version()`.execute(db);
  await db.schema.alterTable('data_version').dropColumn('auth_version').execute();
}
