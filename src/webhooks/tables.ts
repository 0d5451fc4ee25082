// Tables of webhooks, their deliveries and attempts, and the dispatcher's lease row (migration 2026112302_webhooks).
import type { Generated } from 'kysely';

export interface WebhooksTable {
  id: Generated<number>;
  api_key_id: number;
  owner_user_id: number | null;
  name: string;
  url: string;
  system_purpose: string;
  entity_name: string;
  actions: string;
  active: number;
  auth_type: string;
  auth_name: string | null;
  auth_secret: string | null;
  signing_secret: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  event_id: string;
  entity_type: string;
  entity_id: number;
  action: string;
  user_id: number | null;
  event_created_at: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_until: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  webhook_id: number;
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface WebhookDispatchStateTable {
  id: number;
  lease_owner: string | null;
  lease_until: string | null;
  pruned_at: string | null;
}

export interface WebhookTables {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_dispatch_state: WebhookDispatchStateTable;
}
