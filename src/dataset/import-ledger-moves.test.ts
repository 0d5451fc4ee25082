// A record moved to another ledger by an import must not leave stored records of the old ledger linked to it
// (docs/import-format.md, "Moving a record to another ledger"): reads would answer another ledger's ids, and the export
// would not import again. The import fails listing the links, and nothing is stored; a move without such links works.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, type TestDatabase } from '../../test/support/db.ts';
import { PassThrough } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { openDatabase } from '../db/database.ts';
import { importData } from './import/importer.ts';
import { doc, exportText, importProblems, importText, withDb } from '../../test/support/dataset.ts';

/** Ledgers 1 and 2; owner 5, economic unit 10 (use unit 13) and 11 (use unit 14) in ledger 1; allocation group 60
 * lists use unit 13; loan 30 is assigned to economic unit 10. */
const stored = () => ({
  CompanyCodes: [{ Id: 1 }, { Id: 2 }],
  CatalogCodes: [
    { Id: 3, Kind: 'AllocationGroupState' },
    { Id: 4, Kind: 'RegularDistributionPeriod' },
  ],
  Owners: [{ Id: 5, CompanyCodeId: 1 }],
  EconomicUnits: [
    { Id: 10, CompanyCodeId: 1, Number: '00101', OwnerId: 5 },
    { Id: 11, CompanyCodeId: 1, Number: '00102' },
  ],
  UseUnits: [
    { Id: 13, EconomicUnitId: 10, UseUnitNumber: '00101.001.001' },
    { Id: 14, EconomicUnitId: 11, UseUnitNumber: '00102.001.001' },
  ],
  Loans: [{ Id: 30, CompanyCodeId: 1, ObjectAssignments: [{ Id: 31, EconomicUnitId: 10 }] }],
  DistributionPeriods: [{ Id: 6, FirstCalenderYear: 2025, RegularDistributionPeriodId: 4 }],
  AllocationGroups: [
    {
      Id: 60,
      OwnerId: 5,
      CompanyCodeId: 1,
      AllocationGroupStateId: 3,
      DistributionPeriodId: 6,
      RegularDistributionPeriodId: 4,
      UseUnitIds: [13],
    },
  ],
});

const ledgerOf = async (t: TestDatabase, table: 'economic_units' | 'use_units' | 'owners', id: number) =>
  (await t.db.selectFrom(table).select('company_code_id').where('id', '=', id).executeTakeFirstOrThrow())
    .company_code_id;

const MOVED = 'the import moved one of them to another ledger; move or change both in the same file';

for (const dialect of DIALECTS) {
  describe(`import: records moved to another ledger [${dialect}]`, () => {
    it('moving an economic unit that stored records of its old ledger link to fails, naming them; nothing is stored', () =>
      withDb(dialect, async (t) => {
        await importText(t, doc(stored()));
        const before = await exportText(t);
        const problems = await importProblems(
          t,
          doc({ EconomicUnits: [{ Id: 10, CompanyCodeId: 2, Number: '00101' }] }),
        );
        assert.deepEqual(problems, [
          `Loans (stored) (Id 30) ObjectAssignments[].EconomicUnitId: EconomicUnits 10 is in ledger 2, this stored record in ledger 1: ${MOVED}`,
          `AllocationGroups (stored) (Id 60) UseUnitIds: UseUnits 13 is in ledger 2, this stored record in ledger 1: ${MOVED}`,
        ]);
        assert.equal(await ledgerOf(t, 'economic_units', 10), 1);
        assert.equal(await ledgerOf(t, 'use_units', 13), 1);
        assert.equal(await exportText(t), before);
      }));

    it('moving an owner that stored records of its old ledger name fails', () =>
      withDb(dialect, async (t) => {
        await importText(t, doc(stored()));
        const problems = await importProblems(t, doc({ Owners: [{ Id: 5, CompanyCodeId: 2 }] }));
        assert.deepEqual(problems, [
          `EconomicUnits (stored) (Id 10) OwnerId: Owners 5 is in ledger 2, this stored record in ledger 1: ${MOVED}`,
          `AllocationGroups (stored) (Id 60) OwnerId: Owners 5 is in ledger 2, this stored record in ledger 1: ${MOVED}`,
        ]);
        assert.equal(await ledgerOf(t, 'owners', 5), 1);
      }));

    it("moving a cost centre a stored project uses fails (the project's own assignments have their own check)", () =>
      withDb(dialect, async (t) => {
        await importText(
          t,
          doc({
            CompanyCodes: [{ Id: 1 }, { Id: 2 }],
            CostCenters: [{ Id: 40, CompanyCodeId: 1, Code: 'K40' }],
            Projects: [
              {
                Id: 900100,
                CompanyCodeId: 1,
                CostCenterId: 40,
                ProjectLifeTimeFrom: '2026-01-01',
                CreatedAt: '2026-01-02T08:00:00Z',
                UpdatedAt: '2026-01-02T08:00:00Z',
              },
            ],
          }),
        );
        const problems = await importProblems(t, doc({ CostCenters: [{ Id: 40, CompanyCodeId: 2, Code: 'K40' }] }));
        assert.deepEqual(problems, [
          `Projects (stored) (Id 900100) CostCenterId: CostCenters 40 is in ledger 2, this stored record in ledger 1: ${MOVED}`,
        ]);
      }));

    it('a move without links across ledgers is stored, its use units moving with it, and exports and imports again', () =>
      withDb(dialect, async (t) => {
        await importText(t, doc(stored()));
        await importText(t, doc({ EconomicUnits: [{ Id: 11, CompanyCodeId: 2, Number: '00102' }] }));
        assert.equal(await ledgerOf(t, 'economic_units', 11), 2);
        assert.equal(await ledgerOf(t, 'use_units', 14), 2);
        const text = await exportText(t);
        await withDb(dialect, async (fresh) => {
          await importText(fresh, text);
          assert.equal(await exportText(fresh), text);
        });
      }));
  });
}

describe('import: two imports at once [postgres]', () => {
  // Two imports at once would each compare the file with what was stored before the other committed: the later one
  // would record no event for values it set back. So they run one after the other (as SQLite's write lock does).
  it('run one after the other: the second waits until the first has committed', () =>
    withDb('postgres', async (t) => {
      const units = (from: number, name: string) =>
        Array.from({ length: 30 }, (_, i) => ({ Id: from + i, CompanyCodeId: 1, Name: `${name}${i}` }));
      await importText(t, doc({ CompanyCodes: [{ Id: 1 }], EconomicUnits: units(100, 'A') }));
      const other = openDatabase(t.url);
      try {
        // the first import has begun and waits for the rest of its file, its transaction open
        const input = new PassThrough();
        input.write(`{"EconomicUnits":${JSON.stringify(units(100, 'B'))},"UseUnits":[`);
        const first = importData(other, input);
        await delay(300);
        // the second touches other rows only, and still waits
        let secondDone = false;
        const second = importText(t, doc({ EconomicUnits: units(200, 'C') })).then((summary) => {
          secondDone = true;
          return summary;
        });
        await delay(500);
        const waited = !secondDone;
        input.end(']}');
        const [a, b] = await Promise.all([first, second]);
        assert.equal(waited, true, 'the second import waited while the first was open');
        assert.deepEqual([a.events, b.events], [30, 30]);
      } finally {
        await other.close();
      }
    }));
});
