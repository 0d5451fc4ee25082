// Integrity of child rows on import (docs/import-format.md, "Child rows"): a child row keeps its parent (an Id of
// another parent's row is a problem, not a move), a left-out child row still referenced elsewhere is a problem, a
// communication's RelatedAddressId names an address of its own person, and allocation groups, combined groups and
// bases share one id space. Every problem is listed, nothing is stored.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, type TestDatabase } from '../../test/support/db.ts';
import { count, doc, exportText, importProblems, importText, withDb } from '../../test/support/dataset.ts';
import { loadDemo } from './demo/load.ts';

const person = (id: number, extra: Record<string, unknown> = {}) => ({
  Id: id,
  IdNum: `P${id}`,
  Name: `Person ${id}`,
  IsNaturalPerson: false,
  ValidFrom: '2000-01-01',
  ...extra,
});
const address = (id: number) => ({ Id: id, Zip: '10115', Town: 'Berlin', ValidFrom: '2000-01-01', MainAddress: true });

/** Person 100 (address 101, communication 102 about it, bank account 103), the contractor of agreement 20, whose
 * payment mode 22 and loan 30 use the bank account; loan 30 has condition 31. */
const base = () => ({
  CompanyCodes: [{ Id: 1, Code: '1000', Name: 'Nord' }],
  CatalogEntries: [{ Id: 50, Kind: 'PaymentModeType', KindId: 1, Name: 'Lastschrift' }],
  Persons: [
    person(100, {
      Addresses: [address(101)],
      Communications: [{ Id: 102, RelatedAddressId: 101, Content: 'a@b.de' }],
      BankAccounts: [{ Id: 103, Iban: 'DE02120300000000202051' }],
    }),
  ],
  EconomicUnits: [{ Id: 10, CompanyCodeId: 1, Number: '00101' }],
  UseUnits: [{ Id: 13, EconomicUnitId: 10, UseUnitNumber: '00101.001.001' }],
  Loans: [{ Id: 30, CompanyCodeId: 1, BankAccountId: 103, Conditions: [{ Id: 31 }] }],
  LicenseAgreements: [{ Id: 20, IdNum: 'L1', UseUnitId: 13, ValidFrom: '2020-01-01' }],
  Contractors: [{ Id: 21, LicenseAgreementId: 20, PersonId: 100 }],
  PaymentModes: [{ Id: 22, LicenseAgreementId: 20, TypeId: 50, BankAccountId: 103 }],
});

const ownerOf = async (t: TestDatabase, table: 'person_addresses' | 'person_bank_accounts', id: number) =>
  (await t.db.selectFrom(table).select('person_id').where('id', '=', id).executeTakeFirst())?.person_id;

const groups = () => {
  const header = {
    OwnerId: 5,
    CompanyCodeId: 1,
    AllocationGroupStateId: 3,
    DistributionPeriodId: 6,
  };
  return {
    CompanyCodes: [{ Id: 1 }],
    CatalogCodes: [
      { Id: 3, Kind: 'AllocationGroupState' },
      { Id: 4, Kind: 'RegularDistributionPeriod' },
    ],
    Owners: [{ Id: 5, CompanyCodeId: 1 }],
    DistributionPeriods: [{ Id: 6, FirstCalenderYear: 2025, RegularDistributionPeriodId: 4 }],
    AllocationGroups: [{ Id: 60, ...header, RegularDistributionPeriodId: 4 }],
    CombinedAllocationGroups: [{ Id: 61 }],
    AllocationGroupBases: [{ Id: 62, ...header, AllocationGroupId: 60, CombinedAllocationGroupId: 61 }],
  };
};

