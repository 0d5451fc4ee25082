import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { WEBHOOK_URL, webhooksFixture, type WebhooksFixture } from '../../test/fixtures/webhooks.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { verify } from './signing.ts';
import * as migration from '../db/migrations/2026112801_webhook_urls_normalized.ts';

for (const dialect of DIALECTS) {
  describe(`WebHook API [${dialect}]`, () => {
    let f: WebhooksFixture;
    before(async () => (f = await webhooksFixture(dialect)));
    after(() => f.close());

    it('registration round trip: create (secret once), read, list, change, rotate, delete', async () => {
      const url = `${f.receiver.url}/round-trip`;
      const created = await f.call('POST', WEBHOOK_URL, {
        body: {
          Name: 'ERP',
          Url: url,
          SystemPurpose: 'Test',
          EntityName: 'Project',
          Actions: ['created', 'deleted'],
          Authentication: { Type: 'Bearer', Token: 'receiver-token' },
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const hook = created.json();
      assert.match(hook.SigningSecret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(Buffer.from(hook.SigningSecret.slice(6), 'base64').length, 32);
      assert.equal(created.headers.location, `${WEBHOOK_URL}/${hook.Id}`);
      const expected = {
        Id: hook.Id,
        Name: 'ERP',
        Url: url,
        SystemPurpose: 'Test',
        EntityName: 'Project',
        Actions: ['created', 'deleted'],
        Active: true,
        AuthenticationType: 'Bearer',
        AuthenticationSet: true,
      };
      const read = await f.call('GET', `${WEBHOOK_URL}/${hook.Id}`);
      assert.equal(read.statusCode, 200);
      assert.deepEqual(
        { ...read.json<object>(), CreatedAt: undefined, UpdatedAt: undefined },
        { ...expected, CreatedAt: undefined, UpdatedAt: undefined },
      );
      assert.ok(!read.body.includes('receiver-token') && !read.body.includes('whsec_'));
      const list = await f.call('GET', WEBHOOK_URL);
      assert.ok(list.json().some((w: { Id: number }) => w.Id === hook.Id));
      assert.ok(!list.body.includes('receiver-token'));

      const changed = await f.call('PUT', `${WEBHOOK_URL}/Change`, {
        body: { Id: hook.Id, Name: 'ERP 2', Active: false, Authentication: { Type: 'None' } },
      });
      assert.equal(changed.statusCode, 200, changed.body);
      assert.equal(changed.json().Name, 'ERP 2');
      assert.equal(changed.json().Active, false);
      assert.equal(changed.json().AuthenticationSet, false);
      assert.equal(changed.json().SigningSecret, undefined);
      const rotated = await f.call('PUT', `${WEBHOOK_URL}/Change`, { body: { Id: hook.Id, RotateSecret: true } });
      assert.match(rotated.json().SigningSecret, /^whsec_/);
      assert.notEqual(rotated.json().SigningSecret, hook.SigningSecret);

      // A DELETE takes no body, here as on projects (the same pipeline rule); nothing deleted.
      const withBody = await f.call('DELETE', `${WEBHOOK_URL}/${hook.Id}`, { body: { Force: true } });
      assert.equal(withBody.statusCode, 400);
      assert.deepEqual(withBody.json(), {
        Force: ["Unknown property 'Force': a DELETE takes no body (property names are case-sensitive)."],
      });
      assert.equal((await f.call('GET', `${WEBHOOK_URL}/${hook.Id}`)).statusCode, 200, 'still there');
      const deleted = await f.call('DELETE', `${WEBHOOK_URL}/${hook.Id}`);
      assert.equal(deleted.statusCode, 200);
      assert.equal((await f.call('GET', `${WEBHOOK_URL}/${hook.Id}`)).statusCode, 404);
      assert.equal((await f.call('DELETE', `${WEBHOOK_URL}/${hook.Id}`)).statusCode, 404);
      // ids no webhook can have are unknown ids too (decisions §3); what is not an integer is a 400
      for (const id of [0, -1]) assert.equal((await f.call('GET', `${WEBHOOK_URL}/${id}`)).statusCode, 404);
      assert.equal((await f.call('GET', `${WEBHOOK_URL}/abc`)).statusCode, 400);
    });

    it('migration 2026112801 rewrites stored URLs as the standard writes them, unless that makes two active twins', async () => {
      const { host } = new URL(f.receiver.url);
      const raw = `HTTP://${host.toUpperCase()}`;
      const a = await f.register({ Url: `${f.receiver.url}/legacy-a`, EntityName: 'Loan' });
      const b = await f.register({ Url: `${f.receiver.url}/legacy-b`, EntityName: 'Person' });
      const c = await f.register({ Url: `${f.receiver.url}/legacy-c`, EntityName: 'Person' });
      const d = await f.register({ Url: `${f.receiver.url}/legacy-d`, EntityName: 'Person', Active: false });
      const db = f.t.database.db;
      const setUrl = (id: number, url: string) =>
        db.updateTable('webhooks').set({ url }).where('id', '=', id).execute();
      // as registered before the rule
      await setUrl(a.Id, `${raw}/legacy-a`);
      await setUrl(c.Id, `${raw}/legacy-b`); // the same receiver as b, spelled otherwise
      await setUrl(d.Id, `${raw}/x/../legacy-d`);
      await migration.up(db);
      const urls = async () =>
        Object.fromEntries(
          (
            await db.selectFrom('webhooks').select(['id', 'url']).where('id', 'in', [a.Id, b.Id, c.Id, d.Id]).execute()
          ).map((r) => [r.id, r.url]),
        );
      assert.deepEqual(await urls(), {
        [a.Id]: `http://${host}/legacy-a`,
        [b.Id]: `http://${host}/legacy-b`,
        [c.Id]: `${raw}/legacy-b`, // kept: rewritten it would be b's active twin
        [d.Id]: `http://${host}/legacy-d`,
      });
      await migration.up(db); // again: nothing changes
      assert.equal((await urls())[c.Id], `${raw}/legacy-b`);
      for (const hook of [a, b, c, d]) await f.call('DELETE', `${WEBHOOK_URL}/${hook.Id}`);
    });

    it('serves the same routes under /openwowi, case-insensitively', async () => {
      const res = await f.call('GET', '/openWowi/v1.2/webhook/WEBHOOK');
      assert.equal(res.statusCode, 200);
    });

    it('deleted means gone: the same URL can be registered again at once; two active twins are refused', async () => {
      const url = `${f.receiver.url}/again`;
      const one = await f.register({ Url: url, EntityName: 'Loan' });
      const twin = await f.call('POST', WEBHOOK_URL, { body: { Url: url, EntityName: 'Loan' } });
      assert.equal(twin.statusCode, 400);
      assert.match(twin.json().Url[0], /already calls/);
      // Spellings of the same URL are the same URL: stored as the URL standard writes it.
      const { host, pathname } = new URL(url);
      for (const spelling of [`HTTP://${host}${pathname}`, `http://${host}/./again`, `http://${host}/x/../again`]) {
        const same = await f.call('POST', WEBHOOK_URL, { body: { Url: spelling, EntityName: 'Loan' } });
        assert.equal(same.statusCode, 400, `${spelling}: ${same.body}`);
        assert.match(same.json().Url[0], /already calls/);
      }
      const written = await f.register({ Url: `HTTP://${host.toUpperCase()}/./written`, EntityName: 'Loan' });
      const read = (await f.call('GET', `${WEBHOOK_URL}/${written.Id}`)).json<{ Url: string }>();
      assert.equal(read.Url, `http://${host.toLowerCase()}/written`);
      // The limit holds for the URL as stored: percent-encoding can make it much longer than sent.
      const long = `http://${host}/${'\u00e9'.repeat(1900)}`;
      const tooLong = await f.call('POST', WEBHOOK_URL, { body: { Url: long, EntityName: 'Loan' } });
      assert.equal(tooLong.statusCode, 400, tooLong.body.slice(0, 300));
      assert.match(tooLong.json().Url[0], /longer than 2000 characters as the URL standard writes it/);
      // Another entity, or an inactive one, is not a twin.
      await f.register({ Url: url, EntityName: 'UseUnit' });
      // every entity type events carry can be subscribed to (the import's Building, Land, Person and Contractor too)
      for (const entity of ['Building', 'Land', 'Person', 'Contractor'])
        assert.equal((await f.call('POST', WEBHOOK_URL, { body: { Url: url, EntityName: entity } })).statusCode, 201);
      await f.register({ Url: url, EntityName: 'Loan', Active: false });
      assert.equal((await f.call('DELETE', `${WEBHOOK_URL}/${one.Id}`)).statusCode, 200);
      const again = await f.call('POST', WEBHOOK_URL, { body: { Url: url, EntityName: 'Loan' } });
      assert.equal(again.statusCode, 201, again.body);
      // Another key may register the same URL.
      await f.register({ Url: url, EntityName: 'Loan' }, f.keyA);
    });

    it("a key sees only its own webhooks: another key's id is a 404 on every route", async () => {
      const other = await f.register({ EntityName: 'EconomicUnit' }, f.keyA);
      const mine = await f.call('GET', WEBHOOK_URL);
      assert.ok(!mine.json().some((w: { Id: number }) => w.Id === other.Id));
      for (const [method, url, body] of [
        ['GET', `${WEBHOOK_URL}/${other.Id}`, undefined],
        ['GET', `${WEBHOOK_URL}/${other.Id}/Deliveries`, undefined],
        ['DELETE', `${WEBHOOK_URL}/${other.Id}`, undefined],
        ['PUT', `${WEBHOOK_URL}/Change`, { Id: other.Id, Name: 'x' }],
        ['POST', `${WEBHOOK_URL}/Test`, { Id: other.Id }],
      ] as const) {
        const res = await f.call(method, url, { body });
        assert.equal(res.statusCode, 404, `${method} ${url}`);
        assert.ok(Object.values(res.json()).flat().length > 0);
      }
      assert.equal((await f.call('GET', `${WEBHOOK_URL}/${other.Id}`, { key: f.keyA })).statusCode, 200);
    });

    it('401 without a token (no body) or without a known apiKey; 403 without the permission', async () => {
      const noToken = await f.call('GET', WEBHOOK_URL, { token: null });
      assert.equal(noToken.statusCode, 401);
      assert.equal(noToken.body, '');
      assert.equal((await f.call('GET', WEBHOOK_URL, { key: null })).statusCode, 401);
      assert.equal((await f.call('POST', WEBHOOK_URL, { key: 'wk_unknown', body: {} })).statusCode, 401);
      const weak = await f.t.login({ permissions: [PERMISSIONS.projectEdit] });
      const forbidden = await f.call('GET', WEBHOOK_URL, { token: weak });
      assert.equal(forbidden.statusCode, 403);
      assert.match(forbidden.json().$[0], /Web Hook/);
    });

    it('bad input: the 400 error map names every offending field', async () => {
      const cases: Array<[unknown, string, RegExp]> = [
        [{ Url: 'x', Foo: 1 }, 'Foo', /Unknown property/],
        [{ Url: 42 }, 'Url', /expected a string/],
        [{}, 'Url', /required/],
        [{ Url: '/relative' }, 'Url', /not an absolute URL/],
        [{ Url: 'ftp://example.com/' }, 'Url', /http or https/],
        [{ Url: 'http://user:pw@127.0.0.1/' }, 'Url', /user name or password/],
        [{ Url: `${f.receiver.url}/x`, EntityName: 'Invoice' }, 'EntityName', /must be one of Project, EconomicUnit/],
        [{ Url: `${f.receiver.url}/x`, Actions: ['created', 'exploded'] }, 'Actions[1]', /must be one of created/],
        [{ Url: `${f.receiver.url}/x`, Actions: [] }, 'Actions', /fewer than 1/],
        [{ Url: `${f.receiver.url}/x`, Active: 'yes' }, 'Active', /true or false/],
        [{ Url: `${f.receiver.url}/x`, SystemPurpose: 'Prod' }, 'SystemPurpose', /Echt, Test/],
        [{ Url: `${f.receiver.url}/x`, Authentication: { Type: 'Bearer' } }, 'Authentication.Token', /required/],
        [
          { Url: `${f.receiver.url}/x`, Authentication: { Type: 'Basic', User: 'u' } },
          'Authentication.Password',
          /required/,
        ],
        [
          { Url: `${f.receiver.url}/x`, Authentication: { Type: 'Custom', HeaderName: 'X-Key' } },
          'Authentication.HeaderValue',
          /required/,
        ],
        [
          {
            Url: `${f.receiver.url}/x`,
            Authentication: { Type: 'Custom', HeaderName: 'webhook-id', HeaderValue: 'v' },
          },
          'Authentication.HeaderName',
          /set by the delivery/,
        ],
        [
          { Url: `${f.receiver.url}/x`, Authentication: { Type: 'None', Token: 't' } },
          'Authentication.Token',
          /not used/,
        ],
        [
          { Url: `${f.receiver.url}/x`, Authentication: { Type: 'Oauth' } },
          'Authentication.Type',
          /must be one of None/,
        ],
      ];
      for (const [body, key, message] of cases) {
        const res = await f.call('POST', WEBHOOK_URL, { body });
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.match(res.json()[key]?.join(' ') ?? `(no ${key} in ${res.body})`, message, JSON.stringify(body));
      }
      // All of them at once: one 400 lists the schema's, the authentication rules' and the URL's problems.
      const all = await f.call('POST', WEBHOOK_URL, {
        body: {
          Url: 'ftp://example.com/',
          EntityName: 'Invoice',
          SystemPurpose: 'Prod',
          Actions: [],
          Authentication: { Type: 'Custom', HeaderName: 'webhook-id', HeaderValue: 'v' },
        },
      });
      assert.equal(all.statusCode, 400);
      assert.deepEqual(Object.keys(all.json()).sort(), [
        'Actions',
        'Authentication.HeaderName',
        'EntityName',
        'SystemPurpose',
        'Url',
      ]);
      const noId = await f.call('PUT', `${WEBHOOK_URL}/Change`, { body: { Name: 'x' } });
      assert.equal(noId.statusCode, 400);
      assert.ok(noId.json().Id);
      const badPath = await f.call('GET', `${WEBHOOK_URL}/abc/Deliveries`);
      assert.equal(badPath.statusCode, 400);
      const before = (await f.t.database.db.selectFrom('webhooks').select('id').execute()).length;
      await f.call('POST', WEBHOOK_URL, { body: { Url: 'ftp://x' } });
      assert.equal((await f.t.database.db.selectFrom('webhooks').select('id').execute()).length, before);
    });

    it('test delivery: signed, answered with what the receiver said, and in the delivery log', async () => {
      const hook = await f.register({
        Url: `${f.receiver.url}/test-me`,
        Authentication: { Type: 'Basic', User: 'u', Password: 'p w' },
      });
      f.receiver.answer = (r) => (r.path === '/test-me' ? 202 : 200);
      const res = await f.call('POST', `${WEBHOOK_URL}/Test`, { body: { Id: hook.Id } });
      assert.equal(res.statusCode, 200, res.body);
      const answer = res.json();
      assert.equal(answer.Success, true);
      assert.equal(answer.StatusCode, 202);
      const [got] = await f.receiver.waitFor(1, 5000, (r) => r.path === '/test-me');
      assert.ok(got);
      assert.equal(got.headers['webhook-id'], answer.EventId);
      assert.equal(got.headers.authorization, `Basic ${Buffer.from('u:p w').toString('base64')}`);
      assert.equal(got.headers['content-type'], 'application/json');
      assert.ok(
        verify(
          hook.SigningSecret,
          answer.EventId,
          Number(got.headers['webhook-timestamp']),
          got.body,
          String(got.headers['webhook-signature']),
        ),
      );
      const body = JSON.parse(got.body);
      assert.equal(body.entityName, 'WebHook');
      assert.equal(body.id, hook.Id);
      assert.equal(typeof body.userId, 'number', 'the user who asked for the test');

      f.receiver.answer = (r) => (r.path === '/test-me' ? 503 : 200);
      const failed = (await f.call('POST', `${WEBHOOK_URL}/Test`, { body: { Id: hook.Id } })).json();
      assert.equal(failed.Success, false);
      assert.equal(failed.StatusCode, 503);

      const log = await f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`, { query: 'limit=1&offset=1' });
      assert.equal(log.statusCode, 200);
      assert.equal(log.json().length, 1);
      const [newest] = log.json(); // ordered by Id ascending (decisions §3): the newest is the last
      assert.equal(newest.EventId, failed.EventId);
      assert.equal(newest.StatusCode, 503);
      assert.equal(newest.Attempt, 1);
      assert.equal(newest.EntityName, 'WebHook');
      assert.equal(newest.DeliveryStatus, 'failed');
      const all = (await f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`)).json();
      assert.deepEqual(
        all.map((a: { EventId: string }) => a.EventId),
        [answer.EventId, failed.EventId],
      );
      f.receiver.answer = () => 200;
    });

    it('a failed test delivery is logged but not counted in webhook_deliveries_failed_total', async () => {
      const hook = await f.register({ Url: `${f.receiver.url}/test-only` });
      f.receiver.answer = (r) => (r.path === '/test-only' ? 500 : 200);
      const metric = async () => {
        const body = (await f.t.app.inject({ method: 'GET', url: '/metrics' })).body;
        const help = /^# HELP webhook_deliveries_failed_total (.*)$/m.exec(body)?.[1];
        return { help, value: Number(/^webhook_deliveries_failed_total (\S+)$/m.exec(body)?.[1]) };
      };
      const before = await metric();
      const res = await f.call('POST', `${WEBHOOK_URL}/Test`, { body: { Id: hook.Id } });
      assert.equal(res.json().Success, false);
      const after = await metric();
      assert.equal(after.value, before.value);
      assert.match(after.help ?? '', /given up after the last retry/);
      assert.match(after.help ?? '', /test deliveries are not counted/);
      f.receiver.answer = () => 200;
    });
  });

  describe(`WebHook API SSRF guard [${dialect}]`, () => {
    let f: WebhooksFixture;
    before(async () => (f = await webhooksFixture(dialect, { WEBHOOK_ALLOW_PRIVATE: 'false' })));
    after(() => f.close());

    it('refuses loopback, private, link-local and names resolving to them with a clear 400', async () => {
      for (const url of [
        'http://127.0.0.1:8080/hook',
        'http://[::1]/hook',
        'http://169.254.169.254/latest/meta-data/',
        'http://10.20.30.40/hook',
        'http://192.168.0.10/hook',
        'http://[::ffff:127.0.0.1]/hook',
        'http://localhost:8080/hook',
      ]) {
        const res = await f.call('POST', WEBHOOK_URL, { body: { Url: url } });
        assert.equal(res.statusCode, 400, url);
        assert.match(res.json().Url[0], /non-public address/, url);
      }
      assert.equal((await f.t.database.db.selectFrom('webhooks').select('id').execute()).length, 0);
    });
  });
}
