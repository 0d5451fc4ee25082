// Foundation: ledgers (company codes), users and their grants, OAuth tokens, API keys, the event outbox.
import type { Kysely } from 'kysely';
import { withAutoId } from '../column-types.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('company_codes')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('code', 'text')
    .addColumn('name', 'text')
    .execute();

  await withAutoId(db, db.schema.createTable('users'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('all_ledgers', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_permissions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_permissions_pk', ['user_id', 'permission'])
    .execute();

  await db.schema
    .createTable('user_ledgers')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('company_code_id', 'integer', (c) => c.notNull().references('company_codes.id'))
    .addPrimaryKeyConstraint('user_ledgers_pk', ['user_id', 'company_code_id'])
    .execute();

  await withAutoId(db, db.schema.createTable('oauth_tokens'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull()) // 'access' | 'refresh'
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_tokens_family').on('oauth_tokens').column('family').execute();
  await db.schema.createIndex('oauth_tokens_user').on('oauth_tokens').column('user_id').execute();

  await withAutoId(db, db.schema.createTable('api_keys'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('all_ledgers', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('api_key_ledgers')
    .addColumn('api_key_id', 'integer', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('company_code_id', 'integer', (c) => c.notNull().references('company_codes.id'))
    .addPrimaryKeyConstraint('api_key_ledgers_pk', ['api_key_id', 'company_code_id'])
    .execute();

  await withAutoId(db, db.schema.createTable('outbox_events'))
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull()) // created | updated | deleted
    .addColumn('company_code_id', 'integer')
    .addColumn('user_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('dispatched_at', 'text')
    .execute();
  await db.schema.createIndex('outbox_events_pending').on('outbox_events').columns(['dispatched_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'outbox_events',
    'api_key_ledgers',
    'api_keys',
    'oauth_tokens',
    'user_ledgers',
    'user_permissions',
    'users',
    'company_codes',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
