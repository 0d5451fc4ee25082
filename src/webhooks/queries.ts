// Reads of webhooks and their delivery log. A webhook is found only through its own key (another key's id is a 404).
import type { Selectable } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { WebhooksTable } from './tables.ts';

export type WebhookRow = Selectable<WebhooksTable>;

/** The webhook, if it exists and (when a key is given) belongs to that key. */
export async function findWebhook(db: Executor, id: number, apiKeyId?: number): Promise<WebhookRow | undefined> {
  let q = db.selectFrom('webhooks').selectAll().where('id', '=', id);
  if (apiKeyId !== undefined) q = q.where('api_key_id', '=', apiKeyId);
  return q.executeTakeFirst();
}

export async function listWebhooks(
  db: Executor,
  filter: { apiKeyId?: number },
  page: { limit: number; offset: number } = { limit: 1_000_000, offset: 0 },
): Promise<Array<WebhookRow & { key_name: string }>> {
  let q = db
    .selectFrom('webhooks')
    .innerJoin('api_keys', 'api_keys.id', 'webhooks.api_key_id')
    .selectAll('webhooks')
    .select('api_keys.name as key_name');
  if (filter.apiKeyId !== undefined) q = q.where('webhooks.api_key_id', '=', filter.apiKeyId);
  return q.orderBy('webhooks.id').limit(page.limit).offset(page.offset).execute();
}

export interface AttemptRow {
  id: number;
  delivery_id: number;
  event_id: string;
  entity_type: string;
  entity_id: number;
  action: string;
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  status: string;
}

/** The delivery log of one webhook: attempts, newest first. */
export async function listAttempts(
  db: Executor,
  webhookId: number,
  page: { limit: number; offset: number },
): Promise<AttemptRow[]> {
  return db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .select([
      'a.id',
      'a.delivery_id',
      'd.event_id',
      'd.entity_type',
      'd.entity_id',
      'd.action',
      'a.attempt',
      'a.attempted_at',
      'a.status_code',
      'a.error',
      'a.duration_ms',
      'd.status',
    ])
    .where('a.webhook_id', '=', webhookId)
    .orderBy('a.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}
