import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import type { TestDatabase } from '../../test/support/db.ts';
import { count, doc, importProblems, importText, withDb } from '../../test/support/dataset.ts';
import { first } from '../../test/support/lists.ts';
import type { WireRecord } from '../../test/support/wire.ts';

/** A small valid base: two ledgers, an economic unit in each, a building, a use unit, a license agreement. */
const base = () => ({
  CompanyCodes: [
    { Id: 1, Code: '1000', Name: 'Nord' },
    { Id: 2, Code: '2000', Name: 'Süd' },
  ],
  EconomicUnits: [
    { Id: 10, CompanyCodeId: 1, Number: '1001', Name: 'Wohnanlage Hauptstraße' },
    { Id: 20, CompanyCodeId: 2, Number: '2001' },
  ],
  Buildings: [
    { Id: 11, EconomicUnitId: 10, Number: '1001/01' },
    { Id: 21, EconomicUnitId: 20, Number: '2001/01' },
  ],
  UseUnits: [{ Id: 12, EconomicUnitId: 10, BuildingId: 11, UseUnitNumber: '1001/01/001', Name: 'Wohnung EG links' }],
  LicenseAgreements: [{ Id: 13, IdNum: '1001/01/001-1', UseUnitId: 12, ValidFrom: '2020-01-01' }],
});

const events = (t: TestDatabase) =>
  t.db
    .selectFrom('outbox_events')
    .select(['entity_type', 'entity_id', 'action', 'company_code_id'])
    .orderBy('id')
    .execute();

async function assertNothingStored(t: TestDatabase): Promise<void> {
  for (const table of [
    'company_codes',
    'economic_units',
    'buildings',
    'use_units',
    'license_agreements',
    'outbox_events',
  ] as const)
    assert.equal(await count(t, table), 0, table);
}

