// The webhook and its delivery log as answered. Credentials are never answered; the signing secret only when new.
import type { AttemptRow, WebhookRow } from './queries.ts';

export function presentWebhook(row: WebhookRow, signingSecret?: string) {
  return {
    Id: row.id,
    Name: row.name,
    Url: row.url,
    SystemPurpose: row.system_purpose,
    EntityName: row.entity_name,
    Actions: row.actions.split(','),
    Active: row.active === 1,
    AuthenticationType: row.auth_type,
    AuthenticationSet: row.auth_type !== 'None' && row.auth_secret !== null,
    SigningSecret: signingSecret ?? null,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

export function presentAttempt(row: AttemptRow) {
  return {
    Id: row.id,
    DeliveryId: row.delivery_id,
    EventId: row.event_id,
    EntityName: row.entity_type,
    EntityId: row.entity_id,
    Action: row.action,
    Attempt: row.attempt,
    Time: row.attempted_at,
    StatusCode: row.status_code,
    Error: row.error,
    DurationMs: row.duration_ms,
    DeliveryStatus: row.status,
  };
}
