// Keys the importer reports as problems (src/dataset/import/unique-keys.ts): a catalogue entry's (Kind, KindId) is
// unique, buildings and land share one id space. Every clash is listed, nothing is stored; clashes with rows stored by
// an earlier import are found too.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { count, doc, importProblems, importText, withDb } from '../../test/support/dataset.ts';

const base = () => ({
  CompanyCodes: [{ Id: 1, Code: '1000', Name: 'Nord' }],
  CatalogEntries: [
    { Id: 50, Kind: 'Gender', KindId: 3, Name: 'keine Angabe' },
    { Id: 51, Kind: 'ContractorType', KindId: 3, Name: 'abweichender Vertragsnehmer' },
  ],
  EconomicUnits: [{ Id: 10, CompanyCodeId: 1, Number: '00101' }],
  Buildings: [{ Id: 11, EconomicUnitId: 10, Number: '00101.001' }],
  Lands: [{ Id: 12, EconomicUnitId: 10, Number: '00101.002' }],
});

for (const dialect of DIALECTS) {
  describe(`import key checks [${dialect}]`, () => {
    it('the same KindId in two kinds is fine; duplicates per kind and a land with a building’s Id are all listed, nothing stored', () =>
      withDb(dialect, async (t) => {
        const d = base();
        d.CatalogEntries.push(
          { Id: 52, Kind: 'Gender', KindId: 3, Name: 'divers' },
          { Id: 53, Kind: 'ContractorType', KindId: 3, Name: 'Untermieter' },
        );
        d.Lands.push({ Id: 11, EconomicUnitId: 10, Number: '00101.003' });
        const problems = await importProblems(t, doc(d));
        assert.deepEqual(
          problems.map((p) => p.replace(/:.*/, '')),
          ['CatalogEntries[2] (Id 52) KindId', 'CatalogEntries[3] (Id 53) KindId', 'Lands[1] (Id 11) Id'],
          problems.join('\n'),
        );
        assert.match(problems[0] ?? '', /CatalogEntries 50 already has Kind Gender with KindId 3/);
        assert.match(problems[2] ?? '', /Id 11 is taken by Buildings 11: buildings and land share one id space/);
        for (const table of ['company_codes', 'catalog_entries', 'buildings', 'lands', 'outbox_events'] as const)
          assert.equal(await count(t, table), 0, table);
      }));

    it('clashes with stored rows are problems too; re-importing a record under its own Id is not a clash', () =>
      withDb(dialect, async (t) => {
        await importText(t, doc(base()));
        assert.equal(await count(t, 'catalog_entries'), 2);
        await importText(t, doc(base())); // the same records again: updates, no clash
        const problems = await importProblems(
          t,
          doc({
            CatalogEntries: [
              { Id: 50, Kind: 'Gender', KindId: 3, Name: 'k. A.' },
              { Id: 60, Kind: 'Gender', KindId: 3, Name: 'divers' },
            ],
            Buildings: [{ Id: 12, EconomicUnitId: 10, Number: '00101.009' }],
          }),
        );
        assert.equal(problems.length, 2, problems.join('\n'));
        assert.match(problems[0] ?? '', /^CatalogEntries\[1\] \(Id 60\) KindId: duplicate catalogue key/);
        assert.match(problems[1] ?? '', /^Buildings\[0\] \(Id 12\) Id: Id 12 is taken by Lands 12/);
        assert.equal(await count(t, 'catalog_entries'), 2);
        assert.equal(await count(t, 'buildings'), 1);
        const gender = await t.db.selectFrom('catalog_entries').select('name').where('id', '=', 50).executeTakeFirst();
        assert.equal(gender?.name, 'keine Angabe');
      }));
  });
}
