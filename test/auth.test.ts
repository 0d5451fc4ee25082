import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from './support/db.ts';
import { bearer, testApp, tokenRequest, type TestApp } from './support/app.ts';
import { PROBE_URL, registerProbe } from './support/probe-route.ts';
import { disableUser, setPassword, addUser } from '../src/auth/users.ts';
import { revokeApiKey } from '../src/auth/api-keys.ts';
import { PERMISSIONS } from '../src/auth/permissions.ts';
import { openDatabase } from '../src/db/database.ts';

for (const dialect of DIALECTS) {
  describe(`authentication [${dialect}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await testApp(dialect, { LOGIN_MAX_FAILURES: '3', LOGIN_LOCK_SECONDS: '60' }, registerProbe);
      await t.database.db
        .insertInto('company_codes')
        .values([
          { id: 1, code: '1000', name: 'A' },
          { id: 2, code: '2000', name: 'B' },
        ])
        .execute();
    });
    after(() => t.close());

    const get = (token?: string, url = PROBE_URL) => t.app.inject({ url, headers: token ? bearer(token) : {} });

    it('password grant answers the RFC 6749 fields with Cache-Control: no-store', async () => {
      await addUser(t.database.db, {
        name: 'alice',
        password: 'alice-secret',
        permissions: [PERMISSIONS.runningCostRead],
      });
      const res = await tokenRequest(t.app, { grant_type: 'password', username: 'alice', password: 'alice-secret' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
      const body = res.json();
      assert.equal(body.token_type, 'bearer');
      assert.equal(body.expires_in, 3600);
      assert.match(body.access_token, /^[A-Za-z0-9_-]{43}$/);
      assert.match(body.refresh_token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal((await get(body.access_token)).statusCode, 200);
      // also answered under /service/oauth2/token
      const again = await tokenRequest(
        t.app,
        { grant_type: 'password', username: 'alice', password: 'alice-secret' },
        '/service/oauth2/token',
      );
      assert.equal(again.statusCode, 200);
    });

    it('unknown user and wrong password get byte-identical answers', async () => {
      await addUser(t.database.db, { name: 'bob', password: 'bob-secret1', permissions: [] });
      const wrong = await tokenRequest(t.app, { grant_type: 'password', username: 'bob', password: 'nope-nope' });
      const unknown = await tokenRequest(t.app, { grant_type: 'password', username: 'nobody', password: 'nope-nope' });
      assert.equal(wrong.statusCode, 400);
      assert.equal(unknown.statusCode, 400);
      assert.equal(wrong.body, unknown.body);
      assert.equal(wrong.json().error, 'invalid_grant');
      const strip = (h: Record<string, unknown>) =>
        Object.keys(h)
          .filter((k) => !['date', 'x-request-id'].includes(k))
          .sort()
          .map((k) => `${k}:${String(h[k])}`);
      assert.deepEqual(strip(wrong.headers), strip(unknown.headers));
    });

    it('rejects malformed token requests with RFC 6749 errors', async () => {
      const json = await t.app.inject({
        method: 'POST',
        url: '/oauth2/token',
        payload: { grant_type: 'password', username: 'alice', password: 'alice-secret' },
      });
      assert.equal(json.statusCode, 400);
      assert.equal(json.json().error, 'invalid_request');
      const missing = await tokenRequest(t.app, { grant_type: 'password', username: 'alice' });
      assert.deepEqual([missing.statusCode, missing.json().error], [400, 'invalid_request']);
      const noGrant = await tokenRequest(t.app, { username: 'alice' });
      assert.deepEqual([noGrant.statusCode, noGrant.json().error], [400, 'invalid_request']);
      const repeated = await t.app.inject({
        method: 'POST',
        url: '/oauth2/token',
        payload: 'grant_type=password&username=alice&username=bob&password=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.deepEqual([repeated.statusCode, repeated.json().error], [400, 'invalid_request']);
      assert.match(repeated.json().error_description, /username/);
      const unsupported = await tokenRequest(t.app, { grant_type: 'client_credentials' });
      assert.deepEqual([unsupported.statusCode, unsupported.json().error], [400, 'unsupported_grant_type']);
    });

    it('throttles repeated failed logins for one user name with 429 and Retry-After', async () => {
      await addUser(t.database.db, { name: 'carol', password: 'carol-secret', permissions: [] });
      for (let i = 0; i < 3; i++) {
        assert.equal(
          (await tokenRequest(t.app, { grant_type: 'password', username: 'carol', password: 'wrong-one' })).statusCode,
          400,
        );
      }
      const locked = await tokenRequest(t.app, { grant_type: 'password', username: 'carol', password: 'carol-secret' });
      assert.equal(locked.statusCode, 429);
      assert.ok(Number(locked.headers['retry-after']) > 0);
      t.clock.advance(61);
      assert.equal(
        (await tokenRequest(t.app, { grant_type: 'password', username: 'carol', password: 'carol-secret' })).statusCode,
        200,
      );
    });

    it('refresh tokens rotate, and reusing an old one revokes the family', async () => {
      await addUser(t.database.db, {
        name: 'dave',
        password: 'dave-secret',
        permissions: [PERMISSIONS.runningCostRead],
      });
      const first = (
        await tokenRequest(t.app, { grant_type: 'password', username: 'dave', password: 'dave-secret' })
      ).json();
      const second = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
      assert.equal(second.statusCode, 200);
      const rotated = second.json();
      assert.notEqual(rotated.refresh_token, first.refresh_token);
      assert.equal((await get(rotated.access_token)).statusCode, 200);
      const replay = await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: first.refresh_token });
      assert.deepEqual([replay.statusCode, replay.json().error], [400, 'invalid_grant']);
      assert.equal((await get(rotated.access_token)).statusCode, 401, 'family revoked');
      assert.equal(
        (await tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: rotated.refresh_token })).statusCode,
        400,
      );
    });

    it('two refreshes with one token at once: one may win, but the family is revoked either way', async () => {
      await addUser(t.database.db, {
        name: 'racer',
        password: 'racer-secret',
        permissions: [PERMISSIONS.runningCostRead],
      });
      for (let round = 0; round < 5; round++) {
        const first = (
          await tokenRequest(t.app, { grant_type: 'password', username: 'racer', password: 'racer-secret' })
        ).json();
        const both = await Promise.all(
          [0, 1].map(() => tokenRequest(t.app, { grant_type: 'refresh_token', refresh_token: first.refresh_token })),
        );
        assert.ok(
          both.some((r) => r.statusCode === 400),
          'at most one of the two is answered with new tokens',
        );
        for (const won of both.filter((r) => r.statusCode === 200)) {
          // PostgreSQL: before, the loser whose claim found the token just used returned without revoking
          assert.equal((await get(won.json().access_token)).statusCode, 401, `round ${round}: family revoked`);
          const next = { grant_type: 'refresh_token', refresh_token: won.json().refresh_token };
          assert.equal((await tokenRequest(t.app, next)).statusCode, 400);
        }
      }
    });

    it('401 with WWW-Authenticate and no body for missing, malformed, garbage and expired tokens', async () => {
      const none = await get();
      assert.equal(none.statusCode, 401);
      assert.equal(none.body, '');
      assert.equal(
        none.headers['www-authenticate'],
        'Bearer',
        'no credentials sent: the bare challenge (decisions §2)',
      );
      const basic = await t.app.inject({ url: PROBE_URL, headers: { authorization: 'Basic YTpi' } });
      assert.equal(basic.statusCode, 401);
      const garbage = await get('garbage-token');
      assert.equal(garbage.statusCode, 401);
      assert.equal(garbage.body, '');
      assert.match(String(garbage.headers['www-authenticate']), /error="invalid_token"/);
      const token = await t.login();
      assert.equal((await get(token)).statusCode, 200);
      t.clock.advance(3601);
      const expired = await get(token);
      assert.equal(expired.statusCode, 401);
      assert.match(String(expired.headers['www-authenticate']), /error="invalid_token"/);
    });

    it('refuses a token in the query string', async () => {
      const token = await t.login();
      const res = await t.app.inject({ url: `${PROBE_URL}?access_token=${token}` });
      assert.equal(res.statusCode, 401);
      const both = await t.app.inject({ url: `${PROBE_URL}?access_token=${token}`, headers: bearer(token) });
      assert.equal(both.statusCode, 401);
      // query names match whatever their case
      for (const name of ['Access_Token', 'ACCESS_TOKEN']) {
        const cased = await t.app.inject({ url: `${PROBE_URL}?${name}=${token}`, headers: bearer(token) });
        assert.equal(cased.statusCode, 401, name);
        // a token was sent: invalid_token (decisions §2)
        assert.match(String(cased.headers['www-authenticate']), /^Bearer error="invalid_token", error_description="/);
      }
    });

    it("ends a user's tokens when it is disabled or its password changes", async () => {
      const tokenA = await t.login({ name: 'erin' });
      assert.equal((await get(tokenA)).statusCode, 200);
      await setPassword(t.database.db, 'erin', 'a new password');
      assert.equal((await get(tokenA)).statusCode, 401);
      const tokenB = await t.login({ name: 'frank' });
      await disableUser(t.database.db, 'frank');
      assert.equal((await get(tokenB)).statusCode, 401);
      const login = await tokenRequest(t.app, {
        grant_type: 'password',
        username: 'frank',
        password: 'correct horse battery',
      });
      assert.equal(login.statusCode, 400);
    });

    it('403 with an error map when a permission is missing', async () => {
      const token = await t.login({ permissions: [PERMISSIONS.projectEdit] });
      const res = await get(token);
      assert.equal(res.statusCode, 403);
      assert.match(res.json().$[0], /Umlageabrechnung-lesen/);
    });

    it('API keys scope ledgers; unknown or revoked keys get 401; required keys must be present', async () => {
      const token = await t.login();
      const one = await t.apiKey([2], 'ledger-two');
      const all = await t.apiKey('all');
      assert.equal((await get(token, `${PROBE_URL}?apiKey=${one}`)).json()[0].Scope, '2');
      assert.equal((await get(token, `${PROBE_URL}?apiKey=${all}`)).json()[0].Scope, 'all');
      assert.equal((await get(token)).json()[0].Scope, 'all');
      // A valid token with a bad key: RFC 6750's invalid_request (the token is fine; a parameter is not).
      for (const url of [`${PROBE_URL}?apiKey=wk_unknown`, `${PROBE_URL}/WithKey`]) {
        const refused = await get(token, url);
        assert.equal(refused.statusCode, 401);
        assert.equal(refused.body, '');
        assert.match(
          String(refused.headers['www-authenticate']),
          /^Bearer error="invalid_request", error_description="The (API key is unknown or revoked|apiKey query parameter is required)\."$/,
        );
      }
      assert.equal((await get(token, `${PROBE_URL}/WithKey?apiKey=${all}`)).statusCode, 200);
      await revokeApiKey(t.database.db, 'ledger-two');
      assert.equal((await get(token, `${PROBE_URL}?apiKey=${one}`)).statusCode, 401);
      const stored = await t.database.db.selectFrom('api_keys').select('key_hash').execute();
      assert.ok(stored.every((k) => !k.key_hash.includes(one) && /^[0-9a-f]{64}$/.test(k.key_hash)));
    });

    it('sees a user disabled and a key revoked through another connection (another server process) at once', async () => {
      const other = openDatabase(t.database.url);
      try {
        const token = await t.login({ name: 'gina' });
        const key = await t.apiKey('all', 'gina-key');
        const url = `${PROBE_URL}?apiKey=${key}`;
        assert.equal((await get(token, url)).statusCode, 200);
        assert.equal((await get(token, url)).statusCode, 200, 'served again (from the verified-token cache)');
        await revokeApiKey(other.db, 'gina-key');
        assert.equal((await get(token, url)).statusCode, 401);
        assert.equal((await get(token)).statusCode, 200);
        await disableUser(other.db, 'gina');
        assert.equal((await get(token)).statusCode, 401);
      } finally {
        await other.close();
      }
    });

    it('the auth version moves with every write to users, grants, tokens and keys by any connection, and only then', async () => {
      const other = openDatabase(t.database.url);
      try {
        await t.login({ name: 'hanna', ledgers: [1], permissions: [PERMISSIONS.runningCostRead] });
        await t.apiKey([1], 'hanna-key');
        const user = await t.database.db
          .selectFrom('users')
          .select('id')
          .where('name', '=', 'hanna')
          .executeTakeFirstOrThrow();
        const key = await t.database.db
          .selectFrom('api_keys')
          .select('id')
          .where('name', '=', 'hanna-key')
          .executeTakeFirstOrThrow();
        const db = other.db;
        const ledger = { user_id: user.id, company_code_id: 2 };
        // Each write by the other connection, named by its table and kind: every one must move the auth version.
        const writes: [string, () => Promise<unknown>][] = [
          ['users update', () => db.updateTable('users').set({ disabled: 0 }).where('id', '=', user.id).execute()],
          [
            'user_permissions insert',
            () =>
              db.insertInto('user_permissions').values({ user_id: user.id, permission: PERMISSIONS.webhook }).execute(),
          ],
          [
            'user_permissions update',
            () =>
              db
                .updateTable('user_permissions')
                .set({ permission: PERMISSIONS.projectEdit })
                .where('user_id', '=', user.id)
                .where('permission', '=', PERMISSIONS.webhook)
                .execute(),
          ],
          [
            'user_permissions delete',
            () =>
              db
                .deleteFrom('user_permissions')
                .where('user_id', '=', user.id)
                .where('permission', '=', PERMISSIONS.projectEdit)
                .execute(),
          ],
          ['user_ledgers insert', () => db.insertInto('user_ledgers').values(ledger).execute()],
          [
            'user_ledgers update',
            () =>
              db
                .updateTable('user_ledgers')
                .set({ company_code_id: 2 })
                .where('user_id', '=', user.id)
                .where('company_code_id', '=', 2)
                .execute(),
          ],
          [
            'user_ledgers delete',
            () =>
              db.deleteFrom('user_ledgers').where('user_id', '=', user.id).where('company_code_id', '=', 2).execute(),
          ],
          [
            'oauth_tokens update',
            () => db.updateTable('oauth_tokens').set({ revoked: 1 }).where('user_id', '=', user.id).execute(),
          ],
          ['oauth_tokens delete', () => db.deleteFrom('oauth_tokens').where('user_id', '=', user.id).execute()],
          [
            'api_key_ledgers insert',
            () => db.insertInto('api_key_ledgers').values({ api_key_id: key.id, company_code_id: 2 }).execute(),
          ],
          [
            'api_key_ledgers update',
            () =>
              db
                .updateTable('api_key_ledgers')
                .set({ company_code_id: 2 })
                .where('api_key_id', '=', key.id)
                .where('company_code_id', '=', 2)
                .execute(),
          ],
          [
            'api_key_ledgers delete',
            () =>
              db
                .deleteFrom('api_key_ledgers')
                .where('api_key_id', '=', key.id)
                .where('company_code_id', '=', 2)
                .execute(),
          ],
          [
            'api_keys update',
            () => db.updateTable('api_keys').set({ name: 'hanna-key-2' }).where('id', '=', key.id).execute(),
          ],
          ['api_keys delete', () => db.deleteFrom('api_keys').where('id', '=', key.id).execute()],
          [
            'users insert',
            () =>
              db
                .insertInto('users')
                .values({ name: 'ida', password_hash: 'x', created_at: '2026-01-01T00:00:00Z' })
                .execute(),
          ],
          [
            'oauth_tokens insert (a login)',
            () => tokenRequest(t.app, { grant_type: 'password', username: 'hanna', password: 'correct horse battery' }),
          ],
          [
            'api_keys insert',
            () =>
              db
                .insertInto('api_keys')
                .values({
                  name: 'ida-key',
                  key_hash: 'f'.repeat(64),
                  all_ledgers: 1,
                  created_at: '2026-01-01T00:00:00Z',
                })
                .execute(),
          ],
          ['users delete', () => db.deleteFrom('users').where('id', '=', user.id).execute()],
        ];
        for (const [name, write] of writes) {
          const before = await t.database.versions();
          await write();
          const after = await t.database.versions();
          assert.notEqual(after.auth, before.auth, `${name} moves the auth version`);
        }
        // A write to any other table moves the data version only: verified tokens and keys stay cached.
        const before = await t.database.versions();
        await db.insertInto('company_codes').values({ id: 3, code: '3000', name: 'C' }).execute();
        const after = await t.database.versions();
        assert.notEqual(after.read, before.read, 'the data version moves');
        assert.equal(after.auth, before.auth, 'the auth version stays');
      } finally {
        await other.close();
      }
    });

    it("narrows a key's ledgers to the user's own grant", async () => {
      const token = await t.login({ ledgers: [1] });
      assert.equal((await get(token)).json()[0].Scope, '1');
      const both = await t.apiKey([1, 2]);
      assert.equal((await get(token, `${PROBE_URL}?apiKey=${both}`)).json()[0].Scope, '1');
    });
  });
}
