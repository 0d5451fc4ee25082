// The event outbox: every write that clients may be told about records an event here, in the same
// transaction as the change. A dispatcher (webhooks) delivers them later; nothing is lost on a crash.
import crypto from 'node:crypto';
import type { Executor } from '../db/database.ts';
import { fixedQuery } from '../db/fixed-query.ts';
import type { Insertable } from 'kysely';
import type { OutboxEventsTable } from './tables.ts';

type EventRow = Required<Omit<Insertable<OutboxEventsTable>, 'id' | 'dispatched_at'>>;

/** One event (the usual case of a single write): a statement prepared once. */
const insertOne = fixedQuery<EventRow, never>(
  ['event_id', 'entity_type', 'entity_id', 'action', 'company_code_id', 'user_id', 'created_at'],
  (db, row) => db.insertInto('outbox_events').values(row),
);

export type EventAction = 'created' | 'updated' | 'deleted';

export interface DomainEvent {
  /** Entity name as on the wire, e.g. 'Project', 'EconomicUnit', 'UseUnit', 'LicenseAgreement', 'Loan'. */
  entityType: string;
  entityId: number;
  action: EventAction;
  companyCodeId: number | null;
  userId?: number | null;
}

export async function recordEvents(db: Executor, events: DomainEvent[], now: Date = new Date()): Promise<void> {
  if (events.length === 0) return;
  const created = now.toISOString();
  const rows = events.map((e) => ({
    event_id: crypto.randomUUID(),
    entity_type: e.entityType,
    entity_id: e.entityId,
    action: e.action,
    company_code_id: e.companyCodeId,
    user_id: e.userId ?? null,
    created_at: created,
  }));
  if (rows.length === 1) {
    await insertOne.execute(db, rows[0] as EventRow);
    return;
  }
  // Chunked: SQLite limits the number of bound parameters per statement.
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('outbox_events')
      .values(rows.slice(i, i + 500))
      .execute();
}
