// The dispatcher's boundaries: ledger scoping, per-receiver concurrency, private addresses, retention.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { WEBHOOK_URL } from '../../test/fixtures/webhooks.ts';
import { at, body, dispatcherSuite, ENV, waitUntil } from '../../test/fixtures/webhook-dispatcher.ts';
import { loadConfig } from '../config.ts';
import { recordEvents } from '../events/outbox.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { startDispatcher, type DispatcherOptions } from './dispatcher.ts';
import { freePort } from '../../bench/harness.ts';
import { openDatabase } from '../db/database.ts';

for (const dialect of DIALECTS) {
  describe(`webhook dispatcher: boundaries [${dialect}]`, () => {
    const s = dispatcherSuite(dialect);

    it("scopes deliveries by ledger: the key's ledgers within the owner's grant", async () => {
      const onlyA = await s.f.register({ Url: `${s.f.receiver.url}/key-a`, EntityName: 'Project' }, s.f.keyA);
      const userA = await s.f.t.login({
        permissions: [PERMISSIONS.webhook, PERMISSIONS.projectEdit],
        ledgers: [s.f.A.companyCodeId],
      });
      const grantA = await s.f.call('POST', WEBHOOK_URL, {
        token: userA,
        body: { Url: `${s.f.receiver.url}/grant-a`, EntityName: 'Project' },
      });
      assert.equal(grantA.statusCode, 201, grantA.body);
      const inB = await s.createProject(s.f.B.companyCodeId);
      const inA = await s.createProject(s.f.A.companyCodeId);
      const a = await s.f.receiver.waitFor(1, 20_000, at('/key-a'));
      const g = await s.f.receiver.waitFor(1, 20_000, at('/grant-a'));
      // Both projects are fanned out before either is sent (one round), so one delivery each means B was left out.
      await waitUntil(async () => {
        const row = await s.f.t.database.db
          .selectFrom('outbox_events')
          .select('dispatched_at')
          .where('entity_id', '=', inB)
          .where('entity_type', '=', 'Project')
          .executeTakeFirst();
        return row?.dispatched_at != null;
      });
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(
        s.f.receiver.received.filter(at('/key-a')).map((r) => body(r).id),
        [inA],
      );
      assert.deepEqual(
        s.f.receiver.received.filter(at('/grant-a')).map((r) => body(r).id),
        [inA],
      );
      assert.equal(a.length + g.length, 2);
      const rows = await s.f.t.database.db
        .selectFrom('webhook_deliveries')
        .select('entity_id')
        .where('webhook_id', 'in', [onlyA.Id, grantA.json().Id])
        .execute();
      assert.ok(rows.every((r) => r.entity_id !== inB));
    });

    it("scopes deliveries by the owner's permissions: only the entity types the owner may read", async () => {
      const hookOnly = await s.f.t.login({ permissions: [PERMISSIONS.webhook] });
      const reader = await s.f.t.login({ permissions: [PERMISSIONS.webhook, PERMISSIONS.projectEdit] });
      const ids: number[] = [];
      for (const [token, path] of [
        [hookOnly, '/perm-none'],
        [reader, '/perm-projects'],
      ] as const) {
        const res = await s.f.call('POST', WEBHOOK_URL, {
          token,
          body: { Url: `${s.f.receiver.url}${path}`, EntityName: 'All' },
        });
        assert.equal(res.statusCode, 201, res.body);
        ids.push(res.json<{ Id: number }>().Id);
      }
      const operator = await s.f.register({ Url: `${s.f.receiver.url}/perm-operator`, EntityName: 'All' });
      // as the operator's CLI registers it: no owner, so no permissions narrow it
      await s.f.t.database.db
        .updateTable('webhooks')
        .set({ owner_user_id: null })
        .where('id', '=', operator.Id)
        .execute();
      // a project (read with 'Belegsystem Projekt ändern') and a loan (read with 'Darlehen lesen')
      const project = await s.createProject(s.f.A.companyCodeId);
      await s.f.t.database.db
        .transaction()
        .execute((trx) =>
          recordEvents(trx, [
            { entityType: 'Loan', entityId: 1, action: 'updated', companyCodeId: s.f.A.companyCodeId },
          ]),
        );
      await s.f.receiver.waitFor(2, 20_000, at('/perm-operator'));
      await s.f.receiver.waitFor(1, 20_000, at('/perm-projects'));
      await new Promise((r) => setTimeout(r, 200));
      const got = (path: string) => s.f.receiver.received.filter(at(path)).map((r) => String(body(r).entityName));
      assert.deepEqual(got('/perm-none'), [], 'a user with only Web Hook learns of nothing it may not read');
      assert.deepEqual(got('/perm-projects'), ['Project']);
      const rows = await s.f.t.database.db
        .selectFrom('webhook_deliveries')
        .select(['webhook_id', 'entity_type', 'entity_id'])
        .where('webhook_id', 'in', ids)
        .execute();
      assert.deepEqual(rows, [{ webhook_id: ids[1], entity_type: 'Project', entity_id: project }]);
      for (const id of [...ids, operator.Id]) await s.f.call('DELETE', `${WEBHOOK_URL}/${id}`);
    });

    it('a slow receiver holds only its own slots (WEBHOOK_CONCURRENCY) and delays no other', async () => {
      await s.f.register({ Url: `${s.f.receiver.url}/slow`, EntityName: 'Loan' });
      await s.f.register({ Url: `${s.f.receiver.url}/fast`, EntityName: 'Loan' });
      s.f.receiver.answer = (r) => (r.path === '/slow' ? 'hang' : 200);
      await s.f.t.app.writes.run((trx) =>
        recordEvents(
          trx,
          Array.from({ length: 6 }, (_, i) => ({
            entityType: 'Loan',
            entityId: 9000 + i,
            action: 'created' as const,
            companyCodeId: s.f.A.companyCodeId,
          })),
        ),
      );
      await s.f.receiver.waitFor(6, 20_000, at('/fast'));
      assert.ok(s.f.receiver.received.filter(at('/slow')).length >= 2);
      assert.equal(s.f.receiver.maxHanging.get('/slow'), 2);
      s.f.receiver.answer = () => 200;
      await s.f.receiver.waitFor(6, 30_000, at('/slow'));
    });

    it('refuses a private address at delivery time unless allowed, and logs it', async () => {
      const strict = startDispatcher({
        database: s.f.t.database,
        config: loadConfig({ ...ENV, WEBHOOK_ALLOW_PRIVATE: 'false' }),
        logger: s.logger,
      });
      await s.stopDispatcher();
      try {
        const hook = await s.f.register({ Url: `${s.f.receiver.url}/private`, EntityName: 'UseUnit' });
        await s.f.t.app.writes.run((trx) =>
          recordEvents(trx, [
            { entityType: 'UseUnit', entityId: 1, action: 'deleted', companyCodeId: s.f.A.companyCodeId },
          ]),
        );
        await waitUntil(async () => ((await s.delivery(hook.Id))?.attempts ?? 0) >= 1);
        const log = (await s.f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`)).json();
        assert.match(log[0].Error, /non-public address/);
        assert.equal(log[0].StatusCode, undefined);
        assert.equal(s.f.receiver.received.filter(at('/private')).length, 0);
        await s.f.call('DELETE', `${WEBHOOK_URL}/${hook.Id}`);
      } finally {
        await strict.stop();
        s.startDispatcher();
      }
    });

    it('prunes delivered events and log rows older than the retention', async () => {
      const hook = await s.f.register({ Url: `${s.f.receiver.url}/prune`, EntityName: 'LicenseAgreement' });
      const old = new Date(Date.now() - 31 * 86400_000).toISOString();
      const recent = new Date(Date.now() - 29 * 86400_000).toISOString();
      const db = s.f.t.database.db;
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
      const pruner = startDispatcher({ database: s.f.t.database, config: s.f.t.app.config, logger: s.logger });
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
  });
}

describe('webhook dispatcher: the database out of reach', () => {
  it('logs the first failed round with its error, not one line per poll', async () => {
    // a PostgreSQL server that is not there: every statement fails with ECONNREFUSED, as during an outage
    const gone = openDatabase(`postgres://wohnapi@127.0.0.1:${await freePort()}/gone`);
    const lines: Array<[string, unknown, string]> = [];
    const logger = {
      info: (o: unknown, m: string) => lines.push(['info', o, m]),
      warn: (o: unknown, m: string) => lines.push(['warn', o, m]),
      error: (o: unknown, m: string) => lines.push(['error', o, m]),
    } as unknown as DispatcherOptions['logger'];
    const config = loadConfig({ ...ENV, WEBHOOK_POLL_MS: '10' });
    const dispatcher = startDispatcher({ database: gone, config, logger });
    try {
      await new Promise((r) => setTimeout(r, 500)); // dozens of rounds
    } finally {
      await dispatcher.stop();
      await gone.close();
    }
    assert.deepEqual(
      lines.map(([level, , message]) => `${level}: ${message}`),
      ['error: webhook dispatcher round failed'],
    );
    assert.ok((lines[0]![1] as { err?: unknown }).err instanceof Error, 'the first line carries the error');
  });
});
