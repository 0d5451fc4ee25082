import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { idsAscending } from './joined-order.ts';

describe('idsAscending', () => {
  it('accepts ascending ids and none, and refuses any other order', () => {
    assert.equal(idsAscending(null), true);
    assert.equal(idsAscending('7'), true);
    assert.equal(idsAscending('1,2,10,11'), true);
    assert.equal(idsAscending('1,10,2'), false);
    assert.equal(idsAscending('3,3'), false);
    assert.equal(idsAscending('1,,2'), false);
  });
});
