// Webhooks (issue 12): registrations per API key, one delivery row per (event, webhook) with its lease and retry
// state, the attempt log, and the dispatcher's shared lease row (SQLite: taken first in every dispatcher
// transaction, so processes sharing the file take turns). A deleted webhook is deleted (its deliveries with it), so
// the same URL can be registered again at once; two ACTIVE webhooks of one key with one URL and entity cannot exist.
import { sql, type Kysely } from 'kysely';
import { withAutoId } from '../column-types.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await withAutoId(db, db.schema.createTable('webhooks'))
    .addColumn('api_key_id', 'integer', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('owner_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('system_purpose', 'text', (c) => c.notNull()) // Echt | Test
    .addColumn('entity_name', 'text', (c) => c.notNull()) // Project | EconomicUnit | ... | All
    .addColumn('actions', 'text', (c) => c.notNull()) // comma list of created,updated,deleted
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('auth_type', 'text', (c) => c.notNull()) // None | Bearer | Basic | Custom
    .addColumn('auth_name', 'text') // Basic: user; Custom: header name
    .addColumn('auth_secret', 'text') // Bearer: token; Basic: password; Custom: header value
    .addColumn('signing_secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_key').on('webhooks').column('api_key_id').execute();
  await db.schema
    .createIndex('webhooks_active_unique')
    .on('webhooks')
    .columns(['api_key_id', 'url', 'entity_name'])
    .unique()
    .where(sql.ref('active'), '=', 1)
    .execute();

  await withAutoId(db, db.schema.createTable('webhook_deliveries'))
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull()) // the outbox event id: webhook-id on the wire
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('event_created_at', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull()) // pending | delivered | failed
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addUniqueConstraint('webhook_deliveries_once', ['webhook_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();
  await db.schema.createIndex('webhook_deliveries_finished').on('webhook_deliveries').column('finished_at').execute();

  await withAutoId(db, db.schema.createTable('webhook_attempts'))
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('webhook_id', 'integer', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_attempts_webhook')
    .on('webhook_attempts')
    .columns(['webhook_id', 'id'])
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').column('delivery_id').execute();
  await db.schema.createIndex('webhook_attempts_time').on('webhook_attempts').column('attempted_at').execute();

  await db.schema
    .createTable('webhook_dispatch_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('pruned_at', 'text')
    .execute();
  await db.insertInto('webhook_dispatch_state').values({ id: 1 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['webhook_dispatch_state', 'webhook_attempts', 'webhook_deliveries', 'webhooks'])
    await db.schema.dropTable(t).execute();
}
