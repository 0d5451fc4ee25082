import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { insertCompanyCode } from '../dataset/factories.ts';
import { projectsFixture, PROJECTS_URL, type ProjectsFixture } from '../../test/fixtures/projects.ts';

for (const dialect of DIALECTS) {
  describe(`AccountancyProjectEdit create [${dialect}]`, () => {
    let f: ProjectsFixture;
    before(async () => {
      f = await projectsFixture(dialect);
    });
    after(() => f.close());

    it('creates a project with every property, answers 201 {Id, Code, Name} with Location, and reads it back', async () => {
      const { A } = f;
      const body = {
        Name: 'Neubau Nord',
        Code: 'NB-1',
        ProjectManager: 'M. Muster',
        Description: 'Zwei Häuser',
        CompanyCodeId: A.companyCodeId,
        ApplicationForDevelopmentScheduleDate: '2025-01-10',
        ApplicationForDevelopmentDeliveryDate: '2025-01-11',
        ApplicationForDevelopmentGrantDate: '2025-01-12',
        ApplicationForDevelopmentValidTo: '2026-01-12',
        ApplicationForDevelopmentFileReference: 'AZ-1',
        ApplicationForBuildingLicenseScheduleDate: '2025-02-10',
        ApplicationForBuildingLicenseDeliveryDate: '2025-02-11',
        ApplicationForBuildingLicenseGrantDate: '2025-02-12',
        ApplicationForBuildingLicenseValidTo: '2028-02-29',
        ApplicationForBuildingLicenseFileReference: 'AZ-2',
        ApplicationForBuildingLicenseReference: 'REF-2',
        ProjectLifeTimeFrom: '2025-01-01',
        ProjectLifeTimeTo: '2027-12-31',
        CostCenterId: A.costCenterId,
        CostUnitId: A.costUnitId,
        CostTypeId: A.costTypeId,
        // deliberately out of order and with a duplicate: the server applies them in dependency order
        UseUnit: [A.useUnitIds[1], A.useUnitIds[0]],
        Building: [A.buildingIds[0]],
        EconomicUnit: [A.economicUnitIds[0], A.economicUnitIds[0]],
        Land: [A.landIds[0]],
        Budget: A.budgetIds,
        Loan: A.loanIds,
      };
      const res = await f.create(body);
      assert.equal(res.statusCode, 201, res.body);
      const created = res.json();
      assert.deepEqual(Object.keys(created).sort(), ['Code', 'Id', 'Name']);
      assert.equal(created.Code, 'NB-1');
      assert.equal(created.Name, 'Neubau Nord');
      assert.equal(res.headers.location, `${PROJECTS_URL}/${created.Id}`);

      const read = await f.t.app.inject({
        url: `${res.headers.location}?apiKey=${f.key}`,
        headers: { authorization: `Bearer ${f.token}` },
      });
      assert.equal(read.statusCode, 200);
      const expected = {
        ...body,
        Id: created.Id,
        EconomicUnit: [A.economicUnitIds[0]],
        UseUnit: [...A.useUnitIds.slice(0, 2)].sort((a, b) => a - b),
      };
      assert.deepEqual(read.json(), expected);
    });

    it('creates under /openwowi with a Location under the same prefix', async () => {
      const res = await f.t.app.inject({
        method: 'POST',
        url: `/openWowi/v1.2/AccountancyProjectEdit/Project?apiKey=${f.key}`,
        headers: { authorization: `Bearer ${f.token}` },
        payload: { CompanyCodeId: f.A.companyCodeId, ProjectLifeTimeFrom: '2025-03-01' },
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.headers.location, `/openwowi/v1.2/AccountancyProjectEdit/Project/${res.json().Id}`);
    });

    it('needs only CompanyCodeId and ProjectLifeTimeFrom; 0 for a cost object means none', async () => {
      const res = await f.create({
        CompanyCodeId: f.A.companyCodeId,
        ProjectLifeTimeFrom: '2024-02-29',
        CostCenterId: 0,
        CostUnitId: 0,
        CostTypeId: 0,
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.deepEqual(
        res.json(),
        { Id: res.json().Id, Code: null, Name: null },
        'every write answers the full {Id, Code, Name}',
      );
      const read = await f.read(res.json().Id);
      assert.deepEqual(read, {
        Id: res.json().Id,
        CompanyCodeId: f.A.companyCodeId,
        ProjectLifeTimeFrom: '2024-02-29',
        CostCenterId: 0,
        CostUnitId: 0,
        CostTypeId: 0,
        EconomicUnit: [],
        Building: [],
        Land: [],
        UseUnit: [],
        Budget: [],
        Loan: [],
      });
      const shown = (await f.call('GET', `/${res.json().Id}`, { query: 'showNullValues=true' })).json();
      assert.equal(shown.CostCenterId, 0);
      assert.equal(shown.Code, null);
      assert.equal(Object.keys(shown).length, 28);
    });

    it('records a created event in the outbox', async () => {
      const id = await f.createId();
      const events = await f.t.database.db
        .selectFrom('outbox_events')
        .selectAll()
        .where('entity_id', '=', id)
        .where('entity_type', '=', 'Project')
        .execute();
      assert.deepEqual(
        events.map((e) => [e.action, e.company_code_id]),
        [['created', f.A.companyCodeId]],
      );
    });

    it('a ledger created after start-up is usable at once', async () => {
      const ledger = await insertCompanyCode(f.t.database.db);
      assert.equal((await f.create({ CompanyCodeId: ledger.id, ProjectLifeTimeFrom: '2025-01-01' })).statusCode, 201);
    });
  });
}
