// Every master-data endpoint answers its records with the fields of vendor-master-data.md (transcribed independently in
// test/fixtures/master-data-wire-shapes.ts), keeps the keys clients need without showNullValues, answers catalogues
// whole, and version 1.0 and 1.2 of one record agree. Data: the demo data set.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { bearer, testApp, type TestApp } from '../../test/support/app.ts';
import { first } from '../../test/support/lists.ts';
import type { WireRecord } from '../../test/support/wire.ts';
import { checkShape, type Shape } from '../../test/fixtures/rent-accounting-wire-shapes.ts';
import { CATALOGUES, RESOURCES } from '../../test/fixtures/master-data-wire-shapes.ts';
import { loadDemo } from '../dataset/demo/load.ts';
import { MASTER_ROUTES } from './index.ts';

/** The fields the shape names exist with its types (a v1.0 record is only known in part). */
function checkSubset(value: unknown, shape: Shape, path = '$'): void {
  if (value === null) return;
  if (Array.isArray(shape)) {
    assert.ok(Array.isArray(value), `${path}: expected an array`);
    value.forEach((v, i) => checkSubset(v, shape[0], `${path}[${i}]`));
  } else if (typeof shape === 'object') {
    for (const [k, s] of Object.entries(shape)) {
      assert.ok(k in (value as object), `${path}.${k} is present`);
      checkSubset((value as WireRecord)[k], s, `${path}.${k}`);
    }
  } else checkShape(value, shape, path);
}

