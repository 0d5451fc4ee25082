import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ledgerProbe } from './support/probe-route.ts';
import { DIALECTS } from './support/db.ts';
import { bearer, testApp, type TestApp } from './support/app.ts';
import { openDatabase, type Database } from '../src/db/database.ts';

const URL_ = '/service/v1.2/Probe/Ledgers';

const registerLedgerRoute = ledgerProbe(URL_);

for (const dialect of DIALECTS) {
  describe(`page cache [${dialect}]`, () => {
    let t: TestApp;
    let other: Database;
    let token: string;
    before(async () => {
      t = await testApp(dialect, {}, registerLedgerRoute);
      other = openDatabase(t.database.url); // a second connection, as another server process would have
      await t.database.db
        .insertInto('company_codes')
        .values([
          { id: 1, code: '1', name: 'One' },
          { id: 2, code: '2', name: 'Two' },
        ])
        .execute();
      token = await t.login();
    });
    after(async () => {
      await other.close();
      await t.close();
    });
    const get = (q = '') => t.app.inject({ url: `${URL_}${q}`, headers: bearer(token) });

    it('serves a repeated request from the cache, and never data older than the last commit of any connection', async () => {
      const first = await get();
      assert.equal(first.headers['x-cache'], 'miss');
      const second = await get();
      assert.equal(second.headers['x-cache'], 'hit');
      assert.equal(second.body, first.body);
      await other.db.updateTable('company_codes').set({ name: 'Renamed' }).where('id', '=', 1).execute();
      const third = await get();
      assert.equal(third.headers['x-cache'], 'miss');
      assert.equal(third.json()[0].Name, 'Renamed');
      await t.database.db.insertInto('company_codes').values({ id: 3, code: '3', name: 'Three' }).execute();
      assert.equal((await get()).json().length, 3);
    });

    it('keeps ledgers apart and still checks credentials on every request', async () => {
      const key = await t.apiKey([2]);
      assert.deepEqual(
        (await get(`?apiKey=${key}`)).json().map((r: { Id: number }) => r.Id),
        [2],
      );
      assert.deepEqual(
        (await get()).json().map((r: { Id: number }) => r.Id),
        [1, 2, 3],
      );
      assert.deepEqual(
        (await get(`?apiKey=${key}`)).json().map((r: { Id: number }) => r.Id),
        [2],
      );
      assert.equal((await t.app.inject({ url: URL_ })).statusCode, 401);
    });
  });
}
