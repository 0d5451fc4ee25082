// The dispatcher's database work. Every step is one short transaction, safe with any number of dispatchers on one
// database: PostgreSQL locks the rows it takes with FOR UPDATE SKIP LOCKED; on SQLite each transaction first writes
// the lease row (webhook_dispatch_state), which takes the file's write lock, so processes sharing it take turns.
// Deliveries are leased with an expiry: a process that dies mid-delivery leaves them to be taken again. The commits do
// not wait for the disk (relaxed-transaction.ts): what a crash of the machine undoes here is done again.
import { sql, type Selectable, type Transaction } from 'kysely';
import type { Database, Executor } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { relaxedTransaction } from '../db/relaxed-transaction.ts';
import { fixedQuery } from '../db/fixed-query.ts';
import { inScope, type LedgerScope } from '../auth/ledger-scope.ts';
import { personLedgers } from '../master-data/present.ts';
import { deliveryScopes } from './scope.ts';
import { mayRead } from './model.ts';
import type { WebhookDeliveriesTable } from './tables.ts';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** Runs `work` in a transaction that, on SQLite, starts by taking the write lock through the lease row. */
export async function dispatchTransaction<T>(
  database: Database,
  owner: string,
  leaseUntil: string,
  work: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  return relaxedTransaction(database, async (trx) => {
    if (database.dialect === 'sqlite')
      await trx
        .updateTable('webhook_dispatch_state')
        .set({ lease_owner: owner, lease_until: leaseUntil })
        .where('id', '=', 1)
        .execute();
    return work(trx);
  });
}

interface ActiveHook {
  id: number;
  entity: string;
  actions: Set<string>;
  scope: LedgerScope;
  /** The owner's permissions (undefined: registered by the operator's CLI, no owner). */
  permissions: Set<string> | undefined;
}

/** Active webhooks of unrevoked keys and enabled owners, each with the ledgers it delivers for (scope.ts). */
async function activeHooks(trx: Transaction<DB>): Promise<ActiveHook[]> {
  const rows = await trx
    .selectFrom('webhooks as w')
    .innerJoin('api_keys as k', 'k.id', 'w.api_key_id')
    .leftJoin('users as u', 'u.id', 'w.owner_user_id')
    .select([
      'w.id',
      'w.entity_name',
      'w.actions',
      'w.api_key_id',
      'w.owner_user_id',
      'k.all_ledgers as key_all',
      'u.all_ledgers as user_all',
      'u.disabled as user_disabled',
    ])
    .where('w.active', '=', 1)
    .where('k.revoked_at', 'is', null)
    .execute();
  const live = rows.filter((r) => r.user_disabled !== 1);
  const scopes = await deliveryScopes(trx, live);
  const owners = [...new Set(live.flatMap((r) => (r.owner_user_id === null ? [] : [r.owner_user_id])))];
  const granted = owners.length
    ? await trx
        .selectFrom('user_permissions')
        .select(['user_id', 'permission'])
        .where('user_id', 'in', owners)
        .execute()
    : [];
  const permissionsOf = new Map(owners.map((id) => [id, new Set<string>()]));
  for (const g of granted) permissionsOf.get(g.user_id)?.add(g.permission);
  return live.map((r) => ({
    id: r.id,
    entity: r.entity_name,
    actions: new Set(r.actions.split(',')),
    scope: scopes.get(r.id)!,
    permissions: r.owner_user_id === null ? undefined : permissionsOf.get(r.owner_user_id),
  }));
}

