// Values the import refuses, as the API does (docs/import-format.md, "Values"): Ids below 1 (the export would leave
// them out, and the API names no such record), strings with control characters or lone surrogates, decimals beyond
// what a JSON number read as a double holds (the API would answer null); a wrong value is quoted as the file wrote it. Every problem is listed and nothing is stored.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { count, doc, importProblems, withDb } from '../../test/support/dataset.ts';

for (const dialect of DIALECTS) {
  describe(`import: hostile values [${dialect}]`, () => {
    it('refuses Ids below 1, control characters and lone surrogates; quotes wrong values as written', async () => {
      await withDb(dialect, async (t) => {
        const problems = await importProblems(
          t,
          doc({
            CompanyCodes: [
              { Id: -5, Code: 'NEG', Name: 'negative' },
              { Id: 'MINUS_ZERO', Code: 'ZERO', Name: 'zero' },
              { Id: 1, Code: '1000', Name: 'a\u0000b' },
              { Id: 2, Code: '2000', Name: '\ud800' },
              { Id: 3, Code: '3000', Name: { a: 1.5, b: [2, -1] } },
            ],
          })
            .replace('"a":1.5', '"a":1.50')
            .replace('"MINUS_ZERO"', '-0'),
        );
        assert.deepEqual(problems, [
          'CompanyCodes[0] Id: must be a positive integer (1 to 2147483647), got -5',
          'CompanyCodes[1] Id: must be a positive integer (1 to 2147483647), got -0',
          'CompanyCodes[2] (Id 1) Name: "a\\u0000b" contains the control character U+0000, which is not allowed',
          'CompanyCodes[3] (Id 2) Name: "\\ud800" is not valid Unicode (a lone surrogate)',
          'CompanyCodes[4] (Id 3) Name: must be a string, got {"a":1.50,"b":[2,-1]}',
        ]);
        assert.equal(await count(t, 'company_codes'), 0);
        const decimals = await importProblems(
          t,
          doc({
            PriceIndices: [{ Id: 1, Code: 'VPI', Note: 'x' }],
            PriceIndexValues: [
              { Id: 2, PriceIndexId: 1, ReferenceDate: '2024-01-01', IndexValue: 'HUGE' },
              { Id: 3, PriceIndexId: 1, ReferenceDate: '2024-02-01', IndexValue: 1e308 },
              { Id: 4, PriceIndexId: 1, ReferenceDate: '2024-03-01', IndexValue: 'TINY' },
              { Id: 5, PriceIndexId: 1, ReferenceDate: '2024-04-01', IndexValue: 'ZERO' },
              { Id: 6, PriceIndexId: 1, ReferenceDate: '2024-05-01', IndexValue: 'FINE' },
            ],
          })
            .replace('"HUGE"', '1e309')
            .replace('"TINY"', '1e-600000000')
            .replace('"ZERO"', '0e99999999')
            .replace('"FINE"', '5e-1000'),
        );
        const long = 'has an exponent beyond ±1000: written out (decimals are stored digit by digit)';
        assert.deepEqual(decimals, [
          'PriceIndexValues[0] (Id 2) IndexValue: 1e309 is beyond the range of numbers clients can read (about ±1.8e308)',
          `PriceIndexValues[2] (Id 4) IndexValue: 1e-600000000 ${long} it would have more digits than any value needs`,
          `PriceIndexValues[3] (Id 5) IndexValue: 0e99999999 ${long} it would have more digits than any value needs`,
        ]);
      });
    });
  });
}
