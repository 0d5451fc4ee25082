// Two active webhooks of one key with one URL and entity are refused only when the same registrant (user, or the
// operator's CLI: no user) holds both. Other users of the key may not see each other's webhooks (docs/webhooks.md,
// "Who sees a webhook"), so a refusal because of a webhook the caller cannot see told it that webhook existed.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhooks_active_unique').execute();
  await sql`CREATE UNIQUE INDEX webhooks_active_unique ON webhooks
    (api_key_id, (coalesce(owner_user_id, 0)), url, entity_name) WHERE active = 1`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhooks_active_unique').execute();
  await db.schema
    .createIndex('webhooks_active_unique')
    .on('webhooks')
    .columns(['api_key_id', 'url', 'entity_name'])
    .unique()
    .where(sql.ref('active'), '=', 1)
    .execute();
}
