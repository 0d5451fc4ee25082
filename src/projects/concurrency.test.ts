import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { take } from '../../test/support/lists.ts';
import { insertBudget, insertBuilding, insertEconomicUnit, insertLoan } from '../dataset/factories.ts';
import { projectsFixture, type ProjectsFixture } from '../../test/fixtures/projects.ts';

for (const dialect of DIALECTS) {
  describe(`AccountancyProjectEdit concurrent writes on one project [${dialect}]`, () => {
    let f: ProjectsFixture;
    before(async () => {
      f = await projectsFixture(dialect);
    });
    after(() => f.close());

    const many = async <T>(n: number, make: () => Promise<T>) => {
      const out: T[] = [];
      for (let i = 0; i < n; i++) out.push(await make());
      return out;
    };

    it('50 parallel assign/remove requests end in the state a sequential order gives: nothing lost, nothing doubled', async () => {
      const db = f.t.database.db;
      const ledger = f.A.companyCodeId;
      const budgets = (await many(10, () => insertBudget(db, { company_code_id: ledger }))).map((b) => b.id);
      const loans = (await many(10, () => insertLoan(db, { company_code_id: ledger }))).map((l) => l.id);
      const pairs = await many(10, async () => {
        const eu = await insertEconomicUnit(db, { company_code_id: ledger });
        return { eu: eu.id, building: (await insertBuilding(db, { economic_unit_id: eu.id })).id };
      });
      const id = await f.createId({ Loan: loans, EconomicUnit: pairs.map((p) => p.eu) });
      const eventsBefore = (await db.selectFrom('outbox_events').select('id').where('entity_id', '=', id).execute())
        .length;

      // 20 assigns of 10 budgets (each twice), 10 removes of the loans, and 10 races between removing an economic
      // unit and assigning its building: in any sequential order exactly one of each race succeeds.
      const op = (operation: string, ids: number[]) => f.call('POST', `/${id}/${operation}`, { body: ids });
      const requests = [
        ...budgets.flatMap((b) => [() => op('AssignBudget', [b]), () => op('AssignBudget', [b])]),
        ...loans.map((l) => () => op('RemoveLoan', [l])),
        ...pairs.flatMap((p) => [() => op('RemoveEconomicUnit', [p.eu]), () => op('AssignBuilding', [p.building])]),
      ];
      assert.equal(requests.length, 50);
      const responses = await Promise.all(requests.map((r) => r()));

      assert.deepEqual(
        responses.slice(0, 20).map((r) => r.statusCode),
        Array(20).fill(201),
      );
      assert.deepEqual(
        responses.slice(20, 30).map((r) => r.statusCode),
        Array(10).fill(200),
      );
      const read = await f.read(id);
      assert.deepEqual(read.Budget, budgets);
      assert.deepEqual(read.Loan, []);
      const assignedEus = new Set(read.EconomicUnit as number[]);
      const assignedBuildings = new Set(read.Building as number[]);
      pairs.forEach((p, i) => {
        const [remove, assign] = take(responses.slice(30 + 2 * i, 32 + 2 * i), 2);
        if (remove.statusCode === 200) {
          assert.equal(assign.statusCode, 400, 'building assigned after its economic unit was removed');
          assert.ok(!assignedEus.has(p.eu) && !assignedBuildings.has(p.building));
        } else {
          assert.deepEqual([remove.statusCode, assign.statusCode], [400, 201]);
          assert.ok(assignedEus.has(p.eu) && assignedBuildings.has(p.building));
        }
      });
      for (const table of ['project_budgets', 'project_buildings', 'project_economic_units'] as const) {
        const rows = await db.selectFrom(table).selectAll().where('project_id', '=', id).execute();
        assert.equal(new Set(rows.map((r) => JSON.stringify(r))).size, rows.length);
      }
      // one 'updated' event per request that changed something: 10 budgets, 10 loans, 10 races
      const events = await db
        .selectFrom('outbox_events')
        .select('action')
        .where('entity_id', '=', id)
        .where('entity_type', '=', 'Project')
        .execute();
      assert.equal(events.length - eventsBefore, 30);
    });

    it('parallel creates with one Code: exactly one wins, the others get 400 on Code', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          f.create({
            CompanyCodeId: f.A.companyCodeId,
            ProjectLifeTimeFrom: '2025-01-01',
            Code: 'RACE',
            EconomicUnit: [f.A.economicUnitIds[0]],
          }),
        ),
      );
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 400, 400, 400, 400, 400, 400, 400]);
      for (const r of results.filter((x) => x.statusCode === 400)) assert.match(r.json().Code[0], /'RACE'/);
      const rows = await f.t.database.db.selectFrom('projects').select('id').where('code', '=', 'RACE').execute();
      assert.equal(rows.length, 1);
    });
  });
}
