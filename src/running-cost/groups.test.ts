// Filters, paging and parameter checks that AllocationGroups and AllocationGroupBases share, on both engines.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import type { WireRecord as Rec } from '../../test/support/wire.ts';
import { at, take } from '../../test/support/lists.ts';
import { allPages, runningCostFixture, type Fixture } from '../../test/fixtures/running-cost.ts';

interface Endpoint {
  path: string;
  /** The fixture's record ids of this endpoint. */
  ids(f: Fixture): { x: number; y: number; z: number };
  /** Filter parameter -> the wire value it compares with. */
  filters: Record<string, (r: Rec) => unknown>;
}

const COMMON_FILTERS: Record<string, (r: Rec) => unknown> = {
  ownerId: (r) => r.Owner.Id,
  companyCodeId: (r) => r.CompanyCode.Id,
  distributionPeriodId: (r) => r.DistributionPeriod.Id,
  prepaymentBlockId: (r) => r.PrepaymentBlock?.Id,
};

const ENDPOINTS: Endpoint[] = [
  {
    path: 'AllocationGroups',
    ids: (f) => f.groups,
    filters: {
      allocationGroupId: (r) => r.Id,
      allocationGroupCode: (r) => r.Code,
      ...COMMON_FILTERS,
      distributionTypeId: (r) => r.DistributionTypeSlim?.Id,
    },
  },
  {
    path: 'AllocationGroupBases',
    ids: (f) => f.bases,
    filters: { allocationGroupBaseId: (r) => r.Id, allocationGroupBaseCode: (r) => r.Code, ...COMMON_FILTERS },
  },
];

