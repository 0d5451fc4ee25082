// The written path (records written straight to JSON text: pages and streamed v1.0 lists) answers the same bytes as
// the reference path it replaced: the presented records (Endpoint.read) through the compiled serializer of the
// response schema, nulls left out or kept — for every rent-accounting endpoint of both versions, on records with
// every field filled and on records whose details are missing (nulls everywhere after the header).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { DIALECTS } from '../../test/support/db.ts';
import { bearer, testApp, type TestApp } from '../../test/support/app.ts';
import type { Executor } from '../db/database.ts';
import { ALL_LEDGERS } from '../auth/ledger-scope.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { buildWorld } from '../dataset/factories.ts';
import { WireObject } from '../http/schemas.ts';
import { compileSerializers } from '../http/serializer.ts';
import { joinObjects } from './contracts.ts';
import { ENDPOINTS } from './index.ts';
import type { Endpoint } from './engine.ts';
import { sparseAgreements } from '../../test/fixtures/contracts.ts';

/** The answer of the reference path: the presented records through the response schema's compiled serializer. */
async function reference(db: Executor, ep: Endpoint, showNulls: boolean): Promise<string> {
  const serializers = compileSerializers(Type.Array(WireObject(ep.fields)));
  assert.ok(serializers, `${ep.url}: the response schema compiles`);
  const { items } = await ep.read(db, {}, ALL_LEDGERS, { offset: 0, limit: 100 });
  assert.ok(items.length > 0 && items.length < 100, `${ep.url}: ${items.length} records, all on one page`);
  return showNulls ? serializers.keep(items) : serializers.omit(items);
}

for (const dialect of DIALECTS) {
  describe(`rent accounting written answers equal the presented ones [${dialect}]`, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await testApp(dialect, { PAGE_CACHE_MB: '0' });
      const world = await buildWorld(t.database.db, { ledgers: 2 });
      await sparseAgreements(t.database.db, world);
      token = await t.login({ permissions: [PERMISSIONS.rentAccountingRead] });
    });
    after(() => t.close());
    const body = async (url: string) => {
      const res = await t.app.inject({ url, headers: bearer(token) });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8/);
      return res.body;
    };

    for (const ep of ENDPOINTS) {
      it(`${ep.url}: pages${ep.version === '1.0' ? ' and the streamed list' : ''}, nulls left out and kept`, async () => {
        for (const showNulls of [false, true]) {
          const expected = await reference(t.database.db, ep, showNulls);
          const written = await ep.write(t.database.db, {}, ALL_LEDGERS, { offset: 0, limit: 100 }, showNulls);
          assert.equal(`[${written.texts.join(',')}]`, expected, `${ep.url} written, showNullValues=${showNulls}`);
          const query = showNulls ? '&showNullValues=true' : '';
          assert.equal(await body(`/service${ep.url}?limit=100${query}`), expected, `${ep.url} page`);
          if (ep.version === '1.0')
            assert.equal(await body(`/service${ep.url}${query.replace('&', '?')}`), expected, `${ep.url} streamed`);
          if (!showNulls) assert.ok(!expected.includes('null'), 'nulls are left out by default');
          else if (ep.summary.includes('contract agreements'))
            assert.ok(expected.includes('null'), 'the sparse records show nulls when asked');
        }
      });
    }
  });
}

describe('joinObjects', () => {
  it('joins two objects, either of which may be empty', () => {
    assert.equal(joinObjects('{"a":1}', '{"b":2,"c":null}'), '{"a":1,"b":2,"c":null}');
    assert.equal(joinObjects('{"a":1}', '{}'), '{"a":1}');
    assert.equal(joinObjects('{}', '{"b":2}'), '{"b":2}');
    assert.equal(joinObjects('{}', '{}'), '{}');
  });
});
