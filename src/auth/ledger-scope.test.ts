// A ledger scope as the values of a fixed query and back (scopeValues / scopeOf): the shape says how many ledgers,
// the values which; all ledgers, none and several round-trip.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_LEDGERS, scopeOf, scopeValues, type LedgerScope } from './ledger-scope.ts';

describe('ledger scope as fixed-query values', () => {
  const cases: Array<[LedgerScope, string]> = [
    [ALL_LEDGERS, 'allLedgers'],
    [{ all: false, ids: [] }, ''],
    [{ all: false, ids: [7] }, 's0'],
    [{ all: false, ids: [3, 1, 12] }, 's0,s1,s2'],
  ];
  for (const [scope, shape] of cases) {
    it(`${JSON.stringify(scope)}: shape '${shape}', and back`, () => {
      const values = { kind: 'K', ...scopeValues(scope), limit: 100 };
      assert.equal(Object.keys(scopeValues(scope)).join(','), shape);
      assert.deepEqual(scopeOf(values), scope);
    });
  }
});
