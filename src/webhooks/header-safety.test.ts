// Callback credentials that cannot be sent as an HTTP header are refused at registration and change; one that is
// stored anyway (an older registration) makes failed attempts, retried and finally failed, never a stuck delivery.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { WEBHOOK_URL } from '../../test/fixtures/webhooks.ts';
import { at, dispatcherSuite, waitUntil } from '../../test/fixtures/webhook-dispatcher.ts';
import { MAX_ATTEMPTS } from './model.ts';

const custom = (HeaderName: string, HeaderValue: string) => ({ Type: 'Custom', HeaderName, HeaderValue });

for (const dialect of DIALECTS) {
  describe(`webhook callback headers [${dialect}]`, () => {
    const s = dispatcherSuite(dialect);

    it('refuses CR, LF and other characters a header cannot carry, on create and on change (400 by property)', async () => {
      const url = `${s.f.receiver.url}/headers`;
      const cases: Array<[Record<string, string>, string, RegExp]> = [
        [custom('X-Ok', 'a\nb'), 'Authentication.HeaderValue', /contains a line feed \(U\+000A\)/],
        [custom('X-Ok', 'a\rb'), 'Authentication.HeaderValue', /contains a carriage return \(U\+000D\)/],
        [custom('X-Ok', 'a\u0007b'), 'Authentication.HeaderValue', /control character.*U\+0007/],
        [custom('X-Ok', 'a\u20acb'), 'Authentication.HeaderValue', /beyond ASCII \(U\+20AC\)/],
        // Latin-1 too: the sender writes UTF-8, which a receiver reads as Latin-1 ('ä' would arrive as 'Ã¤')
        [custom('X-Ok', '\u00e4b'), 'Authentication.HeaderValue', /beyond ASCII \(U\+00E4\)/],
        [{ Type: 'Bearer', Token: 'tok\u00e9' }, 'Authentication.Token', /beyond ASCII \(U\+00E9\)/],
        // headers that change how HTTP carries the delivery, or that the delivery sets itself
        ...[
          'User-Agent',
          'Trailer',
          'Expect',
          'TE',
          'Upgrade',
          'Keep-Alive',
          'host',
          'webhook-id',
          'Content-Encoding',
        ].map((name): [Record<string, string>, string, RegExp] => [
          custom(name, 'v'),
          'Authentication.HeaderName',
          /is set by the delivery itself/,
        ]),
        [custom('X-Ok\r\nX-Evil', 'v'), 'Authentication.HeaderName', /./],
        [{ Type: 'Bearer', Token: 'tok\r\nX-Evil: 1' }, 'Authentication.Token', /carriage return/],
      ];
      const count = async () => (await s.f.t.database.db.selectFrom('webhooks').select('id').execute()).length;
      const stored = await count();
      for (const [Authentication, key, message] of cases) {
        const res = await s.f.call('POST', WEBHOOK_URL, { body: { Url: url, Authentication } });
        assert.equal(res.statusCode, 400, `${JSON.stringify(Authentication)}: ${res.body}`);
        assert.match(res.json()[key]?.join(' ') ?? `(no ${key} in ${res.body})`, message);
      }
      assert.equal(await count(), stored);
      const hook = await s.f.register({ Url: url, Active: false, Authentication: custom('X-Ok', 'fine value\t1') });
      const change = await s.f.call('PUT', `${WEBHOOK_URL}/Change`, {
        body: { Id: hook.Id, Authentication: custom('X-Ok', 'a\nb') },
      });
      assert.equal(change.statusCode, 400, change.body);
      assert.match(change.json()['Authentication.HeaderValue'][0], /line feed/);
      // Basic credentials travel base64-encoded: any character is fine there.
      const basic = await s.f.call('POST', WEBHOOK_URL, {
        body: { Url: `${url}/basic`, Authentication: { Type: 'Basic', User: 'u', Password: 'p\nw\u20ac' } },
      });
      assert.equal(basic.statusCode, 201, basic.body);
    });

    it('a stored header the sender cannot send: Test answers the failure, deliveries retry and then fail', async () => {
      const hook = await s.f.register({
        Url: `${s.f.receiver.url}/broken`,
        EntityName: 'Project',
        Authentication: custom('X-Ok', 'placeholder'),
      });
      // As an older registration stored it, before the check.
      await s.f.t.database.db.updateTable('webhooks').set({ auth_secret: 'a\nb' }).where('id', '=', hook.Id).execute();
      const test = await s.f.call('POST', `${WEBHOOK_URL}/Test`, { body: { Id: hook.Id } });
      assert.equal(test.statusCode, 200, test.body);
      assert.equal(test.json().Success, false);
      assert.match(test.json().Error, /could not be sent: Invalid character in header content/);
      const log = (await s.f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`)).json();
      assert.equal(log[0].DeliveryStatus, 'failed');

      await s.createProject(s.f.A.companyCodeId);
      // A failed attempt in the log, scheduled again with backoff (not left leased and pending).
      await waitUntil(async () => ((await s.delivery(hook.Id))?.attempts ?? 0) >= 2);
      const retried = await s.delivery(hook.Id);
      assert.equal(retried?.status, 'pending');
      assert.match(String(retried?.last_error), /could not be sent: Invalid character in header content/);
      // Pretend the schedule has run out (while no attempt is in flight): the next failure is final.
      await waitUntil(async () => {
        const res = await s.f.t.database.db
          .updateTable('webhook_deliveries')
          .set({ attempts: MAX_ATTEMPTS - 1 })
          .where('webhook_id', '=', hook.Id)
          .where('status', '=', 'pending')
          .where('lease_owner', 'is', null)
          .executeTakeFirst();
        return Number(res.numUpdatedRows) === 1;
      });
      await waitUntil(async () => (await s.delivery(hook.Id))?.status === 'failed');
      assert.equal(s.f.receiver.received.filter(at('/broken')).length, 0);
      // 'webhook delivery crashed' is logged with the delivery id.
      assert.deepEqual(
        s.warnings.filter((w) => (w as { deliveryId?: number }).deliveryId !== undefined),
        [],
      );
    });
  });
}