/** Takes up to `limit` new outbox events and records a pending delivery for every webhook that may see each. */
export async function fanOut(trx: Transaction<DB>, postgres: boolean, now: string, limit: number): Promise<number> {
  let query = trx
    .selectFrom('outbox_events')
    .select(['id', 'event_id', 'entity_type', 'entity_id', 'action', 'company_code_id', 'user_id', 'created_at'])
    .where('dispatched_at', 'is', null)
    .orderBy('id')
    .limit(limit);
  if (postgres) query = query.forUpdate().skipLocked();
  const events = await query.execute();
  if (events.length === 0) return 0;
  const hooks = await activeHooks(trx);
  // A person has no ledger of its own: its events go where it is visible (decisions §7), to the ledgers it is linked
  // to when the event is fanned out (a deleted person's links are gone: its event goes to all-ledgers webhooks).
  const persons = await personLedgers(
    trx,
    events.filter((e) => e.entity_type === 'Person' && e.company_code_id === null).map((e) => e.entity_id),
  );
  const visibleTo = (scope: LedgerScope, e: (typeof events)[number]) =>
    inScope(scope, e.company_code_id) ||
    (e.company_code_id === null &&
      e.entity_type === 'Person' &&
      (persons.get(e.entity_id) ?? []).some((ledger) => inScope(scope, ledger)));
  const rows = [];
  for (const e of events)
    for (const h of hooks)
      if (
        (h.entity === 'All' || h.entity === e.entity_type) &&
        h.actions.has(e.action) &&
        mayRead(h.permissions, e.entity_type) &&
        visibleTo(h.scope, e)
      )
        rows.push({
          webhook_id: h.id,
          event_id: e.event_id,
          entity_type: e.entity_type,
          entity_id: e.entity_id,
          action: e.action,
          user_id: e.user_id,
          event_created_at: e.created_at,
          status: 'pending' as const,
          attempts: 0,
          next_attempt_at: now,
          created_at: now,
        });
  for (let i = 0; i < rows.length; i += 200)
    await trx
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
      .execute();
  const ids = events.map((e) => e.id);
  for (let i = 0; i < ids.length; i += 500)
    await trx
      .updateTable('outbox_events')
      .set({ dispatched_at: now })
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  return events.length;
}

/** Webhooks with deliveries due now and not leased. Every idle poll asks it: a fixed query (src/db/fixed-query.ts). */
const dueWebhooksQuery = fixedQuery<{ now: string }, { webhook_id: number }>(['now'], (db, { now }) =>
  db
    .selectFrom('webhook_deliveries as d')
    // Only webhooks that are delivered to (as in activeHooks): the pending deliveries of one that was made inactive,
    // whose key was revoked or whose owner was disabled wait, and go on if it is delivered to again.
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('api_keys as k', 'k.id', 'w.api_key_id')
    .leftJoin('users as u', 'u.id', 'w.owner_user_id')
    .select('d.webhook_id')
    .distinct()
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
    .where('w.active', '=', 1)
    .where('k.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('u.disabled', 'is', null), eb('u.disabled', '!=', 1)]))
    .limit(500),
);

export async function dueWebhooks(trx: Executor, now: string): Promise<number[]> {
  const { rows } = await dueWebhooksQuery.execute(trx, { now });
  return rows.map((r) => r.webhook_id);
}

/** Whether any outbox event waits to be fanned out (every idle poll asks: a fixed query). */
const pendingEventQuery = fixedQuery<Record<string, never>, { id: number }>([], (db) =>
  db.selectFrom('outbox_events').select('id').where('dispatched_at', 'is', null).limit(1),
);

export async function eventPending(db: Executor): Promise<boolean> {
  return (await pendingEventQuery.first(db, {})) !== undefined;
}

/** Leases up to `limit` due deliveries of one webhook to `owner` until `until`. */
export async function claim(
  trx: Transaction<DB>,
  postgres: boolean,
  webhookId: number,
  limit: number,
  owner: string,
  now: string,
  until: string,
): Promise<DeliveryRow[]> {
  if (postgres) {
    // A materialized CTE: the locking subquery runs once (inside `IN (...)` PostgreSQL may run it again per row and
    // take more than `limit` rows).
    const { rows } = await sql<DeliveryRow>`
      WITH picked AS MATERIALIZED (
        SELECT id FROM webhook_deliveries
        WHERE webhook_id = ${webhookId} AND status = 'pending' AND next_attempt_at <= ${now}
          AND (lease_until IS NULL OR lease_until < ${now})
        ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      UPDATE webhook_deliveries AS d SET lease_owner = ${owner}, lease_until = ${until}
      FROM picked WHERE d.id = picked.id
      RETURNING d.*`.execute(trx);
    return rows;
  }
  // SQLite: this transaction holds the write lock (dispatchTransaction), so the statement cannot race.
  const pick = trx
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit);
  return trx
    .updateTable('webhook_deliveries')
    .set({ lease_owner: owner, lease_until: until })
    .where('id', 'in', pick)
    .returningAll()
    .execute();
}

