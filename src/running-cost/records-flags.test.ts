// What the group endpoints answer for the include flags and for null fields (field names and types: records.test.ts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import type { WireRecord as Rec } from '../../test/support/wire.ts';
import { at, first, only } from '../../test/support/lists.ts';
import { runningCostFixture, type Fixture } from '../../test/fixtures/running-cost.ts';
import {
  ALL_INCLUDES,
  ALLOCATION_GROUP,
  ALLOCATION_GROUP_BASE,
  BASE_GROUP,
  COMBINED,
  INCLUDES,
  keys,
} from '../../test/fixtures/running-cost-wire.ts';

for (const dialect of DIALECTS) {
  describe(`running-cost records: include flags and nulls [${dialect}]`, () => {
    let f: Fixture;
    before(async () => {
      f = await runningCostFixture(dialect);
    });
    after(() => f.t.close());
    const list = async (path: string, query: string): Promise<Rec[]> => {
      const res = await f.get(path, query);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const one = async (path: string, idParam: string, id: number, query = '') => {
      return only(await list(path, `${idParam}=${id}${query ? `&${query}` : ''}`));
    };

    for (const [path, idParam, ids] of [
      ['AllocationGroups', 'allocationGroupId', (x: Fixture) => x.groups],
      ['AllocationGroupBases', 'allocationGroupBaseId', (x: Fixture) => x.bases],
    ] as const) {
      const arraysOf = (r: Rec) =>
        path === 'AllocationGroups'
          ? {
              UseUnits: r.UseUnits,
              AllocationGroupCostTypes: r.AllocationGroupCostTypes,
              Explanations: r.Explanations,
              OptionTaxes: r.OptionTaxes,
            }
          : {
              UseUnits: r.AllocationGroup.UseUnits,
              AllocationGroupCostTypes: r.AllocationGroupCostTypes,
              Explanations: r.AllocationGroup.Explanations,
              CombinedExplanations: r.CombinedAllocationGroup.Explanations,
              OptionTaxes: r.OptionTaxes,
            };
      const FLAG_OF: Record<string, string> = {
        UseUnits: 'includeUseUnits',
        AllocationGroupCostTypes: 'includeCostTypes',
        Explanations: 'includeExplanations',
        CombinedExplanations: 'includeExplanations',
        OptionTaxes: 'includeOptionTaxes',
      };

      it(`${path}: include flags default to false; each fills only its own array(s)`, async () => {
        const l2 = at(f.world.ledgers, 2);
        const id = first(path === 'AllocationGroups' ? l2.allocationGroupIds : l2.allocationGroupBaseIds);
        const full = arraysOf(await one(path, idParam, id, ALL_INCLUDES));
        for (const v of Object.values(full)) assert.ok(Array.isArray(v) && v.length > 0);
        assert.deepEqual(
          arraysOf(await one(path, idParam, id)),
          Object.fromEntries(Object.keys(full).map((k) => [k, undefined])),
        );
        assert.deepEqual(
          arraysOf(await one(path, idParam, id, INCLUDES.map((p) => `${p}=false`).join('&'))),
          arraysOf(await one(path, idParam, id)),
        );
        assert.deepEqual(
          arraysOf(await one(path, idParam, id, 'showNullValues=true')),
          Object.fromEntries(Object.keys(full).map((k) => [k, null])),
        );
        const fullShown = arraysOf(await one(path, idParam, id, `${ALL_INCLUDES}&showNullValues=true`));
        for (const flag of INCLUDES) {
          const got = arraysOf(await one(path, idParam, id, `${flag}=true&showNullValues=true`));
          for (const [k, v] of Object.entries(got))
            assert.deepEqual(v, FLAG_OF[k] === flag ? (fullShown as Rec)[k] : null, `${flag}: ${k}`);
        }
      });

      it(`${path}: a record without children has empty arrays when the flags are true`, async () => {
        const got = arraysOf(await one(path, idParam, ids(f).y, ALL_INCLUDES));
        for (const [k, v] of Object.entries(got)) assert.deepEqual(v, [], k);
      });

      it(`${path}: null fields are left out, or present as null with showNullValues=true`, async () => {
        const y = await one(path, idParam, ids(f).y);
        for (const k of [
          'Code',
          'SearchPattern',
          'Location',
          'PrepaymentBlock',
          'DistributionTypeSlim',
          'PreviousAllocationGroup',
          'PreviousAllocationGroupBase',
        ]) {
          assert.ok(!(k in y), k);
        }
        const shown = await one(path, idParam, ids(f).y, 'showNullValues=true');
        const expected = path === 'AllocationGroups' ? ALLOCATION_GROUP : ALLOCATION_GROUP_BASE;
        assert.deepEqual(keys(shown), [...expected].sort());
        assert.equal(shown.Code, null);
        assert.equal(shown.SearchPattern, null);
        assert.equal(shown.PrepaymentBlock, null);
        if (path === 'AllocationGroupBases') {
          assert.deepEqual(keys(shown.AllocationGroup), [...BASE_GROUP].sort());
          assert.deepEqual(keys(shown.CombinedAllocationGroup), [...COMBINED].sort());
          assert.equal(shown.CombinedAllocationGroup.UnitsTotal, null);
          assert.equal(shown.CombinedAllocationGroup.Facility, null);
          assert.deepEqual(keys(y.CombinedAllocationGroup), [
            'Id',
            'IndependentCommercialHeatingSupply',
            'InventoryIncreasesCleared',
          ]);
        } else {
          assert.equal(shown.DistributionTypeSlim, null);
        }
        // every record of the list has every field with showNullValues=true
        for (const r of await list(path, `limit=100&showNullValues=true&${ALL_INCLUDES}`))
          assert.deepEqual(keys(r), [...expected].sort());
      });
    }
  });
}
