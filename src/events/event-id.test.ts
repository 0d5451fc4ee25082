import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventId } from './event-id.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** The Unix time in ms a version-7 id carries. */
const msOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('event ids (UUID version 7)', () => {
  it('are version-7 UUIDs that carry the time they were made', () => {
    const before = Date.now();
    const id = eventId();
    assert.match(id, V7);
    assert.ok(msOf(id) >= before && msOf(id) <= Date.now(), id);
  });

  it('sort in the order they were made: within one millisecond, across milliseconds, and when the clock goes back', () => {
    const ids: string[] = [];
    const t = Date.now() + 60_000;
    for (let i = 0; i < 20_000; i++) ids.push(eventId(t));
    for (let i = 0; i < 100; i++) ids.push(eventId(t + 1 + i));
    for (let i = 0; i < 100; i++) ids.push(eventId(t - 5)); // the clock went back: still after the last id
    for (const id of ids) assert.match(id, V7);
    for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1]! < ids[i]!, `${ids[i - 1]} < ${ids[i]} (at ${i})`);
    assert.equal(new Set(ids).size, ids.length);
  });
});