export interface Completion {
  delivery: DeliveryRow;
  attempt: number;
  attemptedAt: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** What follows: delivered, a retry at that time, or failed for good. */
  outcome: { status: 'delivered' } | { status: 'pending'; nextAttemptAt: string } | { status: 'failed' };
}

/** Records finished attempts: the delivery's new state and a row of the attempt log each. */
export async function complete(trx: Transaction<DB>, all: Completion[], now: string): Promise<void> {
  if (all.length === 0) return;
  // A webhook deleted meanwhile took its deliveries with it: nothing to record for them.
  const exist = new Set<number>();
  const ids = all.map((c) => c.delivery.id);
  for (let i = 0; i < ids.length; i += 500)
    for (const r of await trx
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('id', 'in', ids.slice(i, i + 500))
      .execute())
      exist.add(r.id);
  const done = all.filter((c) => exist.has(c.delivery.id));
  for (const c of done) {
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status: c.outcome.status,
        attempts: c.attempt,
        next_attempt_at: c.outcome.status === 'pending' ? c.outcome.nextAttemptAt : c.delivery.next_attempt_at,
        lease_owner: null,
        lease_until: null,
        last_status_code: c.statusCode,
        last_error: c.error,
        finished_at: c.outcome.status === 'pending' ? null : now,
      })
      .where('id', '=', c.delivery.id)
      .execute();
  }
  for (let i = 0; i < done.length; i += 100)
    await trx
      .insertInto('webhook_attempts')
      .values(
        done.slice(i, i + 100).map((c) => ({
          delivery_id: c.delivery.id,
          webhook_id: c.delivery.webhook_id,
          attempt: c.attempt,
          attempted_at: c.attemptedAt,
          status_code: c.statusCode,
          error: c.error,
          duration_ms: c.durationMs,
        })),
      )
      .execute();
}

/** Gives back leases that were not used. */
export async function release(trx: Transaction<DB>, ids: number[], owner: string): Promise<void> {
  for (let i = 0; i < ids.length; i += 500)
    await trx
      .updateTable('webhook_deliveries')
      .set({ lease_owner: null, lease_until: null })
      .where('id', 'in', ids.slice(i, i + 500))
      .where('lease_owner', '=', owner)
      .where('status', '=', 'pending')
      .execute();
}

/** Deletes dispatched outbox events, finished deliveries and attempt-log rows older than `cutoff`. */
export async function prune(trx: Transaction<DB>, cutoff: string): Promise<void> {
  await trx.deleteFrom('webhook_attempts').where('attempted_at', '<', cutoff).execute();
  await trx
    .deleteFrom('webhook_deliveries')
    .where('status', '!=', 'pending')
    .where('finished_at', '<', cutoff)
    .execute();
  await trx
    .deleteFrom('outbox_events')
    .where('dispatched_at', 'is not', null)
    .where('dispatched_at', '<', cutoff)
    .execute();
}

/** Whether a prune is due (at most hourly across all processes); marks it done. */
export async function takePruneTurn(trx: Transaction<DB>, now: string, hourAgo: string): Promise<boolean> {
  const res = await trx
    .updateTable('webhook_dispatch_state')
    .set({ pruned_at: now })
    .where('id', '=', 1)
    .where((eb) => eb.or([eb('pruned_at', 'is', null), eb('pruned_at', '<', hourAgo)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
