// Owners v1.1 and v1.0, Managements v1.0 agree with the v1.2 records of the same owners and managements (demo data);
// version 1.0 honours limit/offset and answers the complete list without limit. Fields: fields.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../../test/support/db.ts';
import { bearer, testApp, type TestApp } from '../../../test/support/app.ts';
import type { WireRecord } from '../../../test/support/wire.ts';
import { loadDemo } from '../../dataset/demo/load.ts';

for (const dialect of DIALECTS) {
  describe(`Owners and Managements v1.0/v1.1 [${dialect}]`, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await testApp(dialect);
      await loadDemo(t.database, { scale: 1, seed: 9 });
      token = await t.login();
    });
    after(() => t.close());
    const get = async (url: string) => {
      const res = await t.app.inject({ url, headers: bearer(token) });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      return res.json<WireRecord[]>();
    };

    it('v1.1 and v1.0 Owners agree with v1.2', async () => {
      const inc = 'includeMainAddress=true&includePersonAddresses=true&showNullValues=true';
      const o12 = await get(`/service/v1.2/CommercialInventory/Owners?limit=100&${inc}`);
      assert.ok(o12.length > 3);
      assert.deepEqual(await get(`/service/v1.1/CommercialInventory/Owners?limit=100&${inc}`), o12);
      const o10 = await get('/service/v1.0/CommercialInventory/Owners');
      assert.deepEqual(
        o10.map((o) => [o.Id, o.OwnerNumber, o.IsCondominium, o.PersonId, o.PersonNumber, o.Zip, o.Town, o.Street]),
        o12.map((o) => [
          o.Id,
          o.OwnerNumber,
          o.IsCondominium,
          o.Person.Id,
          o.Person.IdNum,
          o.DefaultAddress.Zip,
          o.DefaultAddress.Town,
          o.DefaultAddress.Street,
        ]),
      );
      assert.deepEqual(await get('/service/v1.0/CommercialInventory/Owners?limit=2&offset=1'), o10.slice(1, 3));
      const one = o10[1] as WireRecord;
      assert.deepEqual(await get(`/service/v1.0/CommercialInventory/Owners?ownerNumber=${String(one.OwnerNumber)}`), [
        one,
      ]);
    });

    it('v1.0 Managements agree with v1.2', async () => {
      const m12 = await get('/service/v1.2/CommercialInventory/Managements?limit=100&showNullValues=true');
      const m10 = await get('/service/v1.0/CommercialInventory/Managements');
      assert.ok(m10.length > 0);
      assert.deepEqual(
        m10.map((m) => [m.Id, m.IdNum, m.Name, m.AdministrationTypeId, m.AdministrationType, m.ParentManagementId]),
        m12.map((m) => [
          m.Id,
          m.IdNum,
          m.Name,
          m.AdministrationType.Id,
          m.AdministrationType.Name,
          m.ParentManagementId,
        ]),
      );
      assert.deepEqual(
        m10.map((m) => m.PersonShortName),
        m12.map((m) => m.Person.Shortname),
      );
      const one = m10[0] as WireRecord;
      assert.deepEqual(
        await get(`/service/v1.0/CommercialInventory/Managements?managementIdNum=${String(one.IdNum)}`),
        [one],
      );
      const key = await t.apiKey([1]);
      const scoped = await get(`/service/v1.0/CommercialInventory/Owners?apiKey=${key}`);
      const all = await get('/service/v1.2/CommercialInventory/Owners?limit=100');
      assert.ok(scoped.length > 0 && scoped.length < all.length && scoped.every((o) => o.CompanyNameId === 1));
    });
  });
}
