// The event outbox: every write that clients may be told about records an event here, in the same
// transaction as the change. A dispatcher (webhooks) delivers them later; nothing is lost on a crash.
import type { Executor } from '../db/database.ts';
import { fixedQuery } from '../db/fixed-query.ts';
import { eventId } from './event-id.ts';
import type { Insertable } from 'kysely';
import type { OutboxEventsTable } from './tables.ts';

type EventRow = Required<Omit<Insertable<OutboxEventsTable>, 'id' | 'dispatched_at'>>;

export type EventAction = 'created' | 'updated' | 'deleted';

export interface DomainEvent {
  /** Entity name as on the wire, e.g. 'Project', 'EconomicUnit', 'UseUnit', 'LicenseAgreement', 'Loan'. */
  entityType: string;
  entityId: number;
  action: EventAction;
  companyCodeId: number | null;
  userId?: number | null;
}

/** The columns of an outbox row, in the order of `eventValues`. */
export const EVENT_COLUMNS = [
  'event_id',
  'entity_type',
  'entity_id',
  'action',
  'company_code_id',
  'user_id',
  'created_at',
] as const;

/** The values of an event's outbox row (in EVENT_COLUMNS order); `created`: the time as ISO text. */
export const eventValues = (
  e: DomainEvent,
  created: string,
): [string, string, number, EventAction, number | null, number | null, string] => [
  eventId(),
  e.entityType,
  e.entityId,
  e.action,
  e.companyCodeId,
  e.userId ?? null,
  created,
];

/** One event (the usual case of a single write): a statement prepared once. */
const insertOne = fixedQuery<EventRow, never>(EVENT_COLUMNS, (db, row) => db.insertInto('outbox_events').values(row));

export async function recordEvents(db: Executor, events: DomainEvent[], now: Date = new Date()): Promise<void> {
  if (events.length === 0) return;
  const created = now.toISOString();
  const rows = events.map((e) => {
    const [event_id, entity_type, entity_id, action, company_code_id, user_id, created_at] = eventValues(e, created);
    return { event_id, entity_type, entity_id, action, company_code_id, user_id, created_at };
  });
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
