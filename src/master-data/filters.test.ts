// Filters (alone and combined), paging, ledger scoping (persons included), permissions and parameter errors of the
// master-data endpoints, on the demo data set. Each filter's expected answer is computed from the full list.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { bearer, testApp, type TestApp } from '../../test/support/app.ts';
import { at, first } from '../../test/support/lists.ts';
import type { WireRecord } from '../../test/support/wire.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { loadDemo } from '../dataset/demo/load.ts';

const S = '/service/v1.2';
const DAY = '2022-06-15';
const active = (from: string | null, to: string | null) => from !== null && from <= DAY && (to === null || to >= DAY);

/** [endpoint, filter query, value from a sample record, predicate on records of the full list]. */
type Case = [
  string,
  string,
  (sample: WireRecord, all: Record<string, WireRecord[]>) => string,
  (r: WireRecord, v: string) => boolean,
];
const CASES: Case[] = [
  ['RentAccounting/LicenseAgreements', 'licenseAgreementId', (s) => String(s.Id), (r, v) => r.Id === Number(v)],
  ['RentAccounting/LicenseAgreements', 'licenseAgreementIdNum', (s) => s.IdNum, (r, v) => r.IdNum === v],
  ['RentAccounting/LicenseAgreements', 'useUnitId', (s) => String(s.UseUnit.Id), (r, v) => r.UseUnit.Id === Number(v)],
  [
    'RentAccounting/LicenseAgreements',
    'useUnitNumber',
    (s) => s.UseUnit.UseUnitNumber,
    (r, v) => r.UseUnit.UseUnitNumber === v,
  ],
  [
    'RentAccounting/LicenseAgreements',
    'economicUnitId',
    (s) => String(s.UseUnit.EconomicUnitId),
    (r, v) => r.UseUnit.EconomicUnitId === Number(v),
  ],
  [
    'RentAccounting/LicenseAgreements',
    'economicUnitIdNum',
    (s) => s.UseUnit.EconomicUnit,
    (r, v) => r.UseUnit.EconomicUnit === v,
  ],
  [
    'RentAccounting/LicenseAgreements',
    'licenseAgreementActiveOn',
    () => DAY,
    (r) => active(r.StartContract, r.EndOfContract),
  ],
  [
    'RentAccounting/LicenseAgreements',
    'licenseAgreementActiveOn',
    () => `${DAY} 12:34:56.789012`,
    (r) => active(r.StartContract, r.EndOfContract),
  ],
  [
    'RentAccounting/LicenseAgreements',
    'licenseAgreementActiveOn',
    () => `${DAY}T23:59:59Z`,
    (r) => active(r.StartContract, r.EndOfContract),
  ],
  [
    'RentAccounting/LicenseAgreements',
    'personId',
    (s, all) => String(all.Contractors?.find((c) => c.LicenseAgreementId === s.Id)?.Person.Id),
    (r, v) => r.__persons.includes(Number(v)),
  ],
  [
    'RentAccounting/LicenseAgreements',
    'personIdNum',
    (s, all) => String(all.Contractors?.find((c) => c.LicenseAgreementId === s.Id)?.Person.IdNum),
    (r, v) => r.__personNums.includes(v),
  ],
  ['CommercialInventory/UseUnits', 'useUnitId', (s) => String(s.Id), (r, v) => r.Id === Number(v)],
  ['CommercialInventory/UseUnits', 'useUnitNumber', (s) => s.IdNum, (r, v) => r.IdNum === v],
  [
    'CommercialInventory/UseUnits',
    'buildingLandIdNum',
    (s) => s.BuildingLand.IdNum,
    (r, v) => r.BuildingLand.IdNum === v,
  ],
  [
    'CommercialInventory/UseUnits',
    'economicUnitIdNum',
    (s) => s.EconomicUnit.IdNum,
    (r, v) => r.EconomicUnit.IdNum === v,
  ],
  ['CommercialInventory/UseUnits', 'ownerNumber', (s) => s.__ownerNumber, (r, v) => r.__ownerNumber === v],
  ['CommercialInventory/EconomicUnits', 'economicUnitIdNum', (s) => s.IdNum, (r, v) => r.IdNum === v],
  ['CommercialInventory/EconomicUnits', 'ownerNumber', (s) => s.Owner.OwnerNumber, (r, v) => r.Owner.OwnerNumber === v],
  ['CommercialInventory/EconomicUnits', 'managementIdNum', () => 'VW001', (r) => r.CompanyCode.Id === 1],
  ['CommercialInventory/BuildingLands', 'buildingLandType', () => 'Land', (r) => r.BuildingLandType === 'Land'],
  ['CommercialInventory/BuildingLands', 'buildingLandIdNum', (s) => s.IdNum, (r, v) => r.IdNum === v],
  [
    'CommercialInventory/BuildingLands',
    'economicUnitId',
    (s) => String(s.EconomicUnit.Id),
    (r, v) => r.EconomicUnit.Id === Number(v),
  ],
  ['PersonsRead/Persons', 'personId', (s) => String(s.Id), (r, v) => r.Id === Number(v)],
  ['PersonsRead/Persons', 'personIdNum', (s) => s.IdNum, (r, v) => r.IdNum === v],
  [
    'RentAccountingPersonDetails/Contractors',
    'licenseAgreementId',
    (s) => String(s.LicenseAgreementId),
    (r, v) => r.LicenseAgreementId === Number(v),
  ],
  [
    'RentAccountingPersonDetails/Contractors',
    'personId',
    (s) => String(s.Person.Id),
    (r, v) => r.Person.Id === Number(v),
  ],
  [
    'RentAccountingPersonDetails/Contractors',
    'contractualUseActiveOn',
    () => DAY,
    (r) => active(r.ContractualUseValidFrom, r.ContractualUseValidTo),
  ],
  [
    'RentAccountingPersonDetails/Contractors',
    'licenseAgreementActiveOn',
    () => DAY,
    (r) => active(r.StartContract, r.EndOfContract),
  ],
  [
    'RentAccountingPersonDetails/PaymentModes',
    'licenseAgreementIdNum',
    (s) => s.LicenseAgreement.IdNum,
    (r, v) => r.LicenseAgreement.IdNum === v,
  ],
  [
    'RentAccountingPersonDetails/PaymentModes',
    'paymentModeActiveOn',
    () => DAY,
    (r) => active(r.ActiveFrom, r.ActiveTo),
  ],
  [
    'RentAccounting/ContractPositions',
    'licenseAgreementIdNum',
    (s) => s.LicenseAgreement.IdNum,
    (r, v) => r.LicenseAgreement.IdNum === v,
  ],
  ['RentAccounting/ContractPositions', 'contractPositionsActiveOn', () => DAY, (r) => active(r.ActiveFrom, r.ActiveTo)],
  ['CommercialInventory/Owners', 'ownerNumber', (s) => s.OwnerNumber, (r, v) => r.OwnerNumber === v],
  ['CommercialInventory/Managements', 'managementIdNum', (s) => s.IdNum, (r, v) => r.IdNum === v],
  ['CommercialInventory/Department', 'departmentName', (s) => s.Name, (r, v) => r.Name === v],
  [
    'CommercialInventory/UseUnit/Jurisdiction',
    'economicUnitId',
    (s) => String(s.UseUnit.EconomicUnitId),
    (r, v) => r.UseUnit.EconomicUnitId === Number(v),
  ],
];
const INCLUDE: Record<string, string> = { 'CommercialInventory/EconomicUnits': '&includeCompanyCode=true' };