for (const dialect of DIALECTS) {
  describe(`running-cost group filters and paging [${dialect}]`, () => {
    let f: Fixture;
    before(async () => {
      f = await runningCostFixture(dialect);
    });
    after(() => f.t.close());

    for (const ep of ENDPOINTS) {
      const list = async (query: string): Promise<Rec[]> => {
        const res = await f.get(ep.path, query);
        assert.equal(res.statusCode, 200, res.body);
        return res.json();
      };
      const full = () => list('limit=100');
      const byId = (records: Rec[], id: number) => records.find((r) => r.Id === id) as Rec;

      it(`${ep.path}: returns every record of every ledger, ordered by Id, 20 by default`, async () => {
        const all = await full();
        assert.equal(all.length, 3 * 2 + 3);
        assert.deepEqual(
          all.map((r) => r.Id),
          all.map((r) => r.Id).sort((a, b) => a - b),
        );
        const first = await list('');
        assert.deepEqual(first, all.slice(0, 20));
      });

      it(`${ep.path}: concatenated pages equal the full list`, async () => {
        const all = await full();
        for (const limit of [1, 2, 4, 9]) assert.deepEqual(await allPages(f, ep.path, limit), all, `limit ${limit}`);
        assert.deepEqual(await list('limit=3&offset=100'), []);
        const filtered = await list('limit=100&distributionPeriodId=' + f.world.distributionPeriodIds[1]);
        assert.deepEqual(
          await allPages(f, ep.path, 2, `distributionPeriodId=${f.world.distributionPeriodIds[1]}`),
          filtered,
        );
      });

      for (const [param, valueOf] of Object.entries(ep.filters)) {
        it(`${ep.path}: filter ${param} alone`, async () => {
          const all = await full();
          const value = valueOf(byId(all, ep.ids(f).x));
          const expected = all.filter((r) => valueOf(r) === value);
          assert.ok(expected.length > 0 && expected.length < all.length, 'the filter narrows the list');
          assert.deepEqual(await list(`limit=100&${param}=${encodeURIComponent(String(value))}`), expected);
        });
      }

      it(`${ep.path}: filters combine with AND`, async () => {
        const all = await full();
        const [l0, l1] = take(f.world.ledgers, 2);
        const period = at(f.world.distributionPeriodIds, 1);
        const both = all.filter((r) => r.CompanyCode.Id === l0.companyCodeId && r.DistributionPeriod.Id === period);
        const expected = all.filter((r) => r.CompanyCode.Id === l0.companyCodeId).length;
        assert.ok(both.length > 0 && both.length < expected);
        assert.deepEqual(
          await list(`limit=100&companyCodeId=${l0.companyCodeId}&distributionPeriodId=${period}`),
          both,
        );
        const x = byId(all, ep.ids(f).x);
        assert.deepEqual(
          await list(`ownerId=${x.Owner.Id}&prepaymentBlockId=${x.PrepaymentBlock.Id}&searchPattern=m%C3%BCller`),
          [x],
        );
        // contradicting filters
        assert.deepEqual(await list(`companyCodeId=${l1.companyCodeId}&ownerId=${l0.ownerId}`), []);
      });

      it(`${ep.path}: a filter naming an id that does not exist returns []`, async () => {
        for (const param of Object.keys(ep.filters)) {
          const value = param.endsWith('Code') ? 'NO-SUCH-CODE' : '2147483647';
          assert.deepEqual(await list(`${param}=${value}`), [], param);
        }
        assert.deepEqual(await list('companyCodeId=-5'), []);
      });

      it(`${ep.path}: empty code and searchPattern mean no filter`, async () => {
        const codeParam = Object.keys(ep.filters)[1];
        assert.equal((await list(`limit=100&searchPattern=&${codeParam}=`)).length, (await full()).length);
      });

      it(`${ep.path}: a code of any length is found by its code filter`, async () => {
        const codeParam = Object.keys(ep.filters)[1]!;
        const table = ep.path === 'AllocationGroups' ? 'allocation_groups' : 'allocation_group_bases';
        const id = ep.ids(f).y;
        const code = `L${'o'.repeat(150)}ng`;
        await f.t.database.db.updateTable(table).set({ code }).where('id', '=', id).execute();
        try {
          const found = await list(`limit=100&${codeParam}=${code}`);
          assert.deepEqual(
            found.map((r) => [r.Id, r.Code]),
            [[id, code]],
          );
        } finally {
          await f.t.database.db.updateTable(table).set({ code: null }).where('id', '=', id).execute();
        }
      });

      it(`${ep.path}: searchPattern is a case-insensitive substring of SearchPattern, Code or Location`, async () => {
        const { x, y, z } = ep.ids(f);
        const ids = async (pattern: string) =>
          (await list(`limit=100&searchPattern=${encodeURIComponent(pattern)}`)).map((r) => r.Id);
        for (const pattern of ['müller', 'MÜLLER', 'üLL', 'hinterhaus', 'Hinter', '_50%', '50%'])
          assert.deepEqual(await ids(pattern), [x], pattern);
        // % and _ are literal characters, not wildcards
        assert.deepEqual(await ids('%'), [x]);
        assert.deepEqual(await ids('_'), [x, z]);
        assert.deepEqual(await ids('M%r'), []);
        assert.deepEqual(await ids('Mü_ler'), []);
        // the escape character itself, and characters without case
        assert.deepEqual(await ids('\\'), [z]);
        assert.deepEqual(await ids('A\\B'), [z]);
        assert.deepEqual(await ids('STRASSE'), []);
        assert.deepEqual(await ids('STRAßE'), [z]);
        // Code: 'X-1' / 'BX-1' and 'Z_1'
        assert.deepEqual(await ids('x-1'), [x]);
        assert.deepEqual(await ids('z_1'), [z]);
        assert.deepEqual(await ids('no such text'), []);
        // a record whose three fields are all null is never matched, but not in the way either
        assert.ok(!(await ids('a')).includes(y));
      });

      const bad: [string, string][] = [
        ['limit', '0'],
        ['limit', '101'],
        ['limit', 'ten'],
        ['offset', '-1'],
        ['offset', '1.5'],
        ['showNullValues', 'yes'],
        ['includeUseUnits', '1'],
        ['includeCostTypes', 'on'],
        ['includeExplanations', 'TRUE!'],
        ['includeOptionTaxes', 'x'],
        ['searchPattern', 'a'.repeat(101)],
      ];
      // (a code filter takes any text: codes of any length can be stored)
      for (const param of Object.keys(ep.filters))
        if (!param.endsWith('Code')) bad.push([param, 'abc'], [param, '2147483648'], [param, '1.5']);
      it(`${ep.path}: 400 with the parameter as key for every bad value`, async () => {
        for (const [param, value] of bad) {
          const res = await f.get(ep.path, `${param}=${encodeURIComponent(value)}`);
          assert.equal(res.statusCode, 400, `${param}=${value}`);
          const body = res.json();
          assert.deepEqual(Object.keys(body), [param]);
          assert.ok(body[param][0].includes(value.slice(0, 20)), `message names the value: ${body[param][0]}`);
        }
      });
    }
  });
}
