// Property-based test: random sequences of create/change/assign/remove/delete against a small in-memory model of
// the rules (decisions.md section 4); after every step the status and the read-back must agree with the model.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DIALECTS } from '../../test/support/db.ts';
import { at, first } from '../../test/support/lists.ts';
import {
  insertBudget,
  insertBuilding,
  insertCompanyCode,
  insertEconomicUnit,
  insertLand,
  insertLoan,
  insertUseUnit,
} from '../dataset/factories.ts';
import type { Executor } from '../db/database.ts';
import { ARRAY_FIELDS, type ArrayField } from './schemas.ts';
import { projectsFixture, type ProjectsFixture } from '../../test/fixtures/projects.ts';

interface Entity {
  id: number;
  eu?: number;
  building?: number | null;
}
/** One ledger's entities per kind; `pool` is their ids, then an id of another ledger, then an unknown id. */
type Universe = Record<ArrayField, { own: Entity[]; pool: number[] }>;

interface ModelProject {
  id: number;
  code: string | null;
  name: string | null;
  from: string;
  to: string | null;
  a: Record<ArrayField, Set<number>>;
}

async function buildUniverse(
  db: Executor,
  foreign: Record<ArrayField, number>,
): Promise<{ ledger: number; u: Universe }> {
  const ledger = (await insertCompanyCode(db)).id;
  const eus = [
    await insertEconomicUnit(db, { company_code_id: ledger }),
    await insertEconomicUnit(db, { company_code_id: ledger }),
  ] as const;
  const buildings = [
    await insertBuilding(db, { economic_unit_id: eus[0].id }),
    await insertBuilding(db, { economic_unit_id: eus[1].id }),
  ] as const;
  const lands = [
    await insertLand(db, { economic_unit_id: eus[0].id }),
    await insertLand(db, { economic_unit_id: eus[1].id }),
  ];
  const useUnits = [
    await insertUseUnit(db, { economic_unit_id: eus[0].id, building_id: buildings[0].id }),
    await insertUseUnit(db, { economic_unit_id: eus[1].id, building_id: buildings[1].id }),
    await insertUseUnit(db, { economic_unit_id: eus[0].id, building_id: null }),
  ];
  const own: Record<ArrayField, Entity[]> = {
    EconomicUnit: eus.map((e) => ({ id: e.id })),
    Building: buildings.map((b) => ({ id: b.id, eu: b.economic_unit_id })),
    Land: lands.map((l) => ({ id: l.id, eu: l.economic_unit_id })),
    UseUnit: useUnits.map((x) => ({ id: x.id, eu: x.economic_unit_id, building: x.building_id })),
    Budget: [{ id: (await insertBudget(db, { company_code_id: ledger })).id }],
    Loan: [{ id: (await insertLoan(db, { company_code_id: ledger })).id }],
  };
  const u = Object.fromEntries(
    ARRAY_FIELDS.map((k) => [k, { own: own[k], pool: [...own[k].map((e) => e.id), foreign[k], 999_999] }]),
  ) as Universe;
  return { ledger, u };
}

/** Would assigning `ids` of `kind` pass, given what is (or in a create body: validly will be) assigned? */
function assignable(u: Universe, kind: ArrayField, ids: number[], assigned: Record<ArrayField, Set<number>>): boolean {
  return ids.every((id) => {
    const e = u[kind].own.find((x) => x.id === id);
    if (!e) return false;
    if (e.eu !== undefined && !assigned.EconomicUnit.has(e.eu)) return false;
    return !(kind === 'UseUnit' && e.building != null && !assigned.Building.has(e.building));
  });
}

function removable(u: Universe, kind: ArrayField, ids: number[], a: Record<ArrayField, Set<number>>): boolean {
  const holds = (k: ArrayField, test: (e: Entity) => boolean) => u[k].own.some((e) => a[k].has(e.id) && test(e));
  return ids.every(
    (id) =>
      a[kind].has(id) &&
      !(
        kind === 'EconomicUnit' && (['Building', 'Land', 'UseUnit'] as const).some((k) => holds(k, (e) => e.eu === id))
      ) &&
      !(kind === 'Building' && holds('UseUnit', (e) => e.building === id)),
  );
}

type Arrays = Partial<Record<ArrayField, number[]>>;

