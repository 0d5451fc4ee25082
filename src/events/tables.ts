// The outbox: events recorded in the transaction of the change that caused them.
import type { Generated } from 'kysely';

export interface OutboxEventsTable {
  id: Generated<number>;
  event_id: string;
  entity_type: string;
  entity_id: number;
  action: 'created' | 'updated' | 'deleted';
  company_code_id: number | null;
  user_id: number | null;
  created_at: string;
  dispatched_at: string | null;
}

export interface EventTables {
  outbox_events: OutboxEventsTable;
}
