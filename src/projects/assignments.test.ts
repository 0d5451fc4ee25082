import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { take } from '../../test/support/lists.ts';
import { projectsFixture, type ProjectsFixture } from '../../test/fixtures/projects.ts';

for (const dialect of DIALECTS) {
  describe(`AccountancyProjectEdit assign and remove [${dialect}]`, () => {
    let f: ProjectsFixture;
    before(async () => {
      f = await projectsFixture(dialect);
    });
    after(() => f.close());

    const op = (id: number, operation: string, body?: unknown) =>
      f.call('POST', `/${id}/${operation}`, body === undefined ? {} : { body });
    const updates = async (id: number) =>
      (
        await f.t.database.db
          .selectFrom('outbox_events')
          .select('id')
          .where('entity_id', '=', id)
          .where('action', '=', 'updated')
          .execute()
      ).length;

    it('assigns in order: economic unit, then building and land, then use units, budgets and loans (201 {Id, Code, Name})', async () => {
      const { A } = f;
      const id = await f.createId({ Code: 'AS-1', Name: 'Assign' });
      for (const [operation, ids] of [
        ['AssignEconomicUnit', [A.economicUnitIds[0]]],
        ['AssignBuilding', [A.buildingIds[0]]],
        ['AssignLand', [A.landIds[0]]],
        ['AssignUseUnit', A.useUnitIds.slice(0, 2)],
        ['AssignBudget', A.budgetIds],
        ['AssignLoan', A.loanIds],
      ] as const) {
        const res = await op(id, operation, ids);
        assert.equal(res.statusCode, 201, `${operation}: ${res.body}`);
        assert.deepEqual(res.json(), { Id: id, Code: 'AS-1', Name: 'Assign' });
      }
      const read = await f.read(id);
      assert.deepEqual(
        [read.EconomicUnit, read.Building, read.Land, read.UseUnit, read.Budget, read.Loan],
        [[A.economicUnitIds[0]], [A.buildingIds[0]], [A.landIds[0]], A.useUnitIds.slice(0, 2), A.budgetIds, A.loanIds],
      );
      assert.equal(await updates(id), 6);
    });

    it('refuses a building, land or use unit whose prerequisites are missing, naming them', async () => {
      const { A } = f;
      const id = await f.createId();
      for (const [operation, entity, key, parent] of [
        ['AssignBuilding', A.buildingIds[0], 'Building', `economic unit ${A.economicUnitIds[0]}`],
        ['AssignLand', A.landIds[0], 'Land', `economic unit ${A.economicUnitIds[0]}`],
        ['AssignUseUnit', A.useUnitIds[0], 'UseUnit', `economic unit ${A.economicUnitIds[0]}`],
      ] as const) {
        const res = await op(id, operation, [entity]);
        assert.equal(res.statusCode, 400);
        assert.deepEqual(Object.keys(res.json()), [key]);
        assert.ok(
          res.json()[key].some((m: string) => m.includes(String(entity)) && m.includes(parent)),
          res.body,
        );
      }
      assert.equal((await op(id, 'AssignEconomicUnit', [A.economicUnitIds[0]])).statusCode, 201);
      const useUnit = await op(id, 'AssignUseUnit', [A.useUnitIds[0]]);
      assert.equal(useUnit.statusCode, 400);
      assert.deepEqual(useUnit.json().UseUnit, [
        `The use unit ${A.useUnitIds[0]} needs its building ${A.buildingIds[0]} assigned to the project first.`,
      ]);
      assert.deepEqual((await f.read(id)).UseUnit, []);
    });

    it('re-assigning an assigned id succeeds without a second row or event', async () => {
      const { A } = f;
      const id = await f.createId({ EconomicUnit: [A.economicUnitIds[0]] });
      const before = await updates(id);
      const res = await op(id, 'AssignEconomicUnit', [A.economicUnitIds[0], A.economicUnitIds[0]]);
      assert.equal(res.statusCode, 201);
      const rows = await f.t.database.db
        .selectFrom('project_economic_units')
        .selectAll()
        .where('project_id', '=', id)
        .execute();
      assert.equal(rows.length, 1);
      assert.equal(await updates(id), before);
    });

    it('unknown ids and ids of another ledger are refused alike; one bad id and nothing is stored', async () => {
      const { A, B } = f;
      const id = await f.createId();
      for (const [operation, key, foreign] of [
        ['AssignEconomicUnit', 'EconomicUnit', B.economicUnitIds[0]],
        ['AssignBudget', 'Budget', B.budgetIds[0]],
        ['AssignLoan', 'Loan', B.loanIds[0]],
      ] as const) {
        const good =
          operation === 'AssignEconomicUnit'
            ? A.economicUnitIds[0]
            : operation === 'AssignBudget'
              ? A.budgetIds[0]
              : A.loanIds[0];
        const res = await op(id, operation, [good, foreign, 777777]);
        assert.equal(res.statusCode, 400);
        // each offending id under its place in the body (decisions §3: `Building[2]`)
        assert.deepEqual(Object.keys(res.json()).sort(), [`${key}[1]`, `${key}[2]`], res.body);
        const errors = res.json<Record<string, string[]>>();
        const [foreignMessage] = take(errors[`${key}[1]`] ?? [], 1);
        const [unknownMessage] = take(errors[`${key}[2]`] ?? [], 1);
        assert.equal(foreignMessage.replace(String(foreign), 'N'), unknownMessage.replace('777777', 'N'));
      }
      const read = await f.read(id);
      assert.deepEqual([read.EconomicUnit, read.Budget, read.Loan], [[], [], []]);
      const buildingB = await op(id, 'AssignBuilding', [B.buildingIds[0]]);
      assert.equal(buildingB.statusCode, 400);
      assert.match(buildingB.json()['Building[0]'][0], /does not exist/);
    });

    it('an omitted, null or empty body is a no-op success; bad bodies are 400 keyed by the array', async () => {
      const id = await f.createId();
      for (const body of [undefined, null, []]) assert.equal((await op(id, 'AssignLoan', body)).statusCode, 201);
      assert.equal((await op(id, 'RemoveLoan')).statusCode, 200);
      assert.equal(
        (await f.call('POST', `/${id}/AssignLoan`, { payload: '', contentType: 'application/json' })).statusCode,
        201,
      );
      const cases: Array<[unknown, string, string]> = [
        [{ Loan: [1] }, 'Loan', 'expected an array'],
        [['1'], 'Loan[0]', "'1'"],
        [[1, 2147483648], 'Loan[1]', "'2147483648'"],
        [[-2147483649], 'Loan[0]', "'-2147483649'"],
        [[1.5], 'Loan[0]', "'1.5'"],
        ['5', 'Loan', "'5'"],
      ];
      for (const [body, key, text] of cases) {
        const res = await op(id, 'AssignLoan', body);
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.ok(res.json()[key]?.[0].includes(text), res.body);
      }
      const malformed = await f.call('POST', `/${id}/AssignLoan`, { payload: '[1,' });
      assert.equal(malformed.statusCode, 400);
      assert.ok(malformed.json().$);
      assert.equal(await updates(id), 0);
    });

    it('removal mirrors assignment: dependents first; not assigned is 400', async () => {
      const { A } = f;
      const [eu, building, land] = [A.economicUnitIds[1], A.buildingIds[1], A.landIds[1]];
      const useUnits = A.useUnitIds.slice(2, 4);
      const id = await f.createId({
        EconomicUnit: [eu],
        Building: [building],
        Land: [land],
        UseUnit: useUnits,
        Budget: A.budgetIds,
      });

      const euBlocked = await op(id, 'RemoveEconomicUnit', [eu]);
      assert.equal(euBlocked.statusCode, 400);
      const text = euBlocked.json().EconomicUnit.join(' ');
      assert.match(text, new RegExp(`building ${building}`));
      assert.match(text, new RegExp(`land parcel ${land}`));
      assert.match(text, new RegExp(`use units ${useUnits.join(', ')}`));
      const buildingBlocked = await op(id, 'RemoveBuilding', [building]);
      assert.equal(buildingBlocked.statusCode, 400);
      assert.match(buildingBlocked.json().Building[0], new RegExp(`${building}.*use units ${useUnits.join(', ')}`));

      const notAssigned = await op(id, 'RemoveLand', [A.landIds[0], 999999]);
      assert.equal(notAssigned.statusCode, 400);
      assert.deepEqual(Object.keys(notAssigned.json()).sort(), ['Land[0]', 'Land[1]'], 'each id by its place');
      assert.deepEqual((await f.read(id)).Land, [land]);

      for (const [operation, ids] of [
        ['RemoveUseUnit', useUnits],
        ['RemoveBuilding', [building]],
        ['RemoveLand', [land]],
        ['RemoveEconomicUnit', [eu]],
        ['RemoveBudget', A.budgetIds],
      ] as const) {
        const res = await op(id, operation, ids);
        assert.equal(res.statusCode, 200, `${operation}: ${res.body}`);
        assert.equal(res.json().Id, id);
      }
      const read = await f.read(id);
      assert.deepEqual([read.EconomicUnit, read.Building, read.Land, read.UseUnit, read.Budget], [[], [], [], [], []]);
      assert.equal((await op(id, 'RemoveBudget', A.budgetIds)).statusCode, 400);
    });

    it("404 for an unknown project or one outside the key's ledgers; 400 for a projectId that is not an int32", async () => {
      const id = await f.createId();
      const keyB = await f.t.apiKey([f.B.companyCodeId]);
      for (const operation of ['AssignEconomicUnit', 'RemoveLoan']) {
        const outside = await f.call('POST', `/${id}/${operation}`, { body: [], key: keyB });
        assert.equal(outside.statusCode, 404);
        assert.match(outside.json().projectId[0], new RegExp(`${id}`));
        assert.equal((await op(999999, operation, [])).statusCode, 404);
        assert.equal((await op(-1, operation, [])).statusCode, 404);
        assert.equal((await f.call('POST', `/x1/${operation}`, { body: [] })).statusCode, 400);
      }
    });
  });
}
