// The commands on their own, without HTTP: typed input in, stored row (or ApiError) out, one transaction each.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, freshDatabase, type TestDatabase } from '../../test/support/db.ts';
import { first } from '../../test/support/lists.ts';
import { buildWorld, type WorldLedger } from '../dataset/factories.ts';
import { ALL_LEDGERS } from '../auth/ledger-scope.ts';
import { ApiError } from '../http/errors.ts';
import { changeProject, createProject, deleteProject, type WriteContext } from './commands.ts';
import { assignmentCommandOf } from './assignment-commands.ts';

const assignBuildings = assignmentCommandOf('AssignBuilding');
const assignEconomicUnits = assignmentCommandOf('AssignEconomicUnit');
const removeEconomicUnits = assignmentCommandOf('RemoveEconomicUnit');

for (const dialect of DIALECTS) {
  describe(`project commands without HTTP [${dialect}]`, () => {
    let database: TestDatabase;
    let A: WorldLedger;
    const ctx: WriteContext = { scope: ALL_LEDGERS, userId: null, now: new Date('2026-02-03T04:05:06.789Z') };
    before(async () => {
      database = await freshDatabase(dialect);
      A = first((await buildWorld(database.db, { ledgers: 1 })).ledgers);
    });
    after(() => database.drop());

    const rejects = async (run: () => Promise<unknown>, status: number) => {
      try {
        await run();
      } catch (err) {
        assert.ok(err instanceof ApiError);
        assert.equal(err.status, status);
        return err.errors;
      }
      assert.fail('expected an ApiError');
    };

    it('create, change, assign, remove and delete, each with its outbox event and timestamps', async () => {
      const db = database.db;
      const row = await createProject(db, {
        ...ctx,
        body: {
          CompanyCodeId: A.companyCodeId,
          ProjectLifeTimeFrom: '2025-01-01',
          Code: 'CMD',
          EconomicUnit: [A.economicUnitIds[0]],
        },
      });
      assert.equal(row.created_at, '2026-02-03T04:05:06Z');
      const changed = await changeProject(db, { ...ctx, id: row.id, body: { Name: 'Named' } });
      assert.equal(changed.name, 'Named');
      await assignBuildings(db, { ...ctx, projectId: row.id, ids: [A.buildingIds[0]] });
      const blocked = await rejects(
        () => removeEconomicUnits(db, { ...ctx, projectId: row.id, ids: [A.economicUnitIds[0]] }),
        400,
      );
      assert.ok(blocked.EconomicUnit, JSON.stringify(blocked));
      assert.match(first(blocked.EconomicUnit), new RegExp(`building ${A.buildingIds[0]}`));
      await deleteProject(db, { ...ctx, id: row.id });
      const events = await db
        .selectFrom('outbox_events')
        .select(['action', 'entity_type', 'created_at'])
        .where('entity_id', '=', row.id)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        events.map((e) => e.action),
        ['created', 'updated', 'updated', 'deleted'],
      );
      assert.ok(events.every((e) => e.entity_type === 'Project'));
    });

    it('a failing command leaves nothing behind and reports every error', async () => {
      const db = database.db;
      const count = async () => (await db.selectFrom('projects').select('id').execute()).length;
      const before = await count();
      const errors = await rejects(
        () =>
          createProject(db, {
            ...ctx,
            body: {
              CompanyCodeId: A.companyCodeId,
              ProjectLifeTimeFrom: '2025-01-01',
              ProjectLifeTimeTo: '2024-01-01',
              Building: [A.buildingIds[0]],
              Loan: [1],
            },
          }),
        400,
      );
      assert.deepEqual(Object.keys(errors).sort(), ['Building', 'Loan[0]', 'ProjectLifeTimeTo']);
      assert.equal(await count(), before);
      await rejects(() => assignEconomicUnits(db, { ...ctx, projectId: 123456, ids: [] }), 404);
      const scoped = await rejects(
        () =>
          createProject(db, {
            ...ctx,
            scope: { all: false, ids: [] },
            body: { CompanyCodeId: A.companyCodeId, ProjectLifeTimeFrom: '2025-01-01' },
          }),
        400,
      );
      assert.ok(scoped.CompanyCodeId);
    });
  });
}
