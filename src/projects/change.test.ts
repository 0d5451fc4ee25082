import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { at } from '../../test/support/lists.ts';
import { insertCompanyCode } from '../dataset/factories.ts';
import { projectsFixture, type ProjectsFixture } from '../../test/fixtures/projects.ts';

for (const dialect of DIALECTS) {
  describe(`AccountancyProjectEdit change and delete [${dialect}]`, () => {
    let f: ProjectsFixture;
    before(async () => {
      f = await projectsFixture(dialect);
    });
    after(() => f.close());

    const put = (id: number, body: unknown) => f.call('PUT', `/${id}`, { body });
    const events = async (id: number) =>
      (
        await f.t.database.db
          .selectFrom('outbox_events')
          .select('action')
          .where('entity_type', '=', 'Project')
          .where('entity_id', '=', id)
          .orderBy('id')
          .execute()
      ).map((e) => e.action);

    it('changes only the properties present and answers 200 {Id, Code, Name}', async () => {
      const id = await f.createId({
        Code: 'CH-1',
        Name: 'Old',
        Description: 'keep me',
        ProjectManager: 'X',
        CostCenterId: f.A.costCenterId,
        ProjectLifeTimeTo: '2030-01-01',
      });
      const res = await put(id, { Name: 'New', ApplicationForDevelopmentGrantDate: '2025-05-05' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { Id: id, Code: 'CH-1', Name: 'New' });
      const read = await f.read(id);
      assert.equal(read.Name, 'New');
      assert.equal(read.Description, 'keep me');
      assert.equal(read.ApplicationForDevelopmentGrantDate, '2025-05-05');
      assert.equal(read.CostCenterId, f.A.costCenterId);
      assert.deepEqual(await events(id), ['created', 'updated']);
    });

    it('explicit null clears a nullable property; 0 clears a cost object', async () => {
      const id = await f.createId({
        Description: 'x',
        ProjectLifeTimeTo: '2030-01-01',
        CostUnitId: f.A.costUnitId,
        CostTypeId: f.A.costTypeId,
      });
      assert.equal(
        (await put(id, { Description: null, ProjectLifeTimeTo: null, CostUnitId: 0, CostTypeId: 0, Code: null }))
          .statusCode,
        200,
      );
      const read = await f.read(id);
      for (const p of ['Description', 'ProjectLifeTimeTo', 'Code']) assert.equal(p in read, false, p);
      assert.deepEqual([read.CostUnitId, read.CostTypeId], [0, 0], 'a cleared cost object reads back as 0 (none)');
    });

    it('400 for null on a non-nullable property, the six arrays, unknown properties, bad values; nothing changed', async () => {
      const id = await f.createId({ Name: 'Stays' });
      const res = await put(id, {
        Name: 'Changed?',
        CompanyCodeId: null,
        ProjectLifeTimeFrom: null,
        CostTypeId: null,
        EconomicUnit: [f.A.economicUnitIds[0]],
        Building: null,
        Land: [],
        UseUnit: [],
        Budget: [],
        Loan: [],
        code: 'x',
        ProjectLifeTimeTo: '2025-02-29',
        CostCenterId: 424242,
      });
      assert.equal(res.statusCode, 400);
      const e = res.json();
      assert.deepEqual(Object.keys(e).sort(), [
        'Budget',
        'Building',
        'CompanyCodeId',
        'CostCenterId',
        'CostTypeId',
        'EconomicUnit',
        'Land',
        'Loan',
        'ProjectLifeTimeFrom',
        'ProjectLifeTimeTo',
        'UseUnit',
        'code',
      ]);
      assert.match(e.CompanyCodeId[0], /null.*not nullable/);
      assert.match(e.CostTypeId[0], /null.*not nullable/, 'a cost object is an int, not nullable (0 means none)');
      assert.match(e.EconomicUnit[0], /AssignEconomicUnit/);
      assert.match(e.ProjectLifeTimeTo[0], /'2025-02-29'/);
      assert.match(e.CostCenterId[0], /424242/);
      assert.equal((await f.read(id)).Name, 'Stays');
      assert.deepEqual(await events(id), ['created']);
    });

    it("names of Object's own members (constructor, toString, ...) are unknown properties like any other", async () => {
      const id = await f.createId({ Name: 'Stays' });
      for (const call of [
        () => put(id, { constructor: 1, toString: 'x', hasOwnProperty: null }),
        () =>
          f.call('POST', '', {
            body: {
              CompanyCodeId: f.A.companyCodeId,
              ProjectLifeTimeFrom: '2026-01-01',
              constructor: 1,
              toString: 'x',
              hasOwnProperty: null,
            },
          }),
      ]) {
        const res = await call();
        assert.equal(res.statusCode, 400);
        const e = res.json();
        assert.deepEqual(Object.keys(e).sort(), ['constructor', 'hasOwnProperty', 'toString']);
        for (const name of ['constructor', 'toString', 'hasOwnProperty'])
          assert.match(e[name][0], new RegExp(`Unknown property '${name}'`));
      }
      assert.equal((await f.read(id)).Name, 'Stays');
    });

    it('ProjectLifeTimeTo is checked against the stored ProjectLifeTimeFrom and the other way round', async () => {
      const id = await f.createId({ ProjectLifeTimeFrom: '2025-01-01', ProjectLifeTimeTo: '2025-12-31' });
      const to = await put(id, { ProjectLifeTimeTo: '2024-12-31' });
      assert.equal(to.statusCode, 400);
      assert.match(to.json().ProjectLifeTimeTo[0], /'2024-12-31'.*'2025-01-01'/);
      const from = await put(id, { ProjectLifeTimeFrom: '2026-01-01' });
      assert.equal(from.statusCode, 400);
      assert.deepEqual(Object.keys(from.json()), ['ProjectLifeTimeFrom']);
      assert.equal(
        (await put(id, { ProjectLifeTimeFrom: '2026-01-01', ProjectLifeTimeTo: '2026-01-01' })).statusCode,
        200,
      );
    });

    it('Code stays unique within the ledger; a project may keep its own code', async () => {
      await f.createId({ Code: 'UNIQ-1' });
      const id = await f.createId({ Code: 'UNIQ-2' });
      const res = await put(id, { Code: 'UNIQ-1' });
      assert.equal(res.statusCode, 400);
      assert.match(res.json().Code[0], /'UNIQ-1'/);
      assert.equal((await put(id, { Code: 'UNIQ-2', Name: 'same code' })).statusCode, 200);
    });

    it('CompanyCodeId changes only while the project has no assignments, and only to a ledger in scope', async () => {
      const { A, B } = f;
      const id = await f.createId({ EconomicUnit: [A.economicUnitIds[0]] });
      const refused = await put(id, { CompanyCodeId: B.companyCodeId });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.json().CompanyCodeId[0], new RegExp(`${A.companyCodeId}.*${B.companyCodeId}.*assignments`));
      assert.equal((await put(id, { CompanyCodeId: A.companyCodeId })).statusCode, 200, 'the same ledger is no change');

      const free = await f.createId({ Code: 'MOVE' });
      await f.create({ CompanyCodeId: B.companyCodeId, ProjectLifeTimeFrom: '2025-01-01', Code: 'MOVE' });
      const clash = await put(free, { CompanyCodeId: B.companyCodeId });
      assert.equal(clash.statusCode, 400);
      assert.match(clash.json().Code[0], /'MOVE'/);
      const keyA = await f.t.apiKey([A.companyCodeId]);
      const outside = await f.call('PUT', `/${free}`, {
        body: { CompanyCodeId: B.companyCodeId, Code: 'MOVED' },
        key: keyA,
      });
      assert.equal(outside.statusCode, 400);
      assert.match(outside.json().CompanyCodeId[0], /does not exist/);
      const fresh = await insertCompanyCode(f.t.database.db);
      assert.equal((await put(free, { CompanyCodeId: fresh.id })).statusCode, 200);
      assert.equal((await f.read(free)).CompanyCodeId, fresh.id);
    });

    it('a change that changes nothing answers 200 and records no event', async () => {
      const id = await f.createId({ Name: 'Same' });
      assert.deepEqual((await put(id, {})).json().Name, 'Same');
      assert.equal((await put(id, { Name: 'Same' })).statusCode, 200);
      assert.deepEqual(await events(id), ['created']);
    });

    it('404 for an unknown project, 400 for an id that is not an int32', async () => {
      const missing = await put(2147483647, { Name: 'x' });
      assert.equal(missing.statusCode, 404);
      assert.match(missing.json().id[0], /2147483647/);
      const bad = await put(2147483648, { Name: 'x' });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().id[0], /'2147483648'/);
      assert.equal((await f.call('PUT', '/abc', { body: {} })).statusCode, 400);
      assert.equal((await f.call('DELETE', '/0')).statusCode, 404);
    });

    it('delete removes the project and its assignments, never the entities; answers 200 {Id, Code, Name}', async () => {
      const { A } = f;
      const id = await f.createId({
        Code: 'DEL',
        Name: 'Gone',
        EconomicUnit: [A.economicUnitIds[1]],
        Building: [A.buildingIds[1]],
        Budget: A.budgetIds,
      });
      // A DELETE takes no body: properties are unknown ones, anything but an object a 400 on `$`; nothing deleted.
      const withBody = await f.call('DELETE', `/${id}`, { body: { x: 1, Name: 'y' } });
      assert.equal(withBody.statusCode, 400);
      assert.deepEqual(Object.keys(withBody.json()).sort(), ['Name', 'x']);
      assert.match(withBody.json().x[0], /Unknown property 'x': a DELETE takes no body/);
      assert.deepEqual((await f.call('DELETE', `/${id}`, { body: [1] })).json(), {
        $: ['A DELETE takes no body; send none.'],
      });
      assert.equal((await f.call('GET', `/${id}`)).statusCode, 200, 'still there');
      const res = await f.call('DELETE', `/${id}`, { body: {} });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { Id: id, Code: 'DEL', Name: 'Gone' });
      assert.equal((await f.call('GET', `/${id}`)).statusCode, 404);
      assert.equal((await f.call('DELETE', `/${id}`)).statusCode, 404);
      const db = f.t.database.db;
      assert.equal(
        (await db.selectFrom('project_buildings').select('building_id').where('project_id', '=', id).execute()).length,
        0,
      );
      assert.ok(
        await db.selectFrom('buildings').select('id').where('id', '=', at(A.buildingIds, 1)).executeTakeFirst(),
      );
      assert.deepEqual(await events(id), ['created', 'deleted']);
      // its code is free again
      assert.equal(
        (await f.create({ CompanyCodeId: A.companyCodeId, ProjectLifeTimeFrom: '2025-01-01', Code: 'DEL' })).statusCode,
        201,
      );
    });
  });
}