for (const dialect of DIALECTS) {
  describe(`master data filters, paging and access [${dialect}]`, () => {
    let t: TestApp;
    let token: string;
    const all: Record<string, WireRecord[]> = {};
    const call = (url: string, auth = token) => t.app.inject({ url, headers: bearer(auth) });
    /** Every record, paged as clients do (limit=100, offset += 100 until a short page). */
    const everything = async (path: string, query = '', auth = token) => {
      const out: WireRecord[] = [];
      for (let offset = 0; ; offset += 100) {
        const res = await call(`${S}/${path}?limit=100&offset=${offset}&showNullValues=true${query}`, auth);
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json<WireRecord[]>();
        out.push(...page);
        if (page.length < 100) return out;
      }
    };
    before(async () => {
      t = await testApp(dialect);
      await loadDemo(t.database, { scale: 1, seed: 11 });
      token = await t.login();
      for (const path of new Set(CASES.map((c) => c[0]))) all[path] = await everything(path, INCLUDE[path] ?? '');
      all.Contractors = all['RentAccountingPersonDetails/Contractors'] ?? [];
      const owners = new Map((all['CommercialInventory/EconomicUnits'] ?? []).map((e) => [e.Id, e.Owner.OwnerNumber]));
      for (const u of all['CommercialInventory/UseUnits'] ?? []) u.__ownerNumber = owners.get(u.EconomicUnit.Id);
      for (const l of all['RentAccounting/LicenseAgreements'] ?? []) {
        const cs = all.Contractors.filter((c) => c.LicenseAgreementId === l.Id);
        l.__persons = cs.map((c) => c.Person.Id);
        l.__personNums = cs.map((c) => c.Person.IdNum);
      }
    });
    after(() => t.close());
    const strip = (r: WireRecord) => Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('__')));

    for (const [path, name, valueOf, pred] of CASES) {
      it(`${path}: ${name} alone`, async () => {
        const list = all[path] ?? [];
        const sample = at(list, Math.floor(list.length / 3));
        const value = valueOf(sample, all);
        const expected = list.filter((r) => pred(r, value)).map(strip);
        assert.ok(expected.length > 0 && expected.length <= list.length);
        const got = await everything(path, `&${name}=${encodeURIComponent(value)}${INCLUDE[path] ?? ''}`);
        assert.deepEqual(got, expected);
      });
    }

    it('filters combine with AND; an unknown id answers []', async () => {
      const list = all['RentAccounting/LicenseAgreements'] ?? [];
      const sample = at(
        list.filter((l) => active(l.StartContract, l.EndOfContract)),
        5,
      );
      const both = await everything(
        'RentAccounting/LicenseAgreements',
        `&economicUnitIdNum=${sample.UseUnit.EconomicUnit}&licenseAgreementActiveOn=${DAY}`,
      );
      assert.deepEqual(
        both.map((r) => r.Id),
        list
          .filter(
            (r) => r.UseUnit.EconomicUnit === sample.UseUnit.EconomicUnit && active(r.StartContract, r.EndOfContract),
          )
          .map((r) => r.Id),
      );
      assert.deepEqual(await everything('RentAccounting/LicenseAgreements', '&licenseAgreementId=99999999'), []);
      assert.deepEqual(await everything('PersonsRead/Persons', '&personIdNum=nobody'), []);
    });

    it('paging: pages of any size add up to the complete v1.0 list; v1.0 honours limit and offset', async () => {
      for (const path of [
        'RentAccounting/LicenseAgreements',
        'CommercialInventory/UseUnits',
        'PersonsRead/Persons',
        'RentAccountingPersonDetails/Contractors',
      ]) {
        const whole = (await call(`/service/v1.0/${path}`)).json<WireRecord[]>();
        assert.deepEqual(
          whole.map((r) => r.Id),
          (all[path] ?? (await everything(path))).map((r) => r.Id),
          path,
        );
        const page = (await call(`/service/v1.0/${path}?limit=7&offset=10`)).json<WireRecord[]>();
        assert.deepEqual(
          page.map((r) => r.Id),
          whole.slice(10, 17).map((r) => r.Id),
          path,
        );
      }
    });

    it('a one-ledger key sees only its ledger, and only the persons linked to it', async () => {
      const key1 = await t.apiKey([1]);
      const key2 = await t.apiKey([2]);
      const units = await everything('CommercialInventory/UseUnits', `&apiKey=${key1}`);
      assert.ok(units.length > 0 && units.every((u) => u.CompanyCode.Id === 1));
      const ledgerUnits = new Set(units.map((u) => u.Id));
      const agreements = await everything('RentAccounting/LicenseAgreements', `&apiKey=${key1}`);
      assert.deepEqual(
        agreements.map((a) => a.Id),
        (all['RentAccounting/LicenseAgreements'] ?? []).filter((a) => ledgerUnits.has(a.UseUnit.Id)).map((a) => a.Id),
      );
      const contractors1 = await everything('RentAccountingPersonDetails/Contractors', `&apiKey=${key1}`);
      const contractors2 = await everything('RentAccountingPersonDetails/Contractors', `&apiKey=${key2}`);
      const persons1 = new Set((await everything('PersonsRead/Persons', `&apiKey=${key1}`)).map((p) => p.Id));
      assert.ok(contractors1.every((c) => persons1.has(c.Person.Id) && ledgerUnits.has(c.UseUnit.Id)));
      assert.ok(contractors2.length > 0 && contractors2.every((c) => !persons1.has(c.Person.Id)));
      assert.ok(persons1.size < (all['PersonsRead/Persons'] ?? []).length);
      const other = first(contractors2).Person.Id as number;
      assert.deepEqual((await call(`${S}/PersonsRead/Persons?personId=${other}&apiKey=${key1}`)).json(), []);
      assert.equal((await call(`/service/v1.0/PersonsRead/Person/${other}?apiKey=${key1}`)).statusCode, 404);
      // ids no record can have are unknown ids too (decisions §3: 404 unknown id in the path)
      for (const id of [0, -1]) assert.equal((await call(`/service/v1.0/PersonsRead/Person/${id}`)).statusCode, 404);
    });

    it("a management's ledgers are only those the caller can see", async () => {
      const ledgersOf = async (query: string) =>
        (await everything('CommercialInventory/Managements', `&includeCompanyCodes=true${query}`)).map((m) => ({
          Id: m.Id as number,
          codes: (m.CompanyCodes as { Id: number }[]).map((c) => c.Id),
        }));
      const every = await ledgersOf('');
      assert.ok(
        every.some((m) => m.codes.includes(1) && m.codes.some((c) => c !== 1)),
        'the demo data has a management of ledger 1 and others',
      );
      const seen = await ledgersOf(`&apiKey=${await t.apiKey([1])}`);
      assert.deepEqual(
        seen,
        every.filter((m) => m.codes.includes(1)).map((m) => ({ Id: m.Id, codes: [1] })),
      );
    });

    it('nested officials and departments of other ledgers are not shown (data that links across ledgers)', async () => {
      const db = t.database.db;
      // An official with jurisdictions in ledger 2 only, made a member of a department of a ledger-1-only management;
      // and a ledger-2 jurisdiction pointing at that department (the import accepts such links).
      const onlyIn = (ledger: number) =>
        db
          .selectFrom('management_company_codes as mc')
          .select('mc.management_id')
          .where('mc.company_code_id', '=', ledger)
          .where('mc.management_id', 'not in', (eb) =>
            eb.selectFrom('management_company_codes').select('management_id').where('company_code_id', '!=', ledger),
          );
      const department = await db
        .selectFrom('departments')
        .select('id')
        .where('management_id', 'in', onlyIn(1))
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const official = await db
        .selectFrom('responsible_officials as ro')
        .select(['ro.id', 'ro.person_id'])
        .where('ro.id', 'in', (eb) =>
          eb.selectFrom('jurisdictions').select('responsible_official_id').where('company_code_id', '=', 2),
        )
        .where('ro.id', 'not in', (eb) =>
          eb
            .selectFrom('jurisdictions')
            .select('responsible_official_id')
            .where('company_code_id', '!=', 2)
            .where('responsible_official_id', 'is not', null),
        )
        .orderBy('ro.id')
        .executeTakeFirstOrThrow();
      const jurisdiction = await db
        .selectFrom('jurisdictions')
        .select(['id', 'department_id', 'economic_unit_id', 'use_unit_id'])
        .where('company_code_id', '=', 2)
        .where('use_unit_id', 'is', null)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('department_officials')
        .values({ department_id: department.id, responsible_official_id: official.id })
        .execute();
      await db
        .updateTable('jurisdictions')
        .set({ department_id: department.id })
        .where('id', '=', jurisdiction.id)
        .execute();
      try {
        const [key1, key2] = [await t.apiKey([1]), await t.apiKey([2])];
        const members = async (key: string) =>
          first(
            (await call(`${S}/CommercialInventory/Department?departmentId=${department.id}&apiKey=${key}`)).json<
              WireRecord[]
            >(),
          ).ResponsibleOfficials.map((o: { Id: number }) => o.Id);
        assert.ok(!(await members(key1)).includes(official.id), 'ledger 1 does not see the ledger-2 official');
        assert.ok((await members(await t.apiKey('all'))).includes(official.id), 'an all-ledgers key does');
        const entry = async (key: string) =>
          first(
            (
              await call(
                `${S}/CommercialInventory/EconomicUnit/Jurisdiction?economicUnitId=${jurisdiction.economic_unit_id}&showNullValues=true&apiKey=${key}`,
              )
            ).json<WireRecord[]>(),
          ).EconomicUnitJurisdictionList.find((j: { Id: number }) => j.Id === jurisdiction.id);
        assert.equal((await entry(key2)).Department, null, 'ledger 2 does not see the ledger-1 department');
        assert.equal((await entry(await t.apiKey('all'))).Department.Id, department.id);
      } finally {
        await db
          .deleteFrom('department_officials')
          .where('department_id', '=', department.id)
          .where('responsible_official_id', '=', official.id)
          .execute();
        await db
          .updateTable('jurisdictions')
          .set({ department_id: jurisdiction.department_id })
          .where('id', '=', jurisdiction.id)
          .execute();
      }
    });

    it('403 names the missing permission; 400 names the invalid parameter', async () => {
      const rentOnly = await t.login({ permissions: [PERMISSIONS.rentAccountingRead] });
      const persons = await call(`${S}/PersonsRead/Persons`, rentOnly);
      assert.equal(persons.statusCode, 403);
      assert.match(persons.body, /Personen lesen/);
      const contractors = await call(`${S}/RentAccountingPersonDetails/Contractors`, rentOnly);
      assert.equal(contractors.statusCode, 403);
      assert.match(contractors.body, /Personen lesen/);
      assert.match((await call(`${S}/CommercialInventory/UseUnits`, rentOnly)).body, /Objektdaten lesen/);
      assert.equal((await call(`${S}/RentAccounting/LicenseAgreements`, rentOnly)).statusCode, 200);
      for (const [url, key] of [
        [`${S}/RentAccounting/LicenseAgreements?licenseAgreementId=abc`, 'licenseAgreementId'],
        [`${S}/RentAccounting/LicenseAgreements?licenseAgreementActiveOn=tomorrow`, 'licenseAgreementActiveOn'],
        [`${S}/RentAccountingPersonDetails/Contractors?contractualUseActiveOn=2024-02-30`, 'contractualUseActiveOn'],
        [
          `${S}/RentAccountingPersonDetails/Contractors?contractualUseActiveOn=2026-11-24T25:00:00`,
          'contractualUseActiveOn',
        ],
        [
          `${S}/RentAccountingPersonDetails/Contractors?contractualUseActiveOn=2026-11-24T12:60`,
          'contractualUseActiveOn',
        ],
        [
          `${S}/RentAccounting/LicenseAgreements?licenseAgreementActiveOn=2026-11-24 12:00:61`,
          'licenseAgreementActiveOn',
        ],
        [
          `${S}/RentAccounting/LicenseAgreements?licenseAgreementActiveOn=2026-11-24T12:00+24:00`,
          'licenseAgreementActiveOn',
        ],
        [`${S}/CommercialInventory/BuildingLands?buildingLandType=House`, 'buildingLandType'],
        [`${S}/CommercialInventory/UseUnits?limit=101`, 'limit'],
        // flags without an effect on these records are checked like every flag
        [`${S}/CommercialInventory/BuildingLands?includeAdditionalField=yes`, 'includeAdditionalField'],
        [`${S}/CommercialInventory/EconomicUnits?includeAdditionalField=yes`, 'includeAdditionalField'],
        [`${S}/CommercialInventory/UseUnits?includeMarketingTags=yes`, 'includeMarketingTags'],
        ['/service/v1.0/CommercialInventory/UseUnits?offset=-1', 'offset'],
      ]) {
        const res = await call(url as string);
        assert.equal(res.statusCode, 400, url);
        assert.deepEqual(Object.keys(res.json()), [key], url);
      }
      // every bad parameter in one map, the date that names no calendar day included
      const several = await call(
        `${S}/RentAccountingPersonDetails/Contractors?licenseAgreementActiveOn=2025-02-30&contractualUseActiveOn=abc&limit=0`,
      );
      assert.equal(several.statusCode, 400);
      assert.deepEqual(Object.keys(several.json()).sort(), [
        'contractualUseActiveOn',
        'licenseAgreementActiveOn',
        'limit',
      ]);
      assert.deepEqual(several.json().licenseAgreementActiveOn, [
        "The value '2025-02-30' is not a valid date for licenseAgreementActiveOn: no such calendar day.",
      ]);
      const twice = await call(`${S}/CommercialInventory/UseUnits?useUnitNumber=a&UseUnitNumber=b`);
      assert.deepEqual(twice.json(), {
        useUnitNumber: ["useUnitNumber is given more than once ('a', 'b'); give it once."],
      });
      for (const url of [
        `${S}/CommercialInventory/BuildingLands?includeAdditionalField=true`,
        `${S}/CommercialInventory/UseUnits?includeMarketingTags=false`,
      ]) {
        const flagged = await call(url);
        assert.equal(flagged.statusCode, 200, flagged.body);
        assert.equal(flagged.body, (await call(url.split('?')[0]!)).body, 'the flag changes nothing');
      }
      const type = await call(`${S}/CommercialInventory/BuildingLands?buildingLandType=building`);
      assert.deepEqual(type.json(), {
        buildingLandType: ["The value 'building' is not valid for buildingLandType: must be one of Building, Land."],
      });
    });
  });
}
