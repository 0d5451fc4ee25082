// Throttles failed logins per user name (known or not, so the answer reveals nothing) and per client address, with
// growing delays instead of a lock-out: after `free` failures each further failure makes the next attempt wait
// 1 s, 2 s, 4 s, ... up to `maxWait` seconds. A success resets the user name's counter (not the address's);
// a counter without a failure for FORGET_SECONDS starts again. The counters are rows of login_throttle, so every
// process sharing the database counts together (docs/limits.md).
// An attempt is counted on its user name before its password is checked (`reserveAttempt`, one locked row), so
// attempts sent at once cannot all pass the check before the first failure is counted; a success then removes
// the count. The address is counted after a failure, so successes never count against it.
import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';
import { sha256 } from './secrets.ts';

/** A counter is forgotten after an hour without a failure. */
export const FORGET_SECONDS = 3600;

export interface ThrottleSettings {
  /** Failures of one user name before attempts must wait. */
  userFree: number;
  /** Failures from one client address (any user names) before attempts must wait. */
  addressFree: number;
  /** Longest wait in seconds. */
  maxWait: number;
}

export interface ThrottleKey {
  key: string;
  free: number;
}

/** The counters one login attempt touches: its user name (case-sensitive, as user names are) and its address. */
export function throttleKeys(name: string, address: string, settings: ThrottleSettings): ThrottleKey[] {
  return [
    { key: `user:${sha256(name)}`, free: settings.userFree },
    { key: `addr:${address}`, free: settings.addressFree },
  ];
}

const isUserKey = (k: ThrottleKey) => k.key.startsWith('user:');
/** The user name's counter key of an attempt's keys. */
export const userKeyOf = (keys: ThrottleKey[]): string => keys.find(isUserKey)?.key ?? '';

/** Attempts of one user name that may wait in one process; more at once are refused (429, retry in 1 s). */
export const MAX_QUEUED_PER_NAME = 16;

const inFlight = new Map<string, { tail: Promise<unknown>; queued: number }>();

/**
 * Runs the attempts of one user name one after the other in this process (attempts of other names run alongside).
 * Correct logins sent at once then do not count against each other: each is counted, checked and cleared before
 * the next is counted. Across processes the counter row still makes them atomic (`reserveAttempt`). The queue is
 * bounded (waits add up while the database is slow): past MAX_QUEUED_PER_NAME this answers undefined.
 */
export function onePerName<T>(key: string, attempt: () => Promise<T>): Promise<T> | undefined {
  const entry = inFlight.get(key) ?? { tail: Promise.resolve(), queued: 0 };
  if (entry.queued >= MAX_QUEUED_PER_NAME) return undefined;
  const mine = entry.tail.then(attempt, attempt);
  const tail = mine.then(
    () => undefined,
    () => undefined,
  );
  entry.tail = tail;
  entry.queued++;
  inFlight.set(key, entry);
  void tail.then(() => {
    if (--entry.queued === 0 && inFlight.get(key) === entry) inFlight.delete(key);
  });
  return mine;
}
/** The client address's counter of an attempt's keys (counted after a failure only). */
export const addressKeys = (keys: ThrottleKey[]) => keys.filter((k) => !isUserKey(k));

/**
 * Lets an attempt go ahead (0) and counts it as a failure of its user name, or answers the seconds it must wait
 * (nothing counted). Atomic per user name: the counter's row is written (and so locked until the transaction ends)
 * only when no wait runs, so of attempts sent at once only as many as the counter allows go ahead.
 */
export async function reserveAttempt(db: Executor, keys: ThrottleKey[], now: Date, maxWait: number): Promise<number> {
  const waiting = await retryAfter(db, addressKeys(keys), now);
  if (waiting > 0) return waiting;
  const stamp = now.toISOString();
  const forgotten = new Date(now.getTime() - FORGET_SECONDS * 1000).toISOString();
  for (const { key, free } of keys.filter(isUserKey)) {
    const counted = await db
      .insertInto('login_throttle')
      .values({ key, failures: 1, last_failure_at: stamp, blocked_until: null })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            failures: sql<number>`case when login_throttle.last_failure_at < ${forgotten} then 1 else login_throttle.failures + 1 end`,
            last_failure_at: stamp,
          })
          .where((eb) =>
            eb.or([eb('login_throttle.blocked_until', 'is', null), eb('login_throttle.blocked_until', '<=', stamp)]),
          ),
      )
      .returning('failures')
      .executeTakeFirst();
    if (!counted) return Math.max(1, await retryAfter(db, [{ key, free }], now));
    await setWait(db, key, waitAfter(Number(counted.failures), free, maxWait), now);
  }
  return 0;
}

/** Makes the counter's next attempt wait `wait` seconds from now (never shortens a longer wait). */
async function setWait(db: Executor, key: string, wait: number, now: Date): Promise<void> {
  if (wait <= 0) return;
  const until = new Date(now.getTime() + wait * 1000).toISOString();
  await db
    .updateTable('login_throttle')
    .set({ blocked_until: until })
    .where('key', '=', key)
    .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', until)]))
    .execute();
}

/** Seconds the attempt must still wait (0: go ahead). */
export async function retryAfter(db: Executor, keys: ThrottleKey[], now: Date): Promise<number> {
  const row = await db
    .selectFrom('login_throttle')
    .select((eb) => eb.fn.max('blocked_until').as('until'))
    .where(
      'key',
      'in',
      keys.map((k) => k.key),
    )
    .where('blocked_until', '>', now.toISOString())
    .executeTakeFirst();
  const until = row?.until;
  return until ? Math.max(1, Math.ceil((new Date(until).getTime() - now.getTime()) / 1000)) : 0;
}

/** Wait after the n-th consecutive failure of a counter that allows `free` of them. */
export const waitAfter = (failures: number, free: number, maxWait: number): number =>
  failures < free ? 0 : Math.min(maxWait, 2 ** Math.min(failures - free, 30));

/** Counts one failure on each counter (atomically, so concurrent processes lose none) and sets its wait. */
export async function recordFailure(db: Executor, keys: ThrottleKey[], now: Date, maxWait: number): Promise<void> {
  const stamp = now.toISOString();
  const forgotten = new Date(now.getTime() - FORGET_SECONDS * 1000).toISOString();
  for (const { key, free } of keys) {
    const { failures } = await db
      .insertInto('login_throttle')
      .values({ key, failures: 1, last_failure_at: stamp, blocked_until: null })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql<number>`case when login_throttle.last_failure_at < ${forgotten} then 1 else login_throttle.failures + 1 end`,
          last_failure_at: stamp,
        }),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    await setWait(db, key, waitAfter(Number(failures), free, maxWait), now);
  }
}

/** A successful login ends the user name's run of failures (its own attempt, counted by reserveAttempt, with it). */
export async function recordSuccess(db: Executor, keys: ThrottleKey[]): Promise<void> {
  const users = keys.filter(isUserKey).map((k) => k.key);
  if (users.length) await db.deleteFrom('login_throttle').where('key', 'in', users).execute();
}

/** Drops counters nobody needs any more (no failure for FORGET_SECONDS and no wait pending). */
export async function purgeThrottle(db: Executor, now: Date): Promise<void> {
  await db
    .deleteFrom('login_throttle')
    .where('last_failure_at', '<', new Date(now.getTime() - FORGET_SECONDS * 1000).toISOString())
    .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<', now.toISOString())]))
    .execute();
}