/** Mostly the universe's own entities (index), sometimes one of another ledger (100) or an unknown id (101). */
const pick = fc.oneof({ arbitrary: fc.nat(2), weight: 8 }, { arbitrary: fc.constantFrom(100, 101), weight: 1 });
const picks = fc.oneof(
  { arbitrary: fc.array(pick, { minLength: 1, maxLength: 3 }), weight: 9 },
  { arbitrary: fc.constant<number[]>([]), weight: 1 },
);
/** The kinds with ordering rules come up more often than budgets, loans and land. */
const kind = fc.oneof(
  { arbitrary: fc.constantFrom<ArrayField>('EconomicUnit', 'Building', 'UseUnit'), weight: 3 },
  { arbitrary: fc.constantFrom<ArrayField>('Land', 'Budget', 'Loan'), weight: 1 },
);
const code = fc.constantFrom(null, 'C1', 'C2', 'C3');
const day = fc.constantFrom('2025-01-01', '2025-06-01', '2025-12-31');
/** A project reference: mostly a live one of this run (counting from the newest), sometimes a deleted or unknown one. */
const project = fc.oneof({ arbitrary: fc.nat(3), weight: 9 }, { arbitrary: fc.constant(-1), weight: 1 });
const createOp = fc.record({
  t: fc.constant('create' as const),
  code,
  from: day,
  to: fc.option(day, { freq: 2 }),
  arrays: fc.oneof(
    { arbitrary: fc.constant<Arrays>({}), weight: 2 },
    { arbitrary: fc.dictionary(kind, picks, { maxKeys: 3 }), weight: 1 },
  ),
});
const op = fc.oneof(
  { arbitrary: createOp, weight: 2 },
  {
    arbitrary: fc.record({
      t: fc.constant('change' as const),
      p: project,
      change: fc.record(
        {
          Code: code,
          Name: fc.option(fc.constantFrom('N1', 'N2')),
          ProjectLifeTimeFrom: day,
          ProjectLifeTimeTo: fc.option(day),
        },
        { requiredKeys: [] },
      ),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ t: fc.constant('assign' as const), p: project, kind, ids: picks }), weight: 4 },
  { arbitrary: fc.record({ t: fc.constant('remove' as const), p: project, kind, ids: picks }), weight: 3 },
  { arbitrary: fc.record({ t: fc.constant('delete' as const), p: project }), weight: 1 },
);
/** Every sequence starts with a create that succeeds, so the steps after it have a project to work on. */
const firstCreate = fc.record({
  t: fc.constant('create' as const),
  code,
  from: day,
  to: fc.constant(null),
  arrays: fc.constantFrom<Arrays>(
    {},
    { EconomicUnit: [0] },
    { EconomicUnit: [0, 1] },
    { EconomicUnit: [1], Land: [1] },
    { EconomicUnit: [0], Building: [0] },
    { EconomicUnit: [0], Building: [0], UseUnit: [0, 2] },
    { EconomicUnit: [0, 1], Building: [0, 1], Land: [0], UseUnit: [0, 1], Budget: [0], Loan: [0] },
  ),
});
const sequence = fc
  .tuple(firstCreate, fc.array(op, { minLength: 4, maxLength: 16 }))
  .map(([first, rest]) => [first, ...rest]);

