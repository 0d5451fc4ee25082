// Event ids: UUID version 7 (RFC 9562, 5.7), monotonic within the process (6.2, method 2: the 74 random bits are a
// counter seeded at random for each new millisecond and incremented within one). Ids made later sort after earlier
// ones, so the outbox's unique index on event_id grows at its end instead of at random places: an import that records
// 167,000 events spent ~60% of its event inserts on the random B-tree inserts of version-4 ids.
import crypto from 'node:crypto';

const pool = new Uint32Array(256);
let poolAt = pool.length;
const random32 = (): number => {
  if (poolAt === pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  return pool[poolAt++] as number;
};

let lastMs = -1;
/** The id's text up to rand_a, for the millisecond prefixMs (an import makes thousands of ids in one). */
let prefixMs = -1;
let prefix = '';
/** rand_a (12 bits), then rand_b in two parts (30 and 32 bits): one 74-bit counter, most significant first. */
let a = 0;
let b1 = 0;
let b2 = 0;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** A new event id; `now` (ms since the epoch) for tests. */
export function eventId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    a = random32() & 0xfff;
    // rand_b's top bit starts clear: 2^61 increments within a millisecond before rand_a moves (RFC 9562 6.2)
    b1 = random32() & 0x1fffffff;
    b2 = random32();
  } else if (++b2 > 0xffffffff) {
    // same millisecond, or the clock went back: count on from the last id
    b2 = 0;
    if (++b1 > 0x3fffffff) {
      b1 = 0;
      if (++a > 0xfff) {
        a = 0;
        lastMs++;
      }
    }
  }
  if (prefixMs !== lastMs) {
    const ms = hex(lastMs, 12);
    prefix = `${ms.slice(0, 8)}-${ms.slice(8)}-7`;
    prefixMs = lastMs;
  }
  return `${prefix}${hex(a, 3)}-${hex(0x8000 | ((b1 >>> 16) & 0x3fff), 4)}-${hex(b1 & 0xffff, 4)}${hex(b2, 8)}`;
}
