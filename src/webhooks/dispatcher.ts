// The webhook dispatcher: takes new outbox events, fans them out to the matching webhooks, and delivers them, all
// state in the database (src/webhooks/deliveries.ts), so any number of processes may run it and a kill at any
// moment loses nothing (an attempt in flight may be repeated, with the same webhook-id). Deliveries to one webhook
// run concurrently up to WEBHOOK_CONCURRENCY; a slow receiver only holds its own slots.
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { MAX_ATTEMPTS, payload, retryDelayMs } from './model.ts';
import { send, type SendResult } from './sender.ts';
import { webhookMetrics } from './metrics.ts';
import {
  claim,
  complete,
  dispatchTransaction,
  dueWebhooks,
  eventPending,
  fanOut,
  prune,
  release,
  takePruneTurn,
  type Completion,
  type DeliveryRow,
} from './deliveries.ts';

export interface DispatcherOptions {
  database: Database;
  config: Readonly<Config>;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export interface Dispatcher {
  /** Stops taking work, waits for deliveries in flight and records them. */
  stop(): Promise<void>;
}

const HOUR = 3600_000;
const DAY = 24 * HOUR;
/** How often one process asks whether the (at most hourly, shared) pruning is due. */
const PRUNE_CHECK_MS = 10 * 60_000;
/** Deliveries of one webhook leased at once by one process (started WEBHOOK_CONCURRENCY at a time). */
const PREFETCH = 256;
/** Pause between rounds while there is work (see the loop). Under a steady write load (S5) rounds at once cost ~7% of
 *  the worker's CPU fanning out a few events each. */
const BUSY_GAP_MS = 20;
/** While dispatcher rounds keep failing, at most one log line per this interval. */
const FAILURE_LOG_MS = 30_000;

interface Target {
  url: string;
  signing_secret: string;
  auth_type: string;
  auth_name: string | null;
  auth_secret: string | null;
}
const iso = (ms: number) => new Date(ms).toISOString();

export function startDispatcher({ database, config, logger }: DispatcherOptions): Dispatcher {
  const owner = crypto.randomUUID();
  const postgres = database.dialect === 'postgres';
  // A leased delivery is taken again only after its lease: well beyond the longest attempt (resolution and timeout).
  const leaseMs = config.webhookTimeoutMs * 2 + 5000;
  const inflight = new Map<number, number>();
  const running = new Set<Promise<void>>();
  let completions: Completion[] = [];
  /** Leases given back unused (their lease would end before an attempt could be recorded). */
  let releases: number[] = [];
  /** Per webhook: deliveries leased by this process, not yet started; and where and how to send them. */
  const queues = new Map<number, DeliveryRow[]>();
  const targets = new Map<number, Target>();
  let stopped = false;
  let lastPruneCheck = 0;
  let wake: (() => void) | undefined;
  const signal = () => wake?.();

  async function deliver(d: DeliveryRow): Promise<void> {
    const hook = targets.get(d.webhook_id);
    const attempt = d.attempts + 1;
    const attemptedAt = Date.now();
    if (attempt === 1) webhookMetrics.lag.observe(Math.max(0, attemptedAt - Date.parse(d.event_created_at)) / 1000);
    if (!hook) return; // deleted meanwhile: its deliveries went with it
    let result: SendResult;
    try {
      const body = payload(
        {
          eventId: d.event_id,
          entityType: d.entity_type,
          entityId: d.entity_id,
          action: d.action,
          userId: d.user_id,
          createdAt: d.event_created_at,
        },
        config,
      );
      result = await send(
        {
          url: hook.url,
          eventId: d.event_id,
          body,
          signingSecret: hook.signing_secret,
          auth: { type: hook.auth_type, name: hook.auth_name, secret: hook.auth_secret },
        },
        { allowPrivate: config.webhookAllowPrivate, timeoutMs: config.webhookTimeoutMs },
      );
    } catch (err) {
      // send() answers failures itself; anything else is a failed attempt too, so that no delivery is left pending.
      const error = `The delivery could not be sent: ${err instanceof Error ? err.message : String(err)}`;
      result = { ok: false, statusCode: null, error, durationMs: Date.now() - attemptedAt };
    }
    let outcome: Completion['outcome'];
    if (result.ok) {
      webhookMetrics.sent.inc();
      outcome = { status: 'delivered' };
    } else {
      const delay = attempt < MAX_ATTEMPTS ? retryDelayMs(attempt, config.webhookRetryBaseMs) : undefined;
      if (delay === undefined) {
        webhookMetrics.failed.inc();
        outcome = { status: 'failed' };
        logger.warn(
          {
            webhookId: d.webhook_id,
            eventId: d.event_id,
            attempts: attempt,
            statusCode: result.statusCode,
            error: result.error,
          },
          'webhook delivery failed for good',
        );
      } else {
        webhookMetrics.retried.inc();
        outcome = { status: 'pending', nextAttemptAt: iso(Date.now() + delay) };
      }
    }
    completions.push({
      delivery: d,
      attempt,
      attemptedAt: iso(attemptedAt),
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
      outcome,
    });
  }

  /** Starts queued deliveries of a webhook while it has free slots; gives back those whose lease is too short. */
  function pump(webhookId: number) {
    const queue = queues.get(webhookId) ?? [];
    while (queue.length && (inflight.get(webhookId) ?? 0) < config.webhookConcurrency) {
      const d = queue.shift()!;
      if (stopped || Date.parse(d.lease_until ?? '') - Date.now() < config.webhookTimeoutMs + 5000) {
        releases.push(d.id);
        continue;
      }
      inflight.set(webhookId, (inflight.get(webhookId) ?? 0) + 1);
      const p = deliver(d)
        .catch((err: unknown) => logger.error({ err, deliveryId: d.id }, 'webhook delivery crashed'))
        .finally(() => {
          inflight.set(webhookId, (inflight.get(webhookId) ?? 1) - 1);
          running.delete(p);
          pump(webhookId);
          // A round (synchronous database work on SQLite) per completion would starve the sends: wake the loop
          // only to refill a queue running dry or to record a large batch; otherwise it comes at the poll interval.
          if ((queues.get(webhookId)?.length ?? 0) < config.webhookConcurrency || completions.length >= 500) signal();
        });
      running.add(p);
    }
  }

  async function flush(): Promise<void> {
    if (completions.length === 0 && releases.length === 0) return;
    const batch = completions;
    const given = releases;
    completions = [];
    releases = [];
    const now = Date.now();
    await dispatchTransaction(database, owner, iso(now + leaseMs), async (trx) => {
      await complete(trx, batch, iso(now));
      await release(trx, given, owner);
    });
  }

  /** One round: record finished attempts, fan out new events, lease and start due deliveries. Whether it found work. */
  async function round(): Promise<boolean> {
    await flush();
    const now = Date.now();
    // Reads first: an idle dispatcher only reads, and writes (one commit) when there is work.
    const pending = await eventPending(database.db);
    const fanned = pending
      ? await dispatchTransaction(database, owner, iso(now + leaseMs), (trx) => fanOut(trx, postgres, iso(now), 500))
      : 0;
    let claimed = 0;
    if (!stopped) {
      for (const webhookId of await dueWebhooks(database.db, iso(now))) {
        const queue = queues.get(webhookId) ?? [];
        if (queue.length >= config.webhookConcurrency) continue;
        // Leases a batch beyond the free slots (fewer round trips to the database); what cannot start while its
        // lease is long enough is given back. The lease runs from when the lock is held.
        const rows = await dispatchTransaction(database, owner, iso(Date.now() + leaseMs), (trx) => {
          const t = Date.now();
          return claim(trx, postgres, webhookId, PREFETCH - queue.length, owner, iso(t), iso(t + leaseMs));
        });
        if (rows.length === 0) continue;
        const target = await database.db
          .selectFrom('webhooks')
          .select(['url', 'signing_secret', 'auth_type', 'auth_name', 'auth_secret'])
          .where('id', '=', webhookId)
          .executeTakeFirst();
        if (!target) continue; // deleted meanwhile: its deliveries went with it
        targets.set(webhookId, target);
        queues.set(webhookId, [...queue, ...rows]);
        pump(webhookId);
        claimed += rows.length;
      }
    }
    if (now - lastPruneCheck >= PRUNE_CHECK_MS) {
      lastPruneCheck = now;
      await dispatchTransaction(database, owner, iso(now + leaseMs), async (trx) => {
        if (await takePruneTurn(trx, iso(now), iso(now - HOUR)))
          await prune(trx, iso(now - config.webhookRetentionDays * DAY));
      });
    }
    return fanned > 0 || claimed > 0;
  }

  // While rounds keep failing (the database out of reach), the first failure is logged with its error, then one line
  // per FAILURE_LOG_MS saying how many failed since, and one when rounds work again: not one line per poll.
  let failing: { since: number; count: number; logged: number } | undefined;
  const loop = (async () => {
    while (!stopped) {
      let busy = false;
      try {
        busy = await round();
        if (failing) {
          logger.warn({ failedRounds: failing.count }, 'webhook dispatcher rounds work again');
          failing = undefined;
        }
      } catch (err) {
        const now = Date.now();
        if (!failing) {
          failing = { since: now, count: 1, logged: now };
          logger.error({ err }, 'webhook dispatcher round failed');
        } else {
          failing.count++;
          if (now - failing.logged >= FAILURE_LOG_MS) {
            failing.logged = now;
            const since = new Date(failing.since).toISOString();
            const detail = { failedRounds: failing.count, since, err: { message: (err as Error).message } };
            logger.error(detail, 'webhook dispatcher rounds still failing');
          }
        }
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        // After a round that found work the next comes soon, but not at once: events written meanwhile are fanned
        // out together (a round's statements and commit cost the same for 1 event as for 500). A delivery slot that
        // frees up still wakes the loop at once (signal).
        const timer = setTimeout(done, busy ? Math.min(BUSY_GAP_MS, config.webhookPollMs) : config.webhookPollMs);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });
    }
    for (const queue of queues.values()) releases.push(...queue.splice(0).map((d) => d.id));
    await Promise.allSettled([...running]);
    await flush().catch((err: unknown) => logger.error({ err }, 'webhook dispatcher could not record attempts'));
  })();

  return {
    async stop() {
      stopped = true;
      signal();
      await loop;
    },
  };
}
