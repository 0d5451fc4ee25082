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
  });
}
