// What the three endpoints answer: field names, nesting and types, null handling and the include flags.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import type { WireRecord as Rec } from '../../test/support/wire.ts';
import { at, first, only } from '../../test/support/lists.ts';
import { allPages, runningCostFixture, type Fixture } from '../../test/fixtures/running-cost.ts';
import {
  ALL_INCLUDES,
  ALLOCATION_GROUP,
  ALLOCATION_GROUP_BASE,
  BASE_GROUP,
  COMBINED,
  DISTRIBUTION_PERIOD,
  isCodeRef,
  keys,
} from '../../test/fixtures/running-cost-wire.ts';

for (const dialect of DIALECTS) {
  describe(`running-cost records [${dialect}]`, () => {
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

    it('DistributionPeriods: the shared catalogue with its fields and types, paged', async () => {
      const all = await list('DistributionPeriods', 'limit=100');
      assert.deepEqual(
        all.map((p) => p.Id),
        f.world.distributionPeriodIds,
      );
      for (const p of all) {
        assert.deepEqual(keys(p), [...DISTRIBUTION_PERIOD].sort());
        assert.ok(typeof p.Code === 'string' && Number.isInteger(p.FirstCalenderYear));
        assert.equal(p.IsBookable, true);
        assert.equal(typeof p.IsComputable, 'boolean');
        assert.ok(isCodeRef(p.RegularDistributionPeriod));
      }
      assert.deepEqual(await allPages(f, 'DistributionPeriods', 1), all);
      assert.deepEqual(await list('DistributionPeriods', 'showNullValues=true'), all);
    });

    it('AllocationGroups: a full record with every include flag', async () => {
      const l0 = first(f.world.ledgers);
      const g = await one('AllocationGroups', 'allocationGroupId', at(l0.allocationGroupIds, 1), ALL_INCLUDES);
      assert.deepEqual(keys(g), [...ALLOCATION_GROUP].sort());
      assert.deepEqual(keys(g.Owner), ['Id', 'OwnerNumber']);
      assert.equal(g.Owner.Id, l0.ownerId);
      assert.deepEqual(keys(g.CompanyCode), ['Code', 'Id', 'Name']);
      assert.equal(g.CompanyCode.Id, l0.companyCodeId);
      for (const k of [
        'AllocationGroupState',
        'PrepaymentBlock',
        'DistributionTypeSlim',
        'DistributionPeriod',
        'RegularDistributionPeriod',
      ]) {
        assert.ok(isCodeRef(g[k]), k);
      }
      assert.deepEqual(g.PreviousAllocationGroup.Id, l0.allocationGroupIds[0]);
      assert.equal(
        g.PreviousAllocationGroup.Code,
        (await one('AllocationGroups', 'allocationGroupId', first(l0.allocationGroupIds))).Code,
      );
      assert.equal(g.DistributionPeriod.Id, f.world.distributionPeriodIds[1]);
      assert.equal(g.IndividualOwnershipManagement, false);
      assert.equal(g.IsCleared, true);
      assert.equal(typeof g.SearchPattern, 'string');
      assert.equal(typeof g.Location, 'string');
      assert.deepEqual(
        g.UseUnits.map((u: Rec) => u.Id),
        l0.useUnitIds.slice(2, 4),
      );
      assert.ok(g.UseUnits.every((u: Rec) => typeof u.UseUnitNumber === 'string'));
      assert.deepEqual(
        g.AllocationGroupCostTypes.map((c: Rec) => c.Id),
        f.world.catalog.AllocationGroupCostType,
      );
      assert.ok(g.AllocationGroupCostTypes.every(isCodeRef));
      assert.equal(g.Explanations.length, 1);
      assert.deepEqual(keys(g.Explanations[0]), ['Group', 'Id', 'Text']);
      assert.deepEqual(keys(g.Explanations[0].Group), ['Id', 'Name']);
      assert.equal(g.Explanations[0].Group.Id, f.world.explanationGroupIds[0]);
      assert.deepEqual(g.OptionTaxes, [
        { OptionTax: 0.19, ValidFrom: '2020-01-01', ValidTo: '2023-12-31' },
        { OptionTax: 0.07, ValidFrom: '2024-01-01' },
      ]);
    });

    it('AllocationGroupBases: a full record with every include flag; AllocationGroup.Id is the AllocationGroups Id', async () => {
      const l0 = first(f.world.ledgers);
      const b = await one(
        'AllocationGroupBases',
        'allocationGroupBaseId',
        at(l0.allocationGroupBaseIds, 1),
        ALL_INCLUDES,
      );
      const g = await one('AllocationGroups', 'allocationGroupId', at(l0.allocationGroupIds, 1), ALL_INCLUDES);
      assert.deepEqual(keys(b), [...ALLOCATION_GROUP_BASE].sort());
      assert.notEqual(b.Id, g.Id);
      assert.deepEqual(b.AllocationGroup, {
        Id: g.Id,
        IndividualOwnershipManagement: g.IndividualOwnershipManagement,
        IsCleared: g.IsCleared,
        RegularDistributionPeriod: g.RegularDistributionPeriod,
        UseUnits: g.UseUnits,
        Explanations: g.Explanations,
      });
      assert.deepEqual(keys(b.AllocationGroup), [...BASE_GROUP].sort());
      assert.equal(b.PreviousAllocationGroupBase.Id, l0.allocationGroupBaseIds[0]);
      for (const k of ['Owner', 'CompanyCode', 'AllocationGroupState', 'DistributionPeriod'])
        assert.deepEqual(b[k], g[k], k);
      const c = b.CombinedAllocationGroup;
      assert.deepEqual(keys(c), [...COMBINED].sort());
      assert.equal(c.Id, l0.combinedAllocationGroupIds[1]);
      assert.deepEqual(
        [
          c.UnitsTotal,
          c.CostsPerUnit,
          c.WarmWaterFuelConsumption,
          c.WarmWaterHeatQuantity,
          c.IndependentCommercialHeatingSupply,
          c.InventoryIncreasesCleared,
          c.InventoryChangesAmount,
        ],
        [1234.56, '2.15', 0.1, 812.5, false, true, -12.3],
      );
      for (const k of ['CombinedAllocationGroupType', 'FuelEnergyType', 'SettlementState', 'ElementaryDistributionKey'])
        assert.ok(isCodeRef(c[k]), k);
      assert.deepEqual(keys(c.Facility), ['Id', 'Name']);
      assert.equal(c.Explanations.length, 1);
      assert.equal(c.Explanations[0].Group.Id, f.world.explanationGroupIds[1]);
      assert.notDeepEqual(c.Explanations, g.Explanations);
      assert.deepEqual(
        b.AllocationGroupCostTypes.map((x: Rec) => x.Id),
        [f.world.catalog.AllocationGroupCostType[0]],
      );
      assert.deepEqual(b.OptionTaxes, [{ OptionTax: 0.19, ValidFrom: '2024-01-01' }]);
    });

    it('every base points at a group that AllocationGroups returns, with the same values', async () => {
      const groups = new Map((await list('AllocationGroups', 'limit=100')).map((g) => [g.Id, g]));
      const bases = await list('AllocationGroupBases', 'limit=100');
      assert.equal(bases.length, groups.size);
      for (const b of bases) {
        const g = groups.get(b.AllocationGroup.Id);
        assert.ok(g, `group ${b.AllocationGroup.Id} of base ${b.Id}`);
        assert.equal(b.AllocationGroup.IsCleared, g.IsCleared);
        assert.equal(b.AllocationGroup.IndividualOwnershipManagement, g.IndividualOwnershipManagement);
        assert.deepEqual(b.AllocationGroup.RegularDistributionPeriod, g.RegularDistributionPeriod);
      }
    });
  });
}