for (const dialect of DIALECTS) {
  describe(`master data fields [${dialect}]`, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await testApp(dialect);
      await loadDemo(t.database, { scale: 1, seed: 5 });
      token = await t.login();
    });
    after(() => t.close());
    const get = async (url: string) => {
      const res = await t.app.inject({ url, headers: bearer(token) });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      return res.json<WireRecord[]>();
    };

    it('every complete version 1.0 list is its pages byte for byte (decimals as numbers, as on a page)', async () => {
      const lists = MASTER_ROUTES.filter((r) => r.listing === 'v1.0' && !r.url.includes(':'));
      assert.ok(lists.length >= 5);
      for (const route of lists) {
        const url = `/service${route.url}`;
        const whole = await t.app.inject({ url, headers: bearer(token) });
        assert.equal(whole.statusCode, 200, `${url}: ${whole.body.slice(0, 200)}`);
        const records: string[] = [];
        for (let offset = 0; ; offset += 100) {
          const page = await t.app.inject({ url: `${url}?limit=100&offset=${offset}`, headers: bearer(token) });
          assert.equal(page.statusCode, 200, page.body);
          if (page.body !== '[]') records.push(page.body.slice(1, -1));
          if (page.json<unknown[]>().length < 100) break;
        }
        assert.ok(records.length > 0, `${url} has records`);
        assert.equal(whole.body, `[${records.join(',')}]`, url);
      }
    });

    for (const [name, r] of Object.entries(RESOURCES)) {
      it(`${name}: every field of the spec with its type; the keys clients need even without showNullValues`, async () => {
        const include = r.include ? `&${r.include}` : '';
        const shown = await get(`${r.url}?showNullValues=true&limit=100${include}`);
        assert.ok(shown.length > 0, `${name} has records`);
        for (const record of shown) {
          if (r.partial) checkSubset(record, r.shape);
          else checkShape(record, r.shape);
        }
        const hidden = await get(`${r.url}?limit=100${include}`);
        assert.deepEqual(
          hidden.map((x) => x.Id),
          shown.map((x) => x.Id),
        );
        for (const record of hidden)
          for (const key of r.needed) assert.ok(key in record, `${name} ${String(record.Id)}: ${key} is present`);
        for (const key of r.needed)
          assert.ok(
            shown.some((x) => x[key] !== null && x[key] !== undefined),
            `${name}: the demo fills ${key} in some record`,
          );
      });
    }

    for (const [url, shape] of Object.entries(CATALOGUES)) {
      it(`${url}: the whole catalogue, whatever limit and offset say`, async () => {
        const all = await get(url);
        assert.ok(all.length > 1);
        for (const e of all) checkShape(e, shape);
        for (const q of [
          ...['limit=1&offset=1', 'limit=1000', 'limit=0', 'offset=-1', 'limit=abc&offset=1.5'],
          ...['limit=1&limit=2', 'limit=1&Limit=2&offset=1&offset=2', 'limit=%00'],
        ])
          assert.deepEqual(await get(`${url}?${q}`), all, q);
      });
    }

    it('the vendor ids clients hard-code: Gender 3, CommunicationType 1/3/5, ContractorType 1/2/3/1003', async () => {
      const types = await get('/service/v1.0/RentAccountingPersonDetails/ContractorTypes');
      assert.deepEqual(
        types.map((x) => x.Id),
        [1, 2, 3, 1003],
      );
      const persons = await get('/service/v1.2/PersonsRead/Persons?limit=100&includeCommunication=true');
      const ids = new Set(
        persons.flatMap((p) => (p.Communications as WireRecord[]).map((c) => c.CommunicationType.Id)),
      );
      assert.deepEqual([...ids].sort(), [1, 3, 5]);
      assert.ok(persons.filter((p) => p.IsNaturalPerson).every((p) => p.NaturalPerson.Gender.Id !== 3));
      assert.ok(persons.filter((p) => !p.IsNaturalPerson).every((p) => p.NaturalPerson === null));
    });

    it('the demo fills every key of a contract position type (W needs all keys), NodeId included', async () => {
      const url = '/service/v1.2/RentAccounting/ContractPositions?limit=100&includeContractPositionTypeDetails=true';
      const positions = await get(url);
      assert.ok(positions.length > 0);
      for (const p of positions)
        for (const [key, value] of Object.entries(p.ContractPositionType as WireRecord))
          assert.notEqual(value, null, `ContractPosition ${String(p.Id)}: ContractPositionType.${key} is filled`);
      assert.ok(positions.every((p) => Number.isInteger(p.ContractPositionType.NodeId)));
    });

    it('version 1.0 and 1.2 of one record agree', async () => {
      const pairs: [string, string, (r: WireRecord) => unknown][] = [
        [
          'RentAccounting/LicenseAgreements',
          '',
          (r) => [r.Id, r.IdNum, r.UseUnit.UseUnitNumber, r.StartContract, r.EndOfContract],
        ],
        ['CommercialInventory/UseUnits', '', (r) => [r.Id, r.IdNum, r.EstateAddress.StreetComplete, r.LivingSpace]],
        ['CommercialInventory/EconomicUnits', '', (r) => [r.Id, r.IdNum, r.Name, r.ConstructionYear]],
        ['CommercialInventory/BuildingLands', '', (r) => [r.Id, r.IdNum, r.BuildingLandType, r.EntryDate]],
        ['PersonsRead/Persons', '&includeAddress=true', (r) => [r.Id, r.IdNum, r.Name, r.Addresses[0].StreetComplete]],
      ];
      for (const [path, extra, key] of pairs) {
        const v12 = await get(`/service/v1.2/${path}?limit=50&showNullValues=true${extra}`);
        const v10 = await get(`/service/v1.0/${path}?limit=50${extra}`);
        assert.deepEqual(v10.map(key), v12.map(key), path);
      }
      const c12 = await get('/service/v1.2/RentAccountingPersonDetails/Contractors?limit=50&showNullValues=true');
      const c11 = await get('/service/v1.1/RentAccountingPersonDetails/Contractors?limit=50&showNullValues=true');
      const c10 = await get('/service/v1.0/RentAccountingPersonDetails/Contractors?limit=50');
      assert.deepEqual(c11, c12);
      assert.deepEqual(
        c10.map((c) => [c.Id, c.LicenseAgreement, c.PersonId, c.PersonIdNum, c.ContractorTypeId, c.UseUnit]),
        c12.map((c) => [
          c.Id,
          c.LicenseAgreement,
          c.Person.Id,
          c.Person.IdNum,
          c.ContractorType.Id,
          c.UseUnit.UseUnitNumber,
        ]),
      );
      // includePersonBankAccounts fills the bank accounts in version 1.0 too, under 1.0's name (PersonBankAccounts)
      const banks = '&includePersonBankAccounts=true';
      const b12 = await get(`/service/v1.2/RentAccountingPersonDetails/Contractors?limit=50${banks}`);
      const b10 = await get(`/service/v1.0/RentAccountingPersonDetails/Contractors?limit=50${banks}`);
      assert.ok(b12.some((c) => c.Person.BankAccounts.length > 0));
      assert.deepEqual(
        b10.map((c) => c.PersonBankAccounts.map((a: WireRecord) => a.Iban)),
        b12.map((c) => c.Person.BankAccounts.map((a: WireRecord) => a.Iban)),
      );
      assert.ok(c10.every((c) => c.PersonBankAccounts === null));
      // every contractor of every version carries a non-null DefaultAddress, the person's main address (decisions §7)
      for (const c of [...c10, ...c11, ...c12])
        assert.ok(c.DefaultAddress, `contractor ${String(c.Id)}: DefaultAddress`);
      assert.deepEqual(
        c10.map((c) => [c.DefaultAddress.Street, c.DefaultAddress.Zip, c.DefaultAddress.Town]),
        c12.map((c) => [c.DefaultAddress.Street, c.DefaultAddress.Zip, c.DefaultAddress.Town]),
      );
      const person = first(await get('/service/v1.0/PersonsRead/Persons?limit=1&includeAddress=true'));
      const single = await t.app.inject({
        url: `/service/v1.0/PersonsRead/Person/${String(person.Id)}?includeAddress=true`,
        headers: bearer(token),
      });
      assert.deepEqual(single.json(), person);
      const missing = await t.app.inject({ url: '/service/v1.0/PersonsRead/Person/999999', headers: bearer(token) });
      assert.equal(missing.statusCode, 404);
    });

    it('StreetComplete and HouseNumberComplete are never null: empty text without street or house number', async () => {
      const address = await t.database.db
        .selectFrom('person_addresses')
        .select(['id', 'person_id', 'street', 'house_number', 'house_number_addition'])
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const shown = async () => {
        const [person] = await get(
          `/service/v1.2/PersonsRead/Persons?personId=${address.person_id}&includeAddress=true`,
        );
        const a = (person!.Addresses as WireRecord[]).find((x) => x.Id === address.id)!;
        return [a.StreetComplete, a.HouseNumberComplete];
      };
      try {
        await t.database.db
          .updateTable('person_addresses')
          .set({ street: null, house_number: null, house_number_addition: null })
          .where('id', '=', address.id)
          .execute();
        assert.deepEqual(await shown(), ['', '']);
        await t.database.db
          .updateTable('person_addresses')
          .set({ street: null, house_number: '7', house_number_addition: 'a' })
          .where('id', '=', address.id)
          .execute();
        assert.deepEqual(await shown(), ['7a', '7a']);
        await t.database.db
          .updateTable('person_addresses')
          .set({ street: 'Hauptstr.', house_number: null, house_number_addition: 'a' })
          .where('id', '=', address.id)
          .execute();
        assert.deepEqual(await shown(), ['Hauptstr.', ''], 'an addition without a house number is not shown');
        await t.database.db
          .updateTable('person_addresses')
          .set({ street: 'Hauptstr.', house_number: null, house_number_addition: null })
          .where('id', '=', address.id)
          .execute();
        assert.deepEqual(await shown(), ['Hauptstr.', '']);
      } finally {
        await t.database.db.updateTable('person_addresses').set(address).where('id', '=', address.id).execute();
      }
    });

    it('dotted numbering: EEEEE, EEEEE.BBB, EEEEE.BBB.UUU, EEEEE.BBB.UUU.CC', async () => {
      for (const eu of await get('/service/v1.2/CommercialInventory/EconomicUnits?limit=100'))
        assert.match(eu.IdNum, /^\d{5}$/);
      for (const b of await get('/service/v1.2/CommercialInventory/BuildingLands?limit=100'))
        assert.match(b.IdNum, /^\d{5}\.\d{3}$/);
      for (const u of await get('/service/v1.2/CommercialInventory/UseUnits?limit=100'))
        assert.match(u.IdNum, /^\d{5}\.\d{3}\.\d{3}$/);
      for (const l of await get('/service/v1.2/RentAccounting/LicenseAgreements?limit=100')) {
        assert.match(l.IdNum, /^\d{5}\.\d{3}\.\d{3}\.\d{2}$/);
        assert.ok(l.IdNum.startsWith(`${l.UseUnit.UseUnitNumber}.`));
      }
    });
  });
}
