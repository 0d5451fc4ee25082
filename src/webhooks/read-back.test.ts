// openWowiUrl: every entity type events carry points at a read endpoint that answers that very entity (decisions §5);
// null once deleted, or where no read endpoint filters by id.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { bearer } from '../../test/support/app.ts';
import { at, body, dispatcherSuite } from '../../test/fixtures/webhook-dispatcher.ts';
import { recordEvents, type DomainEvent } from '../events/outbox.ts';
import { buildLegalPerson } from '../dataset/factories/parties.ts';

const BASE = 'https://wohnapi.example'; // WEBHOOK_BASE_URL of the dispatcher suite

for (const dialect of DIALECTS) {
  describe(`webhook payload: openWowiUrl [${dialect}]`, () => {
    const s = dispatcherSuite(dialect);

    it('reads back every entity type that has a read endpoint; null without one and after a delete', async () => {
      const { A } = s.f;
      const person = 990001;
      await s.f.t.database.db
        .insertInto('persons')
        .values(buildLegalPerson(person, 990001, 'Read Back GmbH'))
        .execute();
      await s.f.register({ Url: `${s.f.receiver.url}/read-back`, EntityName: 'All' });
      const project = await s.createProject(A.companyCodeId);
      const readable: Array<[string, number]> = [
        ['Project', project],
        ['EconomicUnit', A.economicUnitIds[0]!],
        ['Building', A.buildingIds[0]!],
        ['Land', A.landIds[0]!],
        ['UseUnit', A.useUnitIds[0]!],
        ['LicenseAgreement', A.licenseAgreementIds[0]!],
        ['Loan', A.loanIds[0]!],
        ['Person', person],
      ];
      const event = (entityType: string, entityId: number, action: DomainEvent['action'] = 'updated') => ({
        entityType,
        entityId,
        action,
        companyCodeId: A.companyCodeId,
      });
      await s.f.t.database.db
        .transaction()
        .execute((trx) =>
          recordEvents(trx, [
            ...readable.filter(([type]) => type !== 'Project').map(([type, id]) => event(type, id)),
            event('Contractor', 1),
            event('Loan', 424242, 'deleted'),
          ]),
        );
      const got = (await s.f.receiver.waitFor(readable.length + 2, 20_000, at('/read-back'))).map(body);
      const urlOf = (type: string, id: number) => got.find((b) => b.entityName === type && b.id === id)?.openWowiUrl;
      assert.equal(urlOf('Contractor', 1), null);
      assert.equal(urlOf('Loan', 424242), null);

      const reader = await s.f.t.login(); // every permission, all ledgers
      for (const [type, id] of readable) {
        const url = urlOf(type, id);
        assert.equal(typeof url, 'string', `${type}: ${String(url)}`);
        assert.ok((url as string).startsWith(`${BASE}/openwowi/v1.2/`), String(url));
        const path = (url as string).slice(BASE.length);
        const res = await s.f.t.app.inject({
          url: `${path}${path.includes('?') ? '&' : '?'}apiKey=${s.f.key}`,
          headers: bearer(reader),
        });
        assert.equal(res.statusCode, 200, `${type} ${path}: ${res.body}`);
        const answer = res.json<{ Id: number } | Array<{ Id: number }>>();
        const records = Array.isArray(answer) ? answer : [answer];
        assert.deepEqual(
          records.map((r) => r.Id),
          [id],
          `${type} ${path} answers exactly that entity`,
        );
      }
    });

    it('a person event goes to the webhooks of the ledgers the person is linked to (decisions §7)', async () => {
      const { A, B } = s.f;
      const db = s.f.t.database.db;
      const [linked, unlinked] = [990101, 990102];
      await db
        .insertInto('persons')
        .values([buildLegalPerson(linked, linked, 'Linked GmbH'), buildLegalPerson(unlinked, unlinked, 'Alone GmbH')])
        .execute();
      // linked to ledger A only: the borrower of one of A's loans
      await db.updateTable('loans').set({ borrower_id: linked }).where('id', '=', A.loanIds[0]!).execute();
      const keyB = await s.f.t.apiKey([B.companyCodeId]);
      const hookA = await s.f.register({ Url: `${s.f.receiver.url}/person-a`, EntityName: 'Person' }, s.f.keyA);
      const hookB = await s.f.register({ Url: `${s.f.receiver.url}/person-b`, EntityName: 'Person' }, keyB);
      await s.f.register({ Url: `${s.f.receiver.url}/person-all`, EntityName: 'Person' });
      // as the importer records them: a person has no ledger of its own
      const event = (entityId: number) => ({
        entityType: 'Person',
        entityId,
        action: 'updated' as const,
        companyCodeId: null,
      });
      await db.transaction().execute((trx) => recordEvents(trx, [event(linked), event(unlinked)]));
      const all = (await s.f.receiver.waitFor(2, 20_000, at('/person-all'))).map(body);
      assert.deepEqual(all.map((b) => b.id).sort(), [linked, unlinked]);
      const a = (await s.f.receiver.waitFor(1, 20_000, at('/person-a'))).map(body);
      assert.deepEqual(
        a.map((b) => b.id),
        [linked],
      );
      // fanned out in the same round as the others: nothing for ledger B, and the unlinked person only for all ledgers
      const deliveries = async (webhookId: number) =>
        (
          await db.selectFrom('webhook_deliveries').select('entity_id').where('webhook_id', '=', webhookId).execute()
        ).map((d) => d.entity_id);
      assert.deepEqual(await deliveries(hookB.Id), []);
      assert.deepEqual(await deliveries(hookA.Id), [linked]);
    });
  });
}