for (const dialect of DIALECTS) {
  describe(`import [${dialect}]`, () => {
    it('fills the ledger of child rows from their parents and records created events in the same transaction', () =>
      withDb(dialect, async (t) => {
        const summary = await importText(t, doc(base()));
        assert.equal(summary.records, 8);
        const uu = await t.db.selectFrom('use_units').selectAll().executeTakeFirstOrThrow();
        assert.equal(uu.company_code_id, 1);
        assert.equal(
          (await t.db.selectFrom('license_agreements').select('company_code_id').executeTakeFirstOrThrow())
            .company_code_id,
          1,
        );
        assert.deepEqual(
          (await events(t)).map((e) => `${e.entity_type} ${e.entity_id} ${e.action} ${e.company_code_id}`),
          [
            'EconomicUnit 10 created 1',
            'EconomicUnit 20 created 2',
            'Building 11 created 1',
            'Building 21 created 2',
            'UseUnit 12 created 1',
            'LicenseAgreement 13 created 1',
          ],
        );
      }));

    it('re-import upserts by Id: changed records are updated (with events), unchanged ones untouched', () =>
      withDb(dialect, async (t) => {
        const initial = base();
        await importText(t, doc(initial));
        const before = (await events(t)).length;
        await importText(t, doc(initial));
        assert.equal((await events(t)).length, before, 'the same file again records no events');
        const changed = base();
        first(changed.UseUnits).Name = 'Wohnung EG rechts';
        changed.UseUnits.push({
          Id: 14,
          EconomicUnitId: 10,
          BuildingId: 11,
          UseUnitNumber: '1001/01/002',
          Name: 'Wohnung 1. OG',
        });
        await importText(t, doc(changed));
        const names = await t.db.selectFrom('use_units').select(['id', 'name']).orderBy('id').execute();
        assert.deepEqual(names, [
          { id: 12, name: 'Wohnung EG rechts' },
          { id: 14, name: 'Wohnung 1. OG' },
        ]);
        assert.deepEqual(
          (await events(t)).slice(before).map((e) => `${e.entity_type} ${e.entity_id} ${e.action}`),
          ['UseUnit 12 updated', 'UseUnit 14 created'],
        );
        assert.equal(await count(t, 'economic_units'), 2);
      }));

    it('Deletions remove records (dependents first) and record deleted events; a record still referenced is refused', () =>
      withDb(dialect, async (t) => {
        await importText(t, doc(base()));
        const refused = await importProblems(t, doc({ Deletions: [{ Collection: 'UseUnits', Id: 12 }] }));
        assert.deepEqual(refused, [
          'Deletions[0] (Id 12): UseUnits 12: still referenced by LicenseAgreements (use_unit_id)',
        ]);
        assert.equal(await count(t, 'use_units'), 1);
        await importText(
          t,
          doc({
            Deletions: [
              { Collection: 'UseUnits', Id: 12 },
              { Collection: 'LicenseAgreements', Id: 13 },
            ],
          }),
        );
        assert.equal(await count(t, 'use_units'), 0);
        const deleted = (await events(t))
          .filter((e) => e.action === 'deleted')
          .map((e) => `${e.entity_type} ${e.entity_id}`);
        assert.deepEqual(deleted, ['LicenseAgreement 13', 'UseUnit 12']);
      }));

    const invalid: [string, (d: WireRecord) => void, RegExp][] = [
      [
        'unknown reference',
        (d) => {
          d.UseUnits[0].BuildingId = 999;
        },
        /^UseUnits\[0\] \(Id 12\) BuildingId: unknown reference: no Buildings with Id 999$/,
      ],
      [
        'duplicate Id',
        (d) => {
          d.Buildings.push({ Id: 11, EconomicUnitId: 10, Number: 'x' });
        },
        /^Buildings\[2\] \(Id 11\) Id: duplicate Id 11/,
      ],
      [
        'wrong type',
        (d) => {
          d.EconomicUnits[0].CompanyCodeId = '1';
        },
        /^EconomicUnits\[0\] \(Id 10\) CompanyCodeId: must be an integer, got "1"$/,
      ],
      [
        'bad date',
        (d) => {
          d.LicenseAgreements[0].ValidFrom = '2021-02-30';
        },
        /^LicenseAgreements\[0\] \(Id 13\) ValidFrom: '2021-02-30' is not a valid date/,
      ],
      [
        'building whose economic unit is in another ledger',
        (d) => {
          d.Buildings[0] = { ...d.Buildings[0], CompanyCodeId: 2 };
        },
        /^Buildings\[0\] \(Id 11\) CompanyCodeId: 2 does not match ledger 1 of its EconomicUnits 10$/,
      ],
      [
        'use unit whose building is in another economic unit',
        (d) => {
          d.UseUnits[0].BuildingId = 21;
        },
        /^UseUnits\[0\] \(Id 12\) BuildingId: Buildings 21 belongs to EconomicUnit 20, not 10$/,
      ],
      [
        'missing required field',
        (d) => {
          delete d.UseUnits[0].UseUnitNumber;
        },
        /^UseUnits\[0\] \(Id 12\) UseUnitNumber: is missing$/,
      ],
      [
        'unknown field',
        (d) => {
          d.UseUnits[0].useUnitNumber = 'x';
        },
        /^UseUnits\[0\] \(Id 12\) useUnitNumber: unknown field \(names are case-sensitive\)$/,
      ],
      [
        'catalogue code of the wrong kind',
        (d) => {
          d.CatalogCodes = [
            { Id: 30, Kind: 'VatRate', Code: '19' },
            { Id: 31, Kind: 'AllocationGroupState', Code: 'OFFEN' },
          ];
          d.DistributionPeriods = [{ Id: 32, FirstCalenderYear: 2025, RegularDistributionPeriodId: 30 }];
        },
        /^DistributionPeriods\[0\] \(Id 32\) RegularDistributionPeriodId: CatalogCodes 30 is of kind VatRate, expected RegularDistributionPeriod$/,
      ],
      [
        'a contract agreement without an end (the interface has no open-ended ValidTo)',
        (d) => {
          d.ContractAgreements = [
            {
              Id: 40,
              Kind: 'IndexRentalAgreement',
              LicenseAgreementId: 13,
              ValidFrom: '2024-01-01',
              Inputdate: '2023-12-01',
              FirstDebit: '2024-01-01',
            },
          ];
        },
        /^ContractAgreements\[0\] \(Id 40\) ValidTo: is missing$/,
      ],
      [
        'unknown contract-agreement kind',
        (d) => {
          d.ContractAgreements = [{ Id: 40, Kind: 'Rent', LicenseAgreementId: 13, ValidFrom: '2024-01-01' }];
        },
        /^ContractAgreements\[0\] \(Id 40\) Kind: unknown value 'Rent'/,
      ],
    ];
    for (const [name, mutate, expected] of invalid) {
      it(`refuses a file with ${name}: nothing stored, the problem named`, () =>
        withDb(dialect, async (t) => {
          const d: WireRecord = base();
          mutate(d);
          const ordered = Object.fromEntries(
            [
              'CompanyCodes',
              'CatalogCodes',
              'EconomicUnits',
              'Buildings',
              'UseUnits',
              'DistributionPeriods',
              'LicenseAgreements',
              'ContractAgreements',
            ]
              .filter((k) => d[k])
              .map((k) => [k, d[k]]),
          );
          const problems = await importProblems(t, doc(ordered));
          assert.ok(
            problems.some((p) => expected.test(p)),
            problems.join('\n'),
          );
          await assertNothingStored(t);
        }));
    }

    it('lists every problem of a file, and refuses collections out of dependency order or unknown', () =>
      withDb(dialect, async (t) => {
        const d: WireRecord = base();
        d.UseUnits[0].BuildingId = 999;
        d.LicenseAgreements[0].ValidTo = 'soon';
        d.Buildings[1].EconomicUnitId = 77;
        assert.equal((await importProblems(t, doc(d))).length, 3);
        const wrongOrder = await importProblems(t, doc({ UseUnits: [], CompanyCodes: [] }));
        assert.match(first(wrongOrder), /collection 'CompanyCodes' must come before/);
        assert.match(first(await importProblems(t, doc({ Usenits: [] }))), /unknown collection 'Usenits'/);
        // Format comes first and once, like the collections
        for (const text of [
          '{"CompanyCodes":[],"Format":"wohnapi-data/1"}',
          '{"Format":"wohnapi-data/1","Format":"wohnapi-data/1"}',
        ])
          assert.match(
            first(await importProblems(t, text)),
            /Format must come first, before every collection, and appear once/,
          );
        assert.match(
          (await importProblems(t, '{"CompanyCodes":[{"Id":1,')).join(''),
          /ends before the JSON document is complete|not valid JSON/,
        );
        await assertNothingStored(t);
      }));

    it('a reference to a record of the same batch that has a problem is a problem too, and the reading goes on', () =>
      withDb(dialect, async (t) => {
        // the first management is read but not written (its person is unknown), so the database would refuse the
        // second (its parent): the import stopped there with "the database refused Managements[1..3]", listing
        // nothing of the rest of the file
        const problems = await importProblems(
          t,
          doc({
            CompanyCodes: [{ Id: 1, Code: '1000', Name: 'Nord' }],
            Managements: [
              { Id: 1, IdNum: 'M1', PersonId: 999 },
              { Id: 2, IdNum: 'M2', ParentManagementId: 1 },
              { Id: 3, IdNum: 'M3', ParentManagementId: 2 },
              { Id: 4, IdNum: 'M4' },
            ],
            EconomicUnits: [{ Id: 10, CompanyCodeId: 7, Number: '1001' }],
          }),
        );
        assert.deepEqual(problems, [
          'Managements[0] (Id 1) PersonId: unknown reference: no Persons with Id 999',
          'Managements[1] (Id 2) ParentManagementId: unknown reference: no Managements with Id 1',
          'Managements[2] (Id 3) ParentManagementId: unknown reference: no Managements with Id 2',
          'EconomicUnits[0] (Id 10) CompanyCodeId: unknown reference: no CompanyCodes with Id 7',
        ]);
        await assertNothingStored(t);
        // a stored record still counts when the file's new version of it has a problem
        await importText(t, doc({ Managements: [{ Id: 1, IdNum: 'M1' }] }));
        assert.deepEqual(
          await importProblems(t, doc({ Managements: [{ Id: 1 }, { Id: 2, IdNum: 'M2', ParentManagementId: 1 }] })),
          ['Managements[0] (Id 1) IdNum: is missing'],
        );
      }));

    it('a reference to a later record of the same collection (previous allocation group) is resolved', () =>
      withDb(dialect, async (t) => {
        const header = {
          OwnerId: 5,
          CompanyCodeId: 1,
          AllocationGroupStateId: 3,
          DistributionPeriodId: 6,
          RegularDistributionPeriodId: 4,
        };
        await importText(
          t,
          doc({
            CompanyCodes: [{ Id: 1 }],
            CatalogCodes: [
              { Id: 3, Kind: 'AllocationGroupState' },
              { Id: 4, Kind: 'RegularDistributionPeriod' },
            ],
            Owners: [{ Id: 5, CompanyCodeId: 1 }],
            DistributionPeriods: [{ Id: 6, FirstCalenderYear: 2025, RegularDistributionPeriodId: 4 }],
            AllocationGroups: [
              { Id: 7, ...header, PreviousAllocationGroupId: 8 },
              { Id: 8, ...header },
            ],
          }),
        );
        const g = await t.db
          .selectFrom('allocation_groups')
          .select('previous_allocation_group_id')
          .where('id', '=', 7)
          .executeTakeFirstOrThrow();
        assert.equal(g.previous_allocation_group_id, 8);
      }));
  });
}
