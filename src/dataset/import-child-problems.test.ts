// The problems of a record's child arrays (src/dataset/import/parse-record.ts), each with its path: an entry that is
// not an object, a value of the wrong type or missing, an Id below 1, an unknown field, a duplicate Id or key, a
// scalar entry, an array that is not one. Nothing is stored.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { count, doc, importProblems, withDb } from '../../test/support/dataset.ts';

const file = {
  CompanyCodes: [{ Id: 1, Code: '1000', Name: 'Nord' }],
  AllocationGroups: [
    {
      Id: 10,
      CompanyCodeId: 1,
      Explanations: ['x', { Id: 0 }, { Id: 7, Text: 'a', Foo: 1 }, { Id: 7, Text: 'b' }, { Id: 8, Text: 5 }],
      OptionTaxes: [
        { OptionTax: 19, ValidFrom: '2020-01-01' },
        { OptionTax: 7, ValidFrom: '2020-01-01' },
        { ValidFrom: '2020-02-30' },
        { OptionTax: null, ValidFrom: null },
      ],
      IsCleared: null,
    },
  ],
  Projects: [
    { Id: 1, CompanyCodeId: 1, Name: 'A', UseUnitIds: [1, 'x', null, 1] },
    { Id: 2, CompanyCodeId: 1, Name: 'B', BuildingIds: 5, LandIds: [{ Id: 1 }] },
  ],
};

for (const dialect of DIALECTS) {
  describe(`import: problems of child arrays [${dialect}]`, () => {
    it('names each entry and field that is wrong, in file order', () =>
      withDb(dialect, async (t) => {
        assert.deepEqual(await importProblems(t, doc(file)), [
          'AllocationGroups[0] (Id 10) OwnerId: is missing',
          'AllocationGroups[0] (Id 10) AllocationGroupStateId: is missing',
          'AllocationGroups[0] (Id 10) DistributionPeriodId: is missing',
          'AllocationGroups[0] (Id 10) IsCleared: must be true or false, got null',
          'AllocationGroups[0] (Id 10) RegularDistributionPeriodId: is missing',
          'AllocationGroups[0] (Id 10) Explanations[0]: must be an object',
          'AllocationGroups[0] (Id 10) Explanations[1].Id: must be a positive integer (1 to 2147483647), got 0',
          'AllocationGroups[0] (Id 10) Explanations[2].Foo: unknown field',
          'AllocationGroups[0] (Id 10) Explanations[3]: duplicate Id 7 in Explanations',
          'AllocationGroups[0] (Id 10) Explanations[4].Text: must be a string, got 5',
          'AllocationGroups[0] (Id 10) OptionTaxes[1]: duplicate entry 2020-01-01 in OptionTaxes',
          'AllocationGroups[0] (Id 10) OptionTaxes[2].OptionTax: is missing',
          "AllocationGroups[0] (Id 10) OptionTaxes[2].ValidFrom: '2020-02-30' is not a valid date (YYYY-MM-DD)",
          'AllocationGroups[0] (Id 10) OptionTaxes[3].OptionTax: must not be null',
          'AllocationGroups[0] (Id 10) OptionTaxes[3].ValidFrom: must not be null',
          'Projects[0] (Id 1) ProjectLifeTimeFrom: is missing',
          'Projects[0] (Id 1) CreatedAt: is missing',
          'Projects[0] (Id 1) UpdatedAt: is missing',
          'Projects[0] (Id 1) UseUnitIds[1]: must be an integer, got "x"',
          'Projects[0] (Id 1) UseUnitIds[2]: must not be null',
          'Projects[0] (Id 1) UseUnitIds[3]: duplicate entry 1 in UseUnitIds',
          'Projects[1] (Id 2) ProjectLifeTimeFrom: is missing',
          'Projects[1] (Id 2) CreatedAt: is missing',
          'Projects[1] (Id 2) UpdatedAt: is missing',
          'Projects[1] (Id 2) BuildingIds: must be an array',
          'Projects[1] (Id 2) LandIds[0]: must be an integer, got {"Id":1}',
        ]);
        for (const table of ['company_codes', 'allocation_groups', 'projects'] as const)
          assert.equal(await count(t, table), 0, table);
      }));
  });
}