for (const dialect of DIALECTS) {
  describe(`import child-row integrity [${dialect}]`, () => {
    it('a child row whose Id belongs to another parent is a problem, not a move; nothing is stored', () =>
      withDb(dialect, async (t) => {
        await importText(t, doc(base()));
        const problems = await importProblems(
          t,
          doc({
            Persons: [
              person(9001, { Addresses: [address(101)] }),
              person(9002, { Addresses: [address(9003)], BankAccounts: [{ Id: 103 }], Communications: [{ Id: 102 }] }),
            ],
            Loans: [{ Id: 32, CompanyCodeId: 1, Conditions: [{ Id: 31 }] }],
          }),
        );
        assert.deepEqual(
          problems,
          [
            'Persons[0] (Id 9001) Addresses[0].Id: Id 101 belongs to Persons Id 100 (a child row keeps its parent; give the new row a new Id)',
            'Persons[1] (Id 9002) Communications[0].Id: Id 102 belongs to Persons Id 100 (a child row keeps its parent; give the new row a new Id)',
            'Persons[1] (Id 9002) BankAccounts[0].Id: Id 103 belongs to Persons Id 100 (a child row keeps its parent; give the new row a new Id)',
            'Loans[0] (Id 32) Conditions[0].Id: Id 31 belongs to Loans Id 30 (a child row keeps its parent; give the new row a new Id)',
          ],
          problems.join('\n'),
        );
        assert.equal(await ownerOf(t, 'person_addresses', 101), 100);
        assert.equal(await ownerOf(t, 'person_bank_accounts', 103), 100);
        assert.equal(await count(t, 'persons'), 1);
        assert.equal(await count(t, 'loans'), 1);
        // the same rows under their own parent are an update, not a clash
        await importText(t, doc({ Persons: base().Persons, Loans: base().Loans }));
      }));

    it('a left-out child row that another record still references is a problem unless the file drops the reference', () =>
      withDb(dialect, async (t) => {
        await importText(t, doc(base()));
        const without = person(100, {
          Addresses: [address(101)],
          Communications: [{ Id: 102, RelatedAddressId: 101 }],
        });
        const problems = await importProblems(t, doc({ Persons: [without] }));
        assert.deepEqual(
          problems,
          [
            'Persons[0] (Id 100) BankAccounts: the entry with Id 103 is left out but still referenced by Loans 30 (BankAccountId)',
            'Persons[0] (Id 100) BankAccounts: the entry with Id 103 is left out but still referenced by PaymentModes 22 (BankAccountId)',
          ],
          problems.join('\n'),
        );
        assert.equal(await ownerOf(t, 'person_bank_accounts', 103), 100);
        // the same file dropping the references (later collections) is fine
        const b = base();
        await importText(
          t,
          doc({
            Persons: [without],
            Loans: [{ ...b.Loans[0], BankAccountId: null }],
            PaymentModes: [{ ...b.PaymentModes[0], BankAccountId: null }],
          }),
        );
        assert.equal(await count(t, 'person_bank_accounts'), 0);
      }));

    it('deleting a record whose child row another record references is a problem (like a referenced record)', () =>
      withDb(dialect, async (t) => {
        await importText(
          t,
          doc({
            ...base(),
            Persons: [...base().Persons, person(400, { BankAccounts: [{ Id: 401 }] })],
            Loans: [{ Id: 33, CompanyCodeId: 1, BankAccountId: 401 }],
          }),
        );
        const problems = await importProblems(t, doc({ Deletions: [{ Collection: 'Persons', Id: 400 }] }));
        assert.deepEqual(
          problems,
          ['Deletions[0] (Id 400): Persons 400: its BankAccounts are still referenced by Loans (bank_account_id)'],
          problems.join('\n'),
        );
        assert.equal(await count(t, 'persons'), 2);
        await importText(
          t,
          doc({ Loans: [{ Id: 33, CompanyCodeId: 1 }], Deletions: [{ Collection: 'Persons', Id: 400 }] }),
        );
        assert.equal(await count(t, 'persons'), 1);
        assert.equal(await count(t, 'person_bank_accounts'), 1);
      }));

    it('RelatedAddressId names an address of the same record', () =>
      withDb(dialect, async (t) => {
        await importText(t, doc(base()));
        const problems = await importProblems(
          t,
          doc({
            Persons: [
              person(200, { Addresses: [address(201)], Communications: [{ Id: 4, RelatedAddressId: 12345 }] }),
              person(100, {
                Addresses: [address(104)],
                Communications: [{ Id: 102, RelatedAddressId: 101 }],
                BankAccounts: [{ Id: 103 }],
              }),
              person(300, { Addresses: [address(301)], Communications: [{ Id: 302, RelatedAddressId: 104 }] }),
            ],
          }),
        );
        const message = (id: number) =>
          `unknown reference: no Addresses entry with Id ${id} in this record (it must name one of its own Addresses)`;
        assert.deepEqual(
          problems,
          [
            `Persons[0] (Id 200) Communications[0].RelatedAddressId: ${message(12345)}`,
            `Persons[1] (Id 100) Communications[0].RelatedAddressId: ${message(101)}`,
            `Persons[2] (Id 300) Communications[0].RelatedAddressId: ${message(104)}`,
          ],
          problems.join('\n'),
        );
        assert.equal(await ownerOf(t, 'person_addresses', 101), 100);
        assert.equal(await count(t, 'persons'), 1);
      }));

    it("demo data: a contractor's address and bank account can be neither taken by another person nor left out while referenced", () =>
      withDb(dialect, async (t) => {
        await loadDemo(t, { scale: 1, seed: 1 });
        type Rec = Record<string, unknown> & { Id: number };
        const first = await exportText(t);
        const data = JSON.parse(first) as { Persons: Rec[]; PaymentModes: Rec[]; Contractors: Rec[] };
        // a payment mode paid from the bank account of its agreement's contractor (person 720 / 725 / 727 at seed 1)
        const mode = data.PaymentModes.find((m) => m.BankAccountId !== undefined) as Rec;
        const holder = data.Persons.find((p) =>
          (p.BankAccounts as Rec[] | undefined)?.some((b) => b.Id === mode.BankAccountId),
        ) as Rec;
        const addressId = (holder.Addresses as Rec[])[0]?.Id;
        assert.ok(data.Contractors.some((c) => c.PersonId === holder.Id) && addressId !== undefined);
        const thief = person(9001, {
          Addresses: [{ ...address(0), Id: addressId }],
          BankAccounts: [{ Id: mode.BankAccountId }],
        });
        const { BankAccounts: _left, ...without } = holder;
        assert.deepEqual(await importProblems(t, doc({ Persons: [thief] })), [
          `Persons[0] (Id 9001) Addresses[0].Id: Id ${addressId} belongs to Persons Id ${holder.Id} (a child row keeps its parent; give the new row a new Id)`,
          `Persons[0] (Id 9001) BankAccounts[0].Id: Id ${String(mode.BankAccountId)} belongs to Persons Id ${holder.Id} (a child row keeps its parent; give the new row a new Id)`,
        ]);
        const problems = await importProblems(t, doc({ Persons: [without] }));
        assert.ok(
          problems.includes(
            `Persons[0] (Id ${holder.Id}) BankAccounts: the entry with Id ${String(mode.BankAccountId)} is left out but still referenced by PaymentModes ${mode.Id} (BankAccountId)`,
          ),
          problems.join('\n'),
        );
        // nothing was stored: the export is what it was
        assert.equal(await exportText(t), first);
      }));

    it('allocation groups, combined groups and bases share one id space', () =>
      withDb(dialect, async (t) => {
        await importText(t, doc(groups()));
        const g = groups();
        const problems = await importProblems(
          t,
          doc({
            AllocationGroups: [{ ...g.AllocationGroups[0], Id: 62 }],
            CombinedAllocationGroups: [{ Id: 60 }, { Id: 70 }],
            AllocationGroupBases: [{ ...g.AllocationGroupBases[0], Id: 70 }],
          }),
        );
        assert.deepEqual(
          problems,
          [
            'AllocationGroups[0] (Id 62) Id: Id 62 is taken by AllocationGroupBases 62: allocation groups, combined allocation groups and bases share one id space',
            'CombinedAllocationGroups[0] (Id 60) Id: Id 60 is taken by AllocationGroups 60: allocation groups, combined allocation groups and bases share one id space',
            'AllocationGroupBases[0] (Id 70) Id: Id 70 is taken by CombinedAllocationGroups 70: allocation groups, combined allocation groups and bases share one id space',
          ],
          problems.join('\n'),
        );
        assert.equal(await count(t, 'allocation_groups'), 1);
        assert.equal(await count(t, 'combined_allocation_groups'), 1);
        assert.equal(await count(t, 'allocation_group_bases'), 1);
        await importText(t, doc(groups())); // the same records again: no clash
      }));
  });
}
