// The dispatcher delivers: signed bodies, retries on the backoff schedule, failure after the last attempt, no redirects.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { PROJECT_URL, WEBHOOK_URL } from '../../test/fixtures/webhooks.ts';
import { at, body, dispatcherSuite, waitUntil, type Attempt } from '../../test/fixtures/webhook-dispatcher.ts';
import { verify } from './signing.ts';
import { MAX_ATTEMPTS } from './model.ts';
import { retryDeliveries } from './commands.ts';

for (const dialect of DIALECTS) {
  describe(`webhook dispatcher: delivery [${dialect}]`, () => {
    const s = dispatcherSuite(dialect);

    it('each action reaches the receiver, signed, with the documented body', async () => {
      const hook = await s.f.register({ Url: `${s.f.receiver.url}/actions`, EntityName: 'Project' });
      const id = await s.createProject(s.f.A.companyCodeId);
      assert.equal((await s.f.call('PUT', `${PROJECT_URL}/${id}`, { body: { Name: 'Renamed' } })).statusCode, 200);
      const assign = await s.f.call('POST', `${PROJECT_URL}/${id}/AssignEconomicUnit`, {
        body: [s.f.A.economicUnitIds[0]],
      });
      assert.equal(assign.statusCode, 201, assign.body);
      assert.equal((await s.f.call('DELETE', `${PROJECT_URL}/${id}`)).statusCode, 200);
      const got = await s.f.receiver.waitFor(4, 20_000, at('/actions'));
      const byAction = got.map(body).map((b) => b.action);
      assert.deepEqual(byAction.sort(), ['created', 'deleted', 'updated', 'updated']);
      const events = await s.f.t.database.db
        .selectFrom('outbox_events')
        .select('event_id')
        .where('entity_id', '=', id)
        .where('entity_type', '=', 'Project')
        .execute();
      assert.deepEqual(got.map((r) => r.headers['webhook-id']).sort(), events.map((e) => e.event_id).sort());
      for (const r of got) {
        const ts = Number(r.headers['webhook-timestamp']);
        assert.ok(
          verify(
            hook.SigningSecret,
            String(r.headers['webhook-id']),
            ts,
            r.body,
            String(r.headers['webhook-signature']),
          ),
        );
        assert.equal(r.headers['content-type'], 'application/json');
        const b = body(r);
        assert.deepEqual(Object.keys(b).sort(), [
          'action',
          'additionalInfo',
          'applicationBaseUrl',
          'entityName',
          'entityType',
          'id',
          'instanceName',
          'nodeId',
          'openWowiUrl',
          'systemId',
          'userId',
        ]);
        assert.equal(b.entityName, 'Project');
        assert.equal(b.id, id);
        assert.equal(b.applicationBaseUrl, 'https://wohnapi.example');
        assert.equal(typeof b.userId, 'number');
        assert.equal(
          b.openWowiUrl,
          b.action === 'deleted' ? null : `https://wohnapi.example/openwowi/v1.2/AccountancyProjectEdit/Project/${id}`,
        );
      }
      await waitUntil(async () => (await s.f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`)).json().length === 4);
      const log = (await s.f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`)).json();
      assert.ok(
        log.every(
          (a: { StatusCode: number; DeliveryStatus: string }) =>
            a.StatusCode === 200 && a.DeliveryStatus === 'delivered',
        ),
      );
    });

    it('retries after a 500 with the same webhook-id, on the backoff schedule', async () => {
      const hook = await s.f.register({ Url: `${s.f.receiver.url}/flaky` });
      let calls = 0;
      s.f.receiver.answer = (r) => (r.path === '/flaky' && ++calls <= 2 ? 500 : 200);
      await s.createProject(s.f.B.companyCodeId);
      const got = await s.f.receiver.waitFor(3, 20_000, at('/flaky'));
      assert.equal(new Set(got.map((r) => r.headers['webhook-id'])).size, 1);
      await waitUntil(
        async () =>
          (await s.f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`)).json().at(-1)?.DeliveryStatus === 'delivered',
      );
      const final = (await s.f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`)).json<Attempt[]>();
      assert.deepEqual(
        final.map((a) => [a.Attempt, a.StatusCode]),
        [
          [1, 500],
          [2, 500],
          [3, 200],
        ],
      );
      const t = final.map((a) => Date.parse(a.Time));
      // The schedule's lower bounds (base 50 ms: 50 ms, then 300 ms, each -20% at most).
      assert.ok(t[1]! - t[0]! >= 40, `first retry after ${t[1]! - t[0]!} ms`);
      assert.ok(t[2]! - t[1]! >= 240, `second retry after ${t[2]! - t[1]!} ms`);
      s.f.receiver.answer = () => 200;
    });

    it('marks a delivery failed after its last attempt; retry delivers it again', async () => {
      const hook = await s.f.register({ Url: `${s.f.receiver.url}/down` });
      s.f.receiver.answer = (r) => (r.path === '/down' ? 500 : 200);
      await s.createProject(s.f.A.companyCodeId);
      // After the first failure, and while no attempt is in flight (no lease), pretend the schedule has run out.
      await s.f.receiver.waitFor(1, 20_000, at('/down'));
      await waitUntil(async () => {
        const res = await s.f.t.database.db
          .updateTable('webhook_deliveries')
          .set({ attempts: MAX_ATTEMPTS - 1 })
          .where('webhook_id', '=', hook.Id)
          .where('attempts', '>=', 1)
          .where('lease_owner', 'is', null)
          .executeTakeFirst();
        return Number(res.numUpdatedRows) === 1;
      });
      await waitUntil(async () => (await s.delivery(hook.Id))?.status === 'failed');
      assert.equal((await s.delivery(hook.Id))?.attempts, MAX_ATTEMPTS);
      s.f.receiver.answer = () => 200;
      const failed = await s.delivery(hook.Id);
      assert.equal(await retryDeliveries(s.f.t.database.db, String(failed!.id), new Date()), 1);
      await waitUntil(async () => (await s.delivery(hook.Id))?.status === 'delivered');
      const ids = s.f.receiver.received.filter(at('/down')).map((r) => r.headers['webhook-id']);
      assert.equal(new Set(ids).size, 1);
      const metrics = await s.f.t.app.inject({ method: 'GET', url: '/metrics' });
      assert.match(metrics.body, /webhook_deliveries_failed_total [1-9]/);
      assert.match(metrics.body, /webhook_deliveries_sent_total [1-9]/);
      assert.match(metrics.body, /webhook_deliveries_retried_total [1-9]/);
      assert.match(metrics.body, /webhook_delivery_lag_seconds_count [1-9]/);
    });

    it('holds the pending deliveries of a webhook made inactive (or its key revoked), and goes on once active', async () => {
      const hook = await s.f.register({ Url: `${s.f.receiver.url}/paused` });
      s.f.receiver.answer = (r) => (r.path === '/paused' ? 500 : 200);
      await s.createProject(s.f.A.companyCodeId);
      await s.f.receiver.waitFor(1, 20_000, at('/paused'));
      const change = async (Active: boolean) =>
        assert.equal(
          (await s.f.call('PUT', `${WEBHOOK_URL}/Change`, { body: { Id: hook.Id, Active } })).statusCode,
          200,
        );
      /** Once no attempt is in flight, makes the pending delivery due at once; for a second nothing may be sent. */
      const heldWhileDue = async (why: string) => {
        await waitUntil(async () => {
          const res = await s.f.t.database.db
            .updateTable('webhook_deliveries')
            .set({ next_attempt_at: new Date(0).toISOString() })
            .where('webhook_id', '=', hook.Id)
            .where('status', '=', 'pending')
            .where('lease_owner', 'is', null)
            .executeTakeFirst();
          return Number(res.numUpdatedRows) === 1;
        });
        const before = s.f.receiver.received.filter(at('/paused')).length;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        assert.equal(s.f.receiver.received.filter(at('/paused')).length, before, why);
      };
      await change(false);
      await heldWhileDue('no attempt while inactive');
      assert.equal((await s.delivery(hook.Id))?.status, 'pending', 'held, not given up');
      s.f.receiver.answer = () => 200;
      await change(true);
      await waitUntil(async () => (await s.delivery(hook.Id))?.status === 'delivered');
      // A revoked key: held the same way (its webhook is never delivered to again).
      s.f.receiver.answer = (r) => (r.path === '/paused' ? 500 : 200);
      await s.createProject(s.f.A.companyCodeId);
      await waitUntil(async () => (await s.delivery(hook.Id))?.attempts === 1);
      const keyId = (
        await s.f.t.database.db
          .selectFrom('webhooks')
          .select('api_key_id')
          .where('id', '=', hook.Id)
          .executeTakeFirstOrThrow()
      ).api_key_id;
      await s.f.t.database.db
        .updateTable('api_keys')
        .set({ revoked_at: new Date().toISOString() })
        .where('id', '=', keyId)
        .execute();
      await heldWhileDue('no attempt for a revoked key');
      await s.f.t.database.db.updateTable('api_keys').set({ revoked_at: null }).where('id', '=', keyId).execute();
      s.f.receiver.answer = () => 200;
    });

    it('never follows a redirect: a 302 is a failed attempt', async () => {
      const hook = await s.f.register({ Url: `${s.f.receiver.url}/moved` });
      s.f.receiver.answer = (r) =>
        r.path === '/moved' ? { status: 302, headers: { location: `${s.f.receiver.url}/elsewhere` } } : 200;
      await s.createProject(s.f.A.companyCodeId);
      await waitUntil(async () => ((await s.delivery(hook.Id))?.attempts ?? 0) >= 2);
      assert.equal(s.f.receiver.received.filter(at('/elsewhere')).length, 0);
      assert.equal((await s.delivery(hook.Id))?.last_status_code, 302);
      await s.f.call('DELETE', `${WEBHOOK_URL}/${hook.Id}`);
      s.f.receiver.answer = () => 200;
    });
  });
}
