// Create requests that are refused: every error named at once, nothing stored (the accepted ones: create.test.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { insertCostCenter } from '../dataset/factories.ts';
import { projectsFixture, type ProjectsFixture } from '../../test/fixtures/projects.ts';

for (const dialect of DIALECTS) {
  describe(`AccountancyProjectEdit create, refused bodies [${dialect}]`, () => {
    let f: ProjectsFixture;
    before(async () => {
      f = await projectsFixture(dialect);
    });
    after(() => f.close());

    const projectCount = () => f.count();

    it('400 naming every schema and rule error at once, and nothing stored', async () => {
      const before = await projectCount();
      await f.createId({ Code: 'TAKEN' });
      const res = await f.create({
        CompanyCodeId: f.A.companyCodeId,
        Code: 'TAKEN',
        Name: 42,
        name: 'lower case',
        Id: 7,
        Extra: true,
        ApplicationForDevelopmentScheduleDate: '2025-02-30',
        ApplicationForDevelopmentGrantDate: '2025-13-01',
        ApplicationForBuildingLicenseValidTo: '1.1.2025',
        ProjectLifeTimeTo: '2024-12-31',
        ApplicationForBuildingLicenseGrantDate: '0000-01-01', // no year 0 (decisions §4: real dates)
        CostCenterId: 999999,
        CostUnitId: 2147483648,
        CostTypeId: '5',
        Building: [f.A.buildingIds[0], 'x', 1.5],
      });
      assert.equal(res.statusCode, 400);
      const errors = res.json();
      assert.deepEqual(Object.keys(errors).sort(), [
        'ApplicationForBuildingLicenseGrantDate',
        'ApplicationForBuildingLicenseValidTo',
        'ApplicationForDevelopmentGrantDate',
        'ApplicationForDevelopmentScheduleDate',
        'Building',
        'Building[1]',
        'Building[2]',
        'Code',
        'CostCenterId',
        'CostTypeId',
        'CostUnitId',
        'Extra',
        'Id',
        'Name',
        'ProjectLifeTimeFrom',
        'name',
      ]);
      assert.match(errors.ApplicationForDevelopmentScheduleDate[0], /'2025-02-30'/);
      assert.match(errors.ApplicationForDevelopmentGrantDate[0], /'2025-13-01'/);
      assert.match(errors.ApplicationForBuildingLicenseValidTo[0], /'1\.1\.2025'/);
      assert.match(errors.ApplicationForBuildingLicenseGrantDate[0], /'0000-01-01'/);
      assert.match(errors.Name[0], /'42'/);
      assert.match(errors.name[0], /case-sensitive.*'Name'/);
      assert.match(errors.Id[0], /server/);
      assert.match(errors.Extra[0], /Unknown property 'Extra'/);
      assert.match(errors.Code[0], /'TAKEN'/);
      assert.match(errors.CostCenterId[0], /999999/);
      assert.match(errors.CostUnitId[0], /'2147483648'/);
      assert.match(errors.CostTypeId[0], /'5'/);
      assert.match(errors['Building[1]'][0], /'x'/);
      assert.match(errors['Building[2]'][0], /'1\.5'/);
      assert.match(
        errors.Building[0],
        new RegExp(`building ${f.A.buildingIds[0]} needs its economic unit ${f.A.economicUnitIds[0]}`),
      );
      assert.deepEqual(errors.ProjectLifeTimeFrom, ['ProjectLifeTimeFrom is required.']);
      assert.equal(await projectCount(), before + 1);
    });

    it('400 for ProjectLifeTimeTo before ProjectLifeTimeFrom, naming both', async () => {
      const res = await f.create({
        CompanyCodeId: f.A.companyCodeId,
        ProjectLifeTimeFrom: '2025-06-02',
        ProjectLifeTimeTo: '2025-06-01',
      });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(Object.keys(res.json()), ['ProjectLifeTimeTo']);
      assert.match(res.json().ProjectLifeTimeTo[0], /'2025-06-01'.*'2025-06-02'/);
      assert.equal(
        (
          await f.create({
            CompanyCodeId: f.A.companyCodeId,
            ProjectLifeTimeFrom: '2025-06-02',
            ProjectLifeTimeTo: '2025-06-02',
          })
        ).statusCode,
        201,
      );
    });

    for (const [label, CompanyCodeId] of [
      ['unknown', 987654],
      ['zero', 0],
      ['negative', -1],
    ] as const) {
      it(`400 for an ${label} CompanyCodeId, naming it`, async () => {
        const res = await f.create({ CompanyCodeId, ProjectLifeTimeFrom: '2025-01-01' });
        assert.equal(res.statusCode, 400);
        assert.deepEqual(Object.keys(res.json()), ['CompanyCodeId']);
        assert.match(res.json().CompanyCodeId[0], new RegExp(`${CompanyCodeId}`));
      });
    }

    it('a ledger outside the API key is answered like an unknown one', async () => {
      const keyA = await f.t.apiKey([f.A.companyCodeId]);
      const other = await f.create(
        { CompanyCodeId: f.B.companyCodeId, ProjectLifeTimeFrom: '2025-01-01' },
        { key: keyA },
      );
      const unknown = await f.create({ CompanyCodeId: 987654, ProjectLifeTimeFrom: '2025-01-01' }, { key: keyA });
      assert.equal(other.statusCode, 400);
      assert.equal(
        other.json().CompanyCodeId[0],
        unknown.json().CompanyCodeId[0].replace('987654', String(f.B.companyCodeId)),
      );
      assert.equal(
        (await f.create({ CompanyCodeId: f.A.companyCodeId, ProjectLifeTimeFrom: '2025-01-01' }, { key: keyA }))
          .statusCode,
        201,
      );
    });

    it("with a ledger outside the API key or unknown, the other ledger's ids get the answer of unknown ids", async () => {
      const keyA = await f.t.apiKey([f.A.companyCodeId]);
      const B = f.B;
      const body = (ledger: number, known: boolean) => ({
        CompanyCodeId: ledger,
        ProjectLifeTimeFrom: '2025-01-01',
        CostCenterId: known ? B.costCenterId : 987650,
        CostUnitId: known ? B.costUnitId : 987651,
        Building: [known ? B.buildingIds[0] : 987652],
        Land: [known ? B.landIds[0] : 987653],
        UseUnit: [known ? B.useUnitIds[0] : 987654],
        Budget: [known ? B.budgetIds[0] : 987655],
        Loan: [known ? B.loanIds[0] : 987656],
      });
      for (const ledger of [B.companyCodeId, 987600]) {
        const known = await f.create(body(ledger, true), { key: keyA });
        const unknown = await f.create(body(ledger, false), { key: keyA });
        assert.equal(known.statusCode, 400);
        assert.deepEqual(known.json(), unknown.json(), `ledger ${ledger}`);
        assert.deepEqual(Object.keys(known.json()), ['CompanyCodeId']);
      }
    });

    it('the same Code is allowed in another ledger; a cost centre of another ledger is refused, a shared one accepted', async () => {
      await f.createId({ Code: 'SHARED' });
      assert.equal(
        (await f.create({ CompanyCodeId: f.B.companyCodeId, ProjectLifeTimeFrom: '2025-01-01', Code: 'SHARED' }))
          .statusCode,
        201,
      );
      const foreign = await f.create({
        CompanyCodeId: f.A.companyCodeId,
        ProjectLifeTimeFrom: '2025-01-01',
        CostCenterId: f.B.costCenterId,
      });
      assert.equal(foreign.statusCode, 400);
      assert.match(foreign.json().CostCenterId[0], new RegExp(`${f.B.costCenterId}`));
      const shared = await insertCostCenter(f.t.database.db, { company_code_id: null });
      assert.equal(
        (
          await f.create({
            CompanyCodeId: f.A.companyCodeId,
            ProjectLifeTimeFrom: '2025-01-01',
            CostCenterId: shared.id,
          })
        ).statusCode,
        201,
      );
    });

    it('400 for bodies that are not a project object', async () => {
      for (const payload of ['{"Name": ', '[]', '"text"', 'null', '']) {
        const res = await f.call('POST', '', { payload });
        assert.equal(res.statusCode, 400, payload);
        assert.ok(res.json().$?.length, `${payload}: ${res.body}`);
      }
      const xml = await f.call('POST', '', { payload: '<Project/>', contentType: 'application/xml' });
      assert.equal(xml.statusCode, 400);
      const none = await f.call('POST', '');
      assert.equal(none.statusCode, 400);
    });

    it('ProjectLifeTimeFrom and CompanyCodeId cannot be null', async () => {
      const res = await f.create({ CompanyCodeId: null, ProjectLifeTimeFrom: null });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().CompanyCodeId[0], /null/);
      assert.match(res.json().ProjectLifeTimeFrom[0], /null/);
    });

    it('arrays: atomic, every offending id named, other ledger like unknown', async () => {
      const { A, B } = f;
      const before = await projectCount();
      const eventsBefore = (await f.t.database.db.selectFrom('outbox_events').select('id').execute()).length;
      const res = await f.create({
        CompanyCodeId: A.companyCodeId,
        ProjectLifeTimeFrom: '2025-01-01',
        EconomicUnit: [A.economicUnitIds[0], B.economicUnitIds[0], 555555],
        Building: [A.buildingIds[0], A.buildingIds[1]],
        Land: [A.landIds[1]],
        UseUnit: [A.useUnitIds[0], A.useUnitIds[2]],
        Budget: [B.budgetIds[0]],
        Loan: [555556, A.loanIds[0]],
      });
      assert.equal(res.statusCode, 400);
      const e = res.json();
      // an id that does not exist or is of another ledger under its place in its array (decisions §3:
      // `Building[2]`), a missing prerequisite under the array (decisions §4)
      assert.deepEqual(Object.keys(e).sort(), [
        'Budget[0]',
        'Building',
        'EconomicUnit[1]',
        'EconomicUnit[2]',
        'Land',
        'Loan[0]',
        'UseUnit',
      ]);
      assert.match(e['EconomicUnit[1]'][0], new RegExp(`${B.economicUnitIds[0]}`));
      assert.match(e['EconomicUnit[2]'][0], /555555/);
      assert.match(
        e.Building.join(' '),
        new RegExp(`building ${A.buildingIds[1]} needs its economic unit ${A.economicUnitIds[1]}`),
      );
      assert.match(e.Land.join(' '), new RegExp(`${A.landIds[1]}.*economic unit ${A.economicUnitIds[1]}`));
      // use unit 2 (second economic unit) misses both prerequisites; use unit 0 is fine
      assert.equal(e.UseUnit.length, 2);
      assert.ok(e.UseUnit.every((m: string) => m.includes(String(A.useUnitIds[2]))));
      assert.match(e['Budget[0]'][0], new RegExp(`${B.budgetIds[0]}`));
      assert.match(e['Loan[0]'][0], /555556/);
      assert.equal(await projectCount(), before);
      assert.equal((await f.t.database.db.selectFrom('outbox_events').select('id').execute()).length, eventsBefore);
    });

    it('a use unit without a building needs only its economic unit', async () => {
      const { insertUseUnit } = await import('../dataset/factories.ts');
      const loose = await insertUseUnit(f.t.database.db, {
        economic_unit_id: f.A.economicUnitIds[1],
        company_code_id: f.A.companyCodeId,
        building_id: null,
      });
      const res = await f.create({
        CompanyCodeId: f.A.companyCodeId,
        ProjectLifeTimeFrom: '2025-01-01',
        EconomicUnit: [f.A.economicUnitIds[1]],
        UseUnit: [loose.id],
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.deepEqual((await f.read(res.json().Id)).UseUnit, [loose.id]);
    });
  });
}
