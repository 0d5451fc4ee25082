import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { PROJECT_URL, WEBHOOK_URL, webhooksFixture, type WebhooksFixture } from '../../test/fixtures/webhooks.ts';
import type { Received } from '../../test/support/receiver.ts';
import { loadConfig } from '../config.ts';
import { recordEvents } from '../events/outbox.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { startDispatcher, type Dispatcher } from './dispatcher.ts';
import { verify } from './signing.ts';
import { MAX_ATTEMPTS } from './model.ts';
import { retryDeliveries } from './commands.ts';

const ENV = {
  WEBHOOK_RETRY_BASE_MS: '50',
  WEBHOOK_POLL_MS: '20',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_CONCURRENCY: '2',
  WEBHOOK_BASE_URL: 'https://wohnapi.example',
};
interface Attempt {
  Attempt: number;
  StatusCode: number;
  Time: string;
}
const at = (path: string) => (r: Received) => r.path === path;
const body = (r: Received) => JSON.parse(r.body) as Record<string, unknown>;

for (const dialect of DIALECTS) {
  describe(`webhook dispatcher [${dialect}]`, () => {
    let f: WebhooksFixture;
    let dispatcher: Dispatcher;
    const warnings: unknown[] = [];
    const logger = { info: () => {}, warn: (o: unknown) => warnings.push(o), error: (o: unknown) => warnings.push(o) };
    before(async () => {
      f = await webhooksFixture(dialect, ENV);
      dispatcher = startDispatcher({ database: f.t.database, config: f.t.app.config, logger });
    });
    after(async () => {
      await dispatcher.stop();
      await f.close();
    });

    const createProject = async (ledger: number, key = f.key, token = f.token) => {
      const res = await f.call('POST', PROJECT_URL, {
        key,
        token,
        body: { CompanyCodeId: ledger, ProjectLifeTimeFrom: '2025-01-01' },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().Id as number;
    };

    it('each action reaches the receiver, signed, with the documented body', async () => {
      const hook = await f.register({ Url: `${f.receiver.url}/actions`, EntityName: 'Project' });
      const id = await createProject(f.A.companyCodeId);
      assert.equal((await f.call('PUT', `${PROJECT_URL}/${id}`, { body: { Name: 'Renamed' } })).statusCode, 200);
      const assign = await f.call('POST', `${PROJECT_URL}/${id}/AssignEconomicUnit`, {
        body: [f.A.economicUnitIds[0]],
      });
      assert.equal(assign.statusCode, 201, assign.body);
      assert.equal((await f.call('DELETE', `${PROJECT_URL}/${id}`)).statusCode, 200);
      const got = await f.receiver.waitFor(4, 20_000, at('/actions'));
      const byAction = got.map(body).map((b) => b.action);
      assert.deepEqual(byAction.sort(), ['created', 'deleted', 'updated', 'updated']);
      const events = await f.t.database.db
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
      await waitUntil(async () => (await f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`)).json().length === 4);
      const log = (await f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`)).json();
      assert.ok(
        log.every(
          (a: { StatusCode: number; DeliveryStatus: string }) =>
            a.StatusCode === 200 && a.DeliveryStatus === 'delivered',
        ),
      );
    });

    it('retries after a 500 with the same webhook-id, on the backoff schedule', async () => {
      const hook = await f.register({ Url: `${f.receiver.url}/flaky` });
      let calls = 0;
      f.receiver.answer = (r) => (r.path === '/flaky' && ++calls <= 2 ? 500 : 200);
      await createProject(f.B.companyCodeId);
      const got = await f.receiver.waitFor(3, 20_000, at('/flaky'));
      assert.equal(new Set(got.map((r) => r.headers['webhook-id'])).size, 1);
      await waitUntil(
        async () =>
          (await f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`)).json()[0]?.DeliveryStatus === 'delivered',
      );
      const final = (await f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`)).json<Attempt[]>();
      assert.deepEqual(
        final.map((a) => [a.Attempt, a.StatusCode]),
        [
          [3, 200],
          [2, 500],
          [1, 500],
        ],
      );
      const t = final.map((a) => Date.parse(a.Time)).reverse();
      // The schedule's lower bounds (base 50 ms: 50 ms, then 300 ms, each -20% at most).
      assert.ok(t[1]! - t[0]! >= 40, `first retry after ${t[1]! - t[0]!} ms`);
      assert.ok(t[2]! - t[1]! >= 240, `second retry after ${t[2]! - t[1]!} ms`);
      f.receiver.answer = () => 200;
    });

    it('marks a delivery failed after its last attempt; retry delivers it again', async () => {
      const hook = await f.register({ Url: `${f.receiver.url}/down` });
      f.receiver.answer = (r) => (r.path === '/down' ? 500 : 200);
      await createProject(f.A.companyCodeId);
      // After the first failure, and while no attempt is in flight (no lease), pretend the schedule has run out.
      await f.receiver.waitFor(1, 20_000, at('/down'));
      await waitUntil(async () => {
        const res = await f.t.database.db
          .updateTable('webhook_deliveries')
          .set({ attempts: MAX_ATTEMPTS - 1 })
          .where('webhook_id', '=', hook.Id)
          .where('attempts', '>=', 1)
          .where('lease_owner', 'is', null)
          .executeTakeFirst();
        return Number(res.numUpdatedRows) === 1;
      });
      await waitUntil(async () => (await delivery(hook.Id))?.status === 'failed');
      assert.equal((await delivery(hook.Id))?.attempts, MAX_ATTEMPTS);
      f.receiver.answer = () => 200;
      const failed = await delivery(hook.Id);
      assert.equal(await retryDeliveries(f.t.database.db, String(failed!.id), new Date()), 1);
      await waitUntil(async () => (await delivery(hook.Id))?.status === 'delivered');
      const ids = f.receiver.received.filter(at('/down')).map((r) => r.headers['webhook-id']);
      assert.equal(new Set(ids).size, 1);
      const metrics = await f.t.app.inject({ method: 'GET', url: '/metrics' });
      assert.match(metrics.body, /webhook_deliveries_failed_total [1-9]/);
      assert.match(metrics.body, /webhook_deliveries_sent_total [1-9]/);
      assert.match(metrics.body, /webhook_deliveries_retried_total [1-9]/);
      assert.match(metrics.body, /webhook_delivery_lag_seconds_count [1-9]/);
    });

    it('never follows a redirect: a 302 is a failed attempt', async () => {
      const hook = await f.register({ Url: `${f.receiver.url}/moved` });
      f.receiver.answer = (r) =>
        r.path === '/moved' ? { status: 302, headers: { location: `${f.receiver.url}/elsewhere` } } : 200;
      await createProject(f.A.companyCodeId);
      await waitUntil(async () => ((await delivery(hook.Id))?.attempts ?? 0) >= 2);
      assert.equal(f.receiver.received.filter(at('/elsewhere')).length, 0);
      assert.equal((await delivery(hook.Id))?.last_status_code, 302);
      await f.call('DELETE', `${WEBHOOK_URL}/${hook.Id}`);
      f.receiver.answer = () => 200;
    });

    it("scopes deliveries by ledger: the key's ledgers within the owner's grant", async () => {
      const onlyA = await f.register({ Url: `${f.receiver.url}/key-a`, EntityName: 'Project' }, f.keyA);
      const userA = await f.t.login({ permissions: [PERMISSIONS.webhook], ledgers: [f.A.companyCodeId] });
      const grantA = await f.call('POST', WEBHOOK_URL, {
        token: userA,
        body: { Url: `${f.receiver.url}/grant-a`, EntityName: 'Project' },
      });
      assert.equal(grantA.statusCode, 201, grantA.body);
      const inB = await createProject(f.B.companyCodeId);
      const inA = await createProject(f.A.companyCodeId);
      const a = await f.receiver.waitFor(1, 20_000, at('/key-a'));
      const g = await f.receiver.waitFor(1, 20_000, at('/grant-a'));
      // Both projects are fanned out before either is sent (one round), so one delivery each means B was left out.
      await waitUntil(async () => {
        const row = await f.t.database.db
          .selectFrom('outbox_events')
          .select('dispatched_at')
          .where('entity_id', '=', inB)
          .where('entity_type', '=', 'Project')
          .executeTakeFirst();
        return row?.dispatched_at != null;
      });
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(
        f.receiver.received.filter(at('/key-a')).map((r) => body(r).id),
        [inA],
      );
      assert.deepEqual(
        f.receiver.received.filter(at('/grant-a')).map((r) => body(r).id),
        [inA],
      );
      assert.equal(a.length + g.length, 2);
      const rows = await f.t.database.db
        .selectFrom('webhook_deliveries')
        .select('entity_id')
        .where('webhook_id', 'in', [onlyA.Id, grantA.json().Id])
        .execute();
      assert.ok(rows.every((r) => r.entity_id !== inB));
    });

    it('a slow receiver holds only its own slots (WEBHOOK_CONCURRENCY) and delays no other', async () => {
      await f.register({ Url: `${f.receiver.url}/slow`, EntityName: 'Loan' });
      await f.register({ Url: `${f.receiver.url}/fast`, EntityName: 'Loan' });
      f.receiver.answer = (r) => (r.path === '/slow' ? 'hang' : 200);
      await f.t.app.writes.run((trx) =>
        recordEvents(
          trx,
          Array.from({ length: 6 }, (_, i) => ({
            entityType: 'Loan',
            entityId: 9000 + i,
            action: 'created' as const,
            companyCodeId: f.A.companyCodeId,
          })),
        ),
      );
      await f.receiver.waitFor(6, 20_000, at('/fast'));
      assert.ok(f.receiver.received.filter(at('/slow')).length >= 2);
      assert.equal(f.receiver.maxHanging.get('/slow'), 2);
      f.receiver.answer = () => 200;
      await f.receiver.waitFor(6, 30_000, at('/slow'));
    });

    it('refuses a private address at delivery time unless allowed, and logs it', async () => {
      const strict = startDispatcher({
        database: f.t.database,
        config: loadConfig({ ...ENV, WEBHOOK_ALLOW_PRIVATE: 'false' }),
        logger,
      });
      await dispatcher.stop();
      try {
        const hook = await f.register({ Url: `${f.receiver.url}/private`, EntityName: 'UseUnit' });
        await f.t.app.writes.run((trx) =>
          recordEvents(trx, [
            { entityType: 'UseUnit', entityId: 1, action: 'deleted', companyCodeId: f.A.companyCodeId },
          ]),
        );
        await waitUntil(async () => ((await delivery(hook.Id))?.attempts ?? 0) >= 1);
        const log = (await f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`)).json();
        assert.match(log[0].Error, /non-public address/);
        assert.equal(log[0].StatusCode, undefined);
        assert.equal(f.receiver.received.filter(at('/private')).length, 0);
        await f.call('DELETE', `${WEBHOOK_URL}/${hook.Id}`);
      } finally {
        await strict.stop();
        dispatcher = startDispatcher({ database: f.t.database, config: f.t.app.config, logger });
      }
    });

    it('prunes delivered events and log rows older than the retention', async () => {
      const hook = await f.register({ Url: `${f.receiver.url}/prune`, EntityName: 'LicenseAgreement' });
      const old = new Date(Date.now() - 31 * 86400_000).toISOString();
      const recent = new Date(Date.now() - 29 * 86400_000).toISOString();
      const db = f.t.database.db;
      await db
        .insertInto('outbox_events')
        .values([
          {
            event_id: 'old-event',
            entity_type: 'X',
            entity_id: 1,
            action: 'created',
            company_code_id: null,
            user_id: null,
            created_at: old,
            dispatched_at: old,
          },
          {
            event_id: 'recent-event',
            entity_type: 'X',
            entity_id: 1,
            action: 'created',
            company_code_id: null,
            user_id: null,
            created_at: recent,
            dispatched_at: recent,
          },
        ])
        .execute();
      const row = (at_: string, id: string) => ({
        webhook_id: hook.Id,
        event_id: id,
        entity_type: 'X',
        entity_id: 1,
        action: 'created',
        user_id: null,
        event_created_at: at_,
        status: 'delivered' as const,
        attempts: 1,
        next_attempt_at: at_,
        created_at: at_,
        finished_at: at_,
      });
      const [d1, d2] = await db
        .insertInto('webhook_deliveries')
        .values([row(old, 'old-event'), row(recent, 'recent-event')])
        .returning('id')
        .execute();
      await db
        .insertInto('webhook_attempts')
        .values([
          {
            delivery_id: d1!.id,
            webhook_id: hook.Id,
            attempt: 1,
            attempted_at: old,
            status_code: 200,
            error: null,
            duration_ms: 1,
          },
          {
            delivery_id: d2!.id,
            webhook_id: hook.Id,
            attempt: 1,
            attempted_at: recent,
            status_code: 200,
            error: null,
            duration_ms: 1,
          },
        ])
        .execute();
      // The prune turn is taken at most hourly: a new dispatcher on a database whose last prune is old takes it.
      await db.updateTable('webhook_dispatch_state').set({ pruned_at: old }).execute();
      const pruner = startDispatcher({ database: f.t.database, config: f.t.app.config, logger });
      try {
        await waitUntil(
          async () =>
            !(await db.selectFrom('outbox_events').select('id').where('event_id', '=', 'old-event').executeTakeFirst()),
        );
      } finally {
        await pruner.stop();
      }
      const events = await db
        .selectFrom('outbox_events')
        .select('event_id')
        .where('event_id', 'in', ['old-event', 'recent-event'])
        .execute();
      assert.deepEqual(
        events.map((e) => e.event_id),
        ['recent-event'],
      );
      const deliveries = await db
        .selectFrom('webhook_deliveries')
        .select('event_id')
        .where('webhook_id', '=', hook.Id)
        .execute();
      assert.deepEqual(
        deliveries.map((e) => e.event_id),
        ['recent-event'],
      );
      const attempts = await db
        .selectFrom('webhook_attempts')
        .select('attempted_at')
        .where('webhook_id', '=', hook.Id)
        .execute();
      assert.deepEqual(
        attempts.map((a) => a.attempted_at),
        [recent],
      );
    });

    async function delivery(webhookId: number) {
      return f.t.database.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('webhook_id', '=', webhookId)
        .orderBy('id', 'desc')
        .executeTakeFirst();
    }
  });
}

async function waitUntil(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
