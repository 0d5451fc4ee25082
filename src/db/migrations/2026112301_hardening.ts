// Hardening: failed-login counters shared by every process using the database (per user name and per client
// address), and an index to purge expired OAuth tokens.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('login_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey()) // 'user:<sha256 of the lower-case name>' or 'addr:<address>'
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', 'text', (c) => c.notNull())
    .addColumn('blocked_until', 'text')
    .execute();
  await db.schema.createIndex('login_throttle_last').on('login_throttle').column('last_failure_at').execute();
  await db.schema.createIndex('oauth_tokens_expires').on('oauth_tokens').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('oauth_tokens_expires').execute();
  await db.schema.dropTable('login_throttle').execute();
}
