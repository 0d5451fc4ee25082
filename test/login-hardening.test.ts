// The token endpoint under hostile use (issue 11, items 6, 9 and the token purge of 10): RFC 6749 5.2 answers
// for every malformed request, and a throttle per user name and per client address whose counters live in the
// database, so that two server processes count together.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from './support/db.ts';
import { testApp, tokenRequest, type TestApp } from './support/app.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { addUser } from '../src/auth/users.ts';
import type { App } from '../src/app-types.ts';
import SQLite from 'better-sqlite3';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { importData } from '../src/dataset/import/importer.ts';

const login = (app: App, username: string, password: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/oauth2/token',
    payload: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });

/** RFC 6749 5.2: error_description = 1*( %x20-21 / %x23-5B / %x5D-7E ). */
const DESCRIPTION = /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/;

for (const dialect of DIALECTS) {
  describe(`token endpoint hardening [${dialect}]`, () => {
    if (dialect === 'sqlite')
      it('a login while another process holds the write lock waits on timers: the event loop turns meanwhile', async () => {
        const t = await testApp(dialect);
        const locker = new SQLite(t.database.url.slice('sqlite:'.length));
        try {
          await addUser(t.database.db, { name: 'frank', password: 'frank-secret', permissions: [] });
          // The password check alone takes a while (scrypt/argon2 on the pool): the lock is held well beyond it.
          for (const password of ['wrong', 'frank-secret']) {
            locker.exec('BEGIN IMMEDIATE'); // an import's transaction, say
            let released = false;
            // Runs only if the event loop turns while the login waits (SQLite's busy handler would sleep the thread
            // for its whole busy_timeout, 10 s, and the login would then fail).
            setTimeout(() => {
              locker.exec('ROLLBACK');
              released = true;
            }, 1000);
            const res = await login(t.app, 'frank', password);
            assert.ok(released, 'answered only after the lock was released');
            assert.equal(res.statusCode, password === 'wrong' ? 400 : 200, res.body);
          }
        } finally {
          locker.close();
          await t.close();
        }
      });

    if (dialect === 'postgres')
      it('a login while an import runs is answered at once: the import moves the data version only at its end', async () => {
        const t = await testApp(dialect);
        try {
          await addUser(t.database.db, { name: 'gina', password: 'gina-secret', permissions: [] });
          const input = new PassThrough();
          const running = importData(t.database, input);
          input.write('{"CompanyCodes":[{"Id":1,"Code":"1000"}]'); // written when its collection ends
          const wrote = sql<{
            n: number;
          }>`select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
            where c.relname = 'company_codes' and l.mode = 'RowExclusiveLock' and l.pid <> pg_backend_pid()`;
          for (let i = 0; i < 500 && (await wrote.execute(t.database.db)).rows[0]!.n === 0; i++)
            await new Promise((r) => setTimeout(r, 10));
          // Before, the import's first write locked the counter row (data_version) until it committed, and the
          // login's token insert, which moves auth_version on that row, waited for it: here, for ever.
          let ended = false;
          const guard = setTimeout(() => {
            ended = true;
            input.end('}');
          }, 5000);
          const res = await login(t.app, 'gina', 'gina-secret');
          assert.equal(ended, false, 'answered while the import still ran');
          assert.equal(res.statusCode, 200, res.body);
          clearTimeout(guard);
          if (!ended) input.end('}');
          assert.equal((await running).records, 1);
          const { version } = await t.database.db
            .selectFrom('data_version')
            .select('version')
            .executeTakeFirstOrThrow();
          assert.ok(Number(version) > 0, 'the import moved the data version');
        } finally {
          await t.close();
        }
      });

    it('item 6: every malformed token request is invalid_request with no-store, and descriptions stay in 5.2', async () => {
      const t = await testApp(dialect);
      try {
        const bodies: Array<[string | undefined, string]> = [
          ['text/plain', 'grant_type=password&username=a&password=b'],
          ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n'],
          ['application/xml', '<grant_type>password</grant_type>'],
          ['application/json', '{"grant_type":"password"}'],
          // refused by the API's JSON body parser: still the RFC 6749 shape here, not the API's error map (or a 500)
          ['application/json', '{"grant_type":'],
          ['application/json', `${'['.repeat(40)}${']'.repeat(40)}`],
          [undefined, 'grant_type=password'],
        ];
        for (const [type, payload] of bodies) {
          const res = await t.app.inject({
            method: 'POST',
            url: '/oauth2/token',
            payload,
            headers: type ? { 'content-type': type } : {},
          });
          assert.equal(res.statusCode, 400, `${type}: ${res.body}`);
          assert.equal(res.json().error, 'invalid_request', `${type}: ${res.body}`);
          assert.equal(res.headers['cache-control'], 'no-store', String(type));
          assert.equal(res.headers.pragma, 'no-cache', String(type));
          assert.match(res.json().error_description, DESCRIPTION);
        }
        const echoed = await tokenRequest(t.app, { grant_type: 'ü"\\x' });
        assert.equal(echoed.json().error, 'unsupported_grant_type');
        assert.match(echoed.json().error_description, DESCRIPTION);
        const newline = await tokenRequest(t.app, { grant_type: 'pass\nword' });
        assert.equal(newline.json().error, 'invalid_request');
        assert.match(newline.json().error_description, DESCRIPTION);
        const nul = await tokenRequest(t.app, { grant_type: 'password', username: 'a\u0000b', password: 'whatever1' });
        assert.equal(nul.statusCode, 400, nul.body);
        assert.equal(nul.json().error, 'invalid_request');
        assert.match(nul.json().error_description, /username/);
      } finally {
        await t.close();
      }
    });

    it('item 9: failures by anyone delay the owner by growing waits, not a 300 s lock-out', async () => {
      const t = await testApp(dialect, { LOGIN_MAX_FAILURES: '5', LOGIN_LOCK_SECONDS: '300' });
      try {
        await addUser(t.database.db, { name: 'owner', password: 'owner-secret', permissions: [] });
        for (let i = 0; i < 5; i++) assert.equal((await login(t.app, 'owner', 'wrong-guess')).statusCode, 400);
        const waiting = await login(t.app, 'owner', 'owner-secret');
        assert.equal(waiting.statusCode, 429);
        assert.equal(waiting.headers['retry-after'], '1');
        assert.equal(waiting.headers['cache-control'], 'no-store');
        t.clock.advance(1);
        assert.equal((await login(t.app, 'owner', 'wrong-guess')).statusCode, 400);
        assert.equal((await login(t.app, 'owner', 'owner-secret')).headers['retry-after'], '2');
        t.clock.advance(2);
        assert.equal((await login(t.app, 'owner', 'owner-secret')).statusCode, 200);
        // The success ended the run: one more failure does not make anyone wait.
        assert.equal((await login(t.app, 'owner', 'wrong-guess')).statusCode, 400);
        assert.equal((await login(t.app, 'owner', 'owner-secret')).statusCode, 200);
      } finally {
        await t.close();
      }
    });

    it('item 9: attempts sent at once are throttled too: no more guesses than the counter allows', async () => {
      const t = await testApp(dialect, { LOGIN_MAX_FAILURES: '5' });
      try {
        await addUser(t.database.db, { name: 'burst', password: 'burst-secret', permissions: [] });
        const guesses = Array.from({ length: 30 }, (_, i) => login(t.app, 'burst', `guess-${i}`));
        const statuses = (await Promise.all([...guesses, login(t.app, 'burst', 'burst-secret')])).map(
          (r) => r.statusCode,
        );
        const checked = statuses.filter((s) => s !== 429).length;
        assert.ok(checked <= 5, `at most 5 passwords checked, got ${statuses.join(',')}`);
        assert.equal(statuses.filter((s) => s === 429).length, 31 - checked);
        // The wait then runs for the name as after 5 failures in a row; the answer is RFC 6749 5.2 JSON
        const waiting = await login(t.app, 'burst', 'burst-secret');
        assert.equal(waiting.statusCode, 429);
        assert.deepEqual(waiting.json(), {
          error: 'invalid_grant',
          error_description: 'Too many failed logins; try again later.',
        });
        t.clock.advance(60);
        assert.equal((await login(t.app, 'burst', 'burst-secret')).statusCode, 200);
      } finally {
        await t.close();
      }
    });

    it('item 9: correct logins sent at once all succeed (they do not count against each other)', async () => {
      const t = await testApp(dialect, { LOGIN_MAX_FAILURES: '5' });
      try {
        await addUser(t.database.db, { name: 'pool', password: 'pool-secret', permissions: [] });
        const statuses = (await Promise.all(Array.from({ length: 12 }, () => login(t.app, 'pool', 'pool-secret')))).map(
          (r) => r.statusCode,
        );
        assert.deepEqual(statuses, Array<number>(12).fill(200));
        // the queue of one name is bounded (waits add up while the database is slow): past 16, 429 and retry in 1 s
        const flood = await Promise.all(Array.from({ length: 60 }, () => login(t.app, 'pool', 'pool-secret')));
        const refused = flood.filter((r) => r.statusCode === 429);
        assert.ok(flood.filter((r) => r.statusCode === 200).length >= 16);
        assert.equal(flood.length - refused.length, flood.filter((r) => r.statusCode === 200).length);
        assert.ok(refused.length > 0, 'sixty at once pass the bound of 16');
        for (const r of refused) {
          assert.equal(r.headers['retry-after'], '1');
          assert.equal(r.json().error, 'invalid_request');
        }
      } finally {
        await t.close();
      }
    });

    it('item 9: user names are counted as they are spelled: Bob and bob are two users, and two counters', async () => {
      const t = await testApp(dialect, { LOGIN_MAX_FAILURES: '5' });
      try {
        await addUser(t.database.db, { name: 'Bob', password: 'upper-secret', permissions: [] });
        await addUser(t.database.db, { name: 'bob', password: 'lower-secret', permissions: [] });
        for (let round = 0; round < 2; round++) {
          for (let i = 0; i < 2; i++) assert.equal((await login(t.app, 'bob', 'wrong-guess')).statusCode, 400);
          // Bob's success does not end bob's run of failures.
          assert.equal((await login(t.app, 'Bob', 'upper-secret')).statusCode, 200);
        }
        assert.equal((await login(t.app, 'bob', 'wrong-guess')).statusCode, 400);
        assert.equal((await login(t.app, 'bob', 'lower-secret')).statusCode, 429, "bob's 5 failures count");
        // And bob's failures do not make Bob wait.
        assert.equal((await login(t.app, 'Bob', 'upper-secret')).statusCode, 200);
      } finally {
        await t.close();
      }
    });

    it('item 9: one client address trying many user names is throttled; TRUST_PROXY names the address', async () => {
      const t = await testApp(dialect, { LOGIN_ADDRESS_MAX_FAILURES: '20', TRUST_PROXY: 'true' });
      try {
        await addUser(t.database.db, { name: 'victim', password: 'victim-secret', permissions: [] });
        const from = (ip: string) => ({ 'x-forwarded-for': ip });
        const statuses: number[] = [];
        for (let i = 0; i < 40; i++)
          statuses.push((await login(t.app, `name${i}`, 'guess-guess', from('203.0.113.7'))).statusCode);
        assert.deepEqual(statuses.slice(0, 20), Array<number>(20).fill(400));
        assert.ok(
          statuses.slice(20).every((s) => s === 429),
          statuses.join(','),
        );
        // Unknown and known names get the same 429, and another address is not affected.
        const blocked = await login(t.app, 'victim', 'victim-secret', from('203.0.113.7'));
        assert.equal(blocked.statusCode, 429);
        assert.equal((await login(t.app, 'victim', 'victim-secret', from('198.51.100.2'))).statusCode, 200);
      } finally {
        await t.close();
      }
    });

    it('item 9: two server processes on one database count failures together', async () => {
      const t: TestApp = await testApp(dialect, { LOGIN_MAX_FAILURES: '4' });
      const other = openDatabase(t.database.url);
      const second = await buildApp({
        database: other,
        config: loadConfig({ LOGIN_MAX_FAILURES: '4' }),
        now: () => t.clock.now,
      });
      try {
        await addUser(t.database.db, { name: 'shared', password: 'shared-secret', permissions: [] });
        for (const app of [t.app, second, t.app, second])
          assert.equal((await login(app, 'shared', 'wrong-guess')).statusCode, 400);
        assert.equal((await login(second, 'shared', 'shared-secret')).statusCode, 429);
        assert.equal((await login(t.app, 'shared', 'shared-secret')).statusCode, 429);
      } finally {
        await second.close();
        await other.close();
        await t.close();
      }
    });

    it('item 10: expired tokens are purged at login instead of piling up', async () => {
      const t = await testApp(dialect, { ACCESS_TOKEN_TTL_SECONDS: '60', REFRESH_TOKEN_TTL_SECONDS: '120' });
      try {
        await addUser(t.database.db, { name: 'often', password: 'often-secret', permissions: [] });
        for (let i = 0; i < 5; i++) {
          assert.equal((await login(t.app, 'often', 'often-secret')).statusCode, 200);
          t.clock.advance(121);
        }
        const rows = await t.database.db.selectFrom('oauth_tokens').select('expires_at').execute();
        assert.equal(rows.length, 2, 'only the tokens of the last login are left');
      } finally {
        await t.close();
      }
    });
  });
}