for (const dialect of DIALECTS) {
  describe(`AccountancyProjectEdit model-based sequences [${dialect}]`, () => {
    let f: ProjectsFixture;
    before(async () => {
      f = await projectsFixture(dialect);
    });
    after(() => f.close());

    it('status codes and read-back agree with the model after every step', async () => {
      const { B } = f;
      const foreign = {
        EconomicUnit: first(B.economicUnitIds),
        Building: first(B.buildingIds),
        Land: first(B.landIds),
        UseUnit: first(B.useUnitIds),
        Budget: first(B.budgetIds),
        Loan: first(B.loanIds),
      };
      await fc.assert(
        fc.asyncProperty(sequence, async (ops) => {
          const { ledger, u } = await buildUniverse(f.t.database.db, foreign);
          const runKey = await f.t.apiKey([ledger]);
          const ids = (kind: ArrayField, ps: number[]) =>
            ps.map((p) =>
              p >= 100 ? at(u[kind].pool, u[kind].own.length + p - 100) : at(u[kind].own, p % u[kind].own.length).id,
            );
          const live = new Map<number, ModelProject>();
          const seen: number[] = [];
          const target = (p: number) => {
            const ids = [...live.keys()];
            if (p >= 0 && ids.length > 0) return at(ids, ids.length - 1 - (p % ids.length));
            return seen.find((id) => !live.has(id)) ?? 2_000_000_000; // a deleted project, or one never created
          };
          const codeTaken = (c: string | null, except?: number) =>
            c !== null && [...live.values()].some((x) => x.code === c && x.id !== except);

          for (const o of ops) {
            let expected: number;
            let res;
            if (o.t === 'create') {
              const body: Record<string, unknown> = {
                CompanyCodeId: ledger,
                ProjectLifeTimeFrom: o.from,
                Code: o.code,
                ProjectLifeTimeTo: o.to,
              };
              const planned = Object.fromEntries(ARRAY_FIELDS.map((k) => [k, new Set<number>()])) as Record<
                ArrayField,
                Set<number>
              >;
              let ok = !codeTaken(o.code) && !(o.to !== null && o.to < o.from);
              for (const k of ARRAY_FIELDS) {
                if (!o.arrays[k]) continue;
                body[k] = ids(k, o.arrays[k]);
                const valid = (body[k] as number[]).filter((id) => assignable(u, k, [id], planned));
                ok &&= valid.length === (body[k] as number[]).length;
                for (const id of valid) planned[k].add(id);
              }
              res = await f.create(body);
              expected = ok ? 201 : 400;
              if (res.statusCode === 201) {
                seen.push(res.json().Id);
                live.set(res.json().Id, {
                  id: res.json().Id,
                  code: o.code,
                  name: null,
                  from: o.from,
                  to: o.to,
                  a: planned,
                });
              }
            } else {
              const id = target(o.p);
              const m = live.get(id);
              if (o.t === 'delete') {
                res = await f.call('DELETE', `/${id}`);
                expected = m ? 200 : 404;
                if (m) live.delete(id);
              } else if (o.t === 'change') {
                res = await f.call('PUT', `/${id}`, { body: o.change });
                const c = o.change;
                const next = m && {
                  ...m,
                  code: 'Code' in c ? c.Code! : m.code,
                  name: 'Name' in c ? c.Name! : m.name,
                  from: c.ProjectLifeTimeFrom ?? m.from,
                  to: 'ProjectLifeTimeTo' in c ? c.ProjectLifeTimeTo! : m.to,
                };
                expected = !next
                  ? 404
                  : codeTaken(next.code, id) || (next.to !== null && next.to < next.from)
                    ? 400
                    : 200;
                if (next && expected === 200) live.set(id, next);
              } else {
                const list = ids(o.kind, o.ids);
                const operation = `${o.t === 'assign' ? 'Assign' : 'Remove'}${o.kind}`;
                res = await f.call('POST', `/${id}/${operation}`, { body: list });
                const ok = m && (o.t === 'assign' ? assignable(u, o.kind, list, m.a) : removable(u, o.kind, list, m.a));
                expected = !m ? 404 : !ok ? 400 : o.t === 'assign' ? 201 : 200;
                if (m && ok) for (const x of list) m.a[o.kind][o.t === 'assign' ? 'add' : 'delete'](x);
              }
            }
            assert.equal(res.statusCode, expected, `${JSON.stringify(o)} -> ${res.body}`);

            // The read-back of every project of this run's ledger, in one page: exactly the live ones, as modelled.
            const list = await f.call('GET', '', { key: runKey, query: 'limit=100&showNullValues=true' });
            const actual = list.json<Array<Record<string, unknown>>>().map((r) => ({
              Id: r.Id,
              Code: r.Code,
              Name: r.Name,
              From: r.ProjectLifeTimeFrom,
              To: r.ProjectLifeTimeTo,
              ...Object.fromEntries(ARRAY_FIELDS.map((k) => [k, r[k]])),
            }));
            const modelled = [...live.values()]
              .sort((x, y) => x.id - y.id)
              .map((m) => ({
                Id: m.id,
                Code: m.code,
                Name: m.name,
                From: m.from,
                To: m.to,
                ...Object.fromEntries(ARRAY_FIELDS.map((k) => [k, [...m.a[k]].sort((x, y) => x - y)])),
              }));
            assert.deepEqual(actual, modelled, `read-back after ${JSON.stringify(o)}`);
          }
        }),
        { numRuns: 30 },
      );
    });
  });
}
