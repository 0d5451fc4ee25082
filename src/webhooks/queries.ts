// Reads of webhooks and their delivery log. A caller finds only the webhooks it may see (scope.ts): another key's,
// or one delivering for ledgers beyond the caller's, is a 404 and absent from lists.
import type { Selectable } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { WebhooksTable } from './tables.ts';
import { visibleTo, type WebhookAccess } from './scope.ts';

export type WebhookRow = Selectable<WebhooksTable>;

/** Webhooks with their key's name and what their delivery scope depends on. */
function withKeyAndOwner(db: Executor) {
  return db
    .selectFrom('webhooks')
    .innerJoin('api_keys', 'api_keys.id', 'webhooks.api_key_id')
    .leftJoin('users', 'users.id', 'webhooks.owner_user_id')
    .selectAll('webhooks')
    .select([
      'api_keys.name as key_name',
      'api_keys.all_ledgers as key_all',
      'api_keys.revoked_at as key_revoked_at',
      'users.all_ledgers as user_all',
      'users.disabled as user_disabled',
    ]);
}

/** The webhook, if it exists and (when `access` is given) the caller may see it. */
export async function findWebhook(db: Executor, id: number, access?: WebhookAccess): Promise<WebhookRow | undefined> {
  let q = withKeyAndOwner(db).where('webhooks.id', '=', id);
  if (access) q = q.where('webhooks.api_key_id', '=', access.apiKeyId);
  const [row] = await visibleTo(db, await q.execute(), access);
  return row;
}

export type ListedWebhook = WebhookRow & {
  key_name: string;
  key_revoked_at: string | null;
  user_disabled: number | null;
};

/** Webhooks by id: of one key (`apiKeyId`), or those the caller may see (`access`), or all (operator). */
export async function listWebhooks(
  db: Executor,
  filter: { apiKeyId?: number; access?: WebhookAccess },
  page: { limit: number; offset: number } = { limit: 1_000_000, offset: 0 },
): Promise<ListedWebhook[]> {
  let q = withKeyAndOwner(db);
  const keyId = filter.access?.apiKeyId ?? filter.apiKeyId;
  if (keyId !== undefined) q = q.where('webhooks.api_key_id', '=', keyId);
  q = q.orderBy('webhooks.id');
  // A key has few webhooks: its own are read whole and filtered by the caller's scope before the page is cut.
  if (!filter.access || filter.access.scope.all) q = q.limit(page.limit).offset(page.offset);
  const rows = await visibleTo(db, await q.execute(), filter.access);
  return filter.access && !filter.access.scope.all ? rows.slice(page.offset, page.offset + page.limit) : rows;
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

/**
 * The delivery log of one webhook: attempts by Id, ascending for the API (decisions §3: stable pages; the newest are
 * on the last page), newest first for the CLI's look at the latest ones.
 */
export async function listAttempts(
  db: Executor,
  webhookId: number,
  page: { limit: number; offset: number },
  order: 'asc' | 'desc' = 'asc',
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
    .orderBy('a.id', order)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}
