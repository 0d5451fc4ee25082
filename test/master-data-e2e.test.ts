// End to end over a real socket: a client pages through every master-data list the way vendor clients do (limit=100,
// offset += 100 until a short page) and finds the relationships holding both ways.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { DIALECTS } from './support/db.ts';
import { testApp, type TestApp } from './support/app.ts';
import type { WireRecord } from './support/wire.ts';
import { loadDemo } from '../src/dataset/demo/load.ts';

const LISTS = [
  'v1.2/RentAccounting/LicenseAgreements',
  'v1.0/RentAccounting/LicenseAgreements',
  'v1.2/CommercialInventory/UseUnits',
  'v1.2/CommercialInventory/EconomicUnits',
  'v1.2/CommercialInventory/BuildingLands',
  'v1.2/PersonsRead/Persons',
  'v1.2/RentAccountingPersonDetails/Contractors',
  'v1.1/RentAccountingPersonDetails/Contractors',
  'v1.0/RentAccountingPersonDetails/Contractors',
  'v1.2/RentAccountingPersonDetails/PaymentModes',
  'v1.2/RentAccounting/ContractAgreement/IndexRentalAgreement',
];

for (const dialect of DIALECTS) {
  describe(`a client reads all master data over HTTP [${dialect}]`, () => {
    let t: TestApp;
    let base: string;
    let headers: Record<string, string>;
    const lists: Record<string, WireRecord[]> = {};
    before(async () => {
      t = await testApp(dialect);
      await loadDemo(t.database, { scale: 2, seed: 4 });
      headers = { authorization: `Bearer ${await t.login()}`, accept: 'text/plain' };
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/openwowi`;
      const key = await t.apiKey('all');
      for (const list of LISTS) {
        const out: WireRecord[] = [];
        for (let offset = 0, pages = 0; ; offset += 100, pages++) {
          assert.ok(pages < 1000, `${list} ends`);
          const res = await fetch(`${base}/${list}?apiKey=${key}&limit=100&offset=${offset}&showNullValues=true`, {
            headers,
          });
          assert.equal(res.status, 200, list);
          const page = (await res.json()) as WireRecord[];
          out.push(...page);
          if (page.length < 100) break;
        }
        lists[list] = out;
      }
    });
    after(() => t.close());
    const byId = (list: string) => new Map((lists[list] ?? []).map((r) => [r.Id as number, r]));

    it('every list is complete, ordered by Id and without duplicates', () => {
      for (const list of LISTS) {
        const ids = (lists[list] ?? []).map((r) => r.Id as number);
        assert.ok(
          ids.length > (/EconomicUnits|ContractAgreement/.test(list) ? 0 : 100),
          `${list}: ${ids.length} records`,
        );
        assert.deepEqual(
          ids,
          [...ids].sort((a, b) => a - b),
          list,
        );
        assert.equal(new Set(ids).size, ids.length, list);
      }
      assert.deepEqual(
        lists['v1.0/RentAccounting/LicenseAgreements']?.map((r) => r.Id),
        lists['v1.2/RentAccounting/LicenseAgreements']?.map((r) => r.Id),
      );
    });

    it("a license agreement's use unit is a UseUnits record; a use unit's building and economic unit are records too", () => {
      const useUnits = byId('v1.2/CommercialInventory/UseUnits');
      const buildings = byId('v1.2/CommercialInventory/BuildingLands');
      const units = byId('v1.2/CommercialInventory/EconomicUnits');
      for (const la of lists['v1.2/RentAccounting/LicenseAgreements'] ?? []) {
        const uu = useUnits.get(la.UseUnit.Id);
        assert.ok(uu, `use unit ${la.UseUnit.Id} of agreement ${la.Id}`);
        assert.equal(la.UseUnit.UseUnitNumber, uu.IdNum);
        assert.equal(la.UseUnit.EconomicUnit, uu.EconomicUnit.IdNum);
        assert.equal(la.UseUnit.BuildingLandId, uu.BuildingLand.Id);
      }
      for (const uu of useUnits.values()) {
        const b = buildings.get(uu.BuildingLand.Id);
        assert.ok(b, `building ${uu.BuildingLand.Id} of use unit ${uu.Id}`);
        assert.equal(b.IdNum, uu.BuildingLand.IdNum);
        assert.equal(b.BuildingLandType, 'Building');
        assert.equal(b.EconomicUnit.Id, uu.EconomicUnit.Id);
        const eu = units.get(uu.EconomicUnit.Id);
        assert.ok(eu, `economic unit ${uu.EconomicUnit.Id}`);
        assert.equal(eu.IdNum, uu.EconomicUnit.IdNum);
        assert.equal(eu.CompanyCode?.Id ?? uu.CompanyCode.Id, uu.CompanyCode.Id);
      }
    });

    it("a contractor's person is a Persons record and its agreement a LicenseAgreements record", () => {
      const persons = byId('v1.2/PersonsRead/Persons');
      const agreements = byId('v1.2/RentAccounting/LicenseAgreements');
      for (const c of lists['v1.2/RentAccountingPersonDetails/Contractors'] ?? []) {
        const p = persons.get(c.Person.Id);
        assert.ok(p, `person ${c.Person.Id} of contractor ${c.Id}`);
        assert.equal(p.IdNum, c.Person.IdNum);
        assert.ok(c.DefaultAddress, `contractor ${c.Id} has a DefaultAddress`);
        const la = agreements.get(c.LicenseAgreementId);
        assert.ok(la, `agreement ${c.LicenseAgreementId}`);
        assert.equal(la.IdNum, c.LicenseAgreement);
        assert.equal(la.RestrictionOfUse.IsVacancy, false, 'vacancies have no contractors');
      }
      for (const pm of lists['v1.2/RentAccountingPersonDetails/PaymentModes'] ?? [])
        assert.equal(agreements.get(pm.LicenseAgreement.Id)?.IdNum, pm.LicenseAgreement.IdNum);
    });

    it("a contract agreement's LicenseAgreement is the license agreement with that IdNum", () => {
      const agreements = byId('v1.2/RentAccounting/LicenseAgreements');
      for (const ca of lists['v1.2/RentAccounting/ContractAgreement/IndexRentalAgreement'] ?? []) {
        const la = agreements.get(ca.LicenseAgreement.Id);
        assert.ok(la, `license agreement ${ca.LicenseAgreement.Id}`);
        assert.equal(ca.LicenseAgreement.IdNum, la.IdNum);
        assert.equal(ca.LicenseAgreement.UseUnit.UseUnitNumber, la.UseUnit.UseUnitNumber);
      }
    });
  });
}
