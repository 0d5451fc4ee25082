// Paging, filters, ledger scoping, permission and parameter errors of the rent-accounting endpoints.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MASTER_ROUTES } from '../master-data/index.ts';
import { DIALECTS } from '../../test/support/db.ts';
import { bearer, testApp, type TestApp } from '../../test/support/app.ts';
import { at, first, take } from '../../test/support/lists.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import {
  buildWorld,
  insertContractAgreement,
  insertEconomicUnit,
  insertLicenseAgreement,
  insertUseUnit,
  insertUseUnitRentAdjustment,
  type World,
} from '../dataset/factories.ts';

const V12 = '/service/v1.2/RentAccounting';
const V10 = '/service/v1.0/RentAccounting';
const TURNOVER = [`${V12}/ContractAgreement/TurnoverRentAgreement`, `${V10}/TurnoverRentAgreement`] as const;

for (const dialect of DIALECTS) {
  describe(`rent accounting paging, filters and access [${dialect}]`, () => {
    let t: TestApp;
    let token: string;
    let world: World;
    /** A use unit of its own economic unit in ledger 0, with one license agreement and three turnover-rent agreements. */
    const mine = {
      economicUnitId: 0,
      useUnitId: 0,
      useUnitNumber: '',
      licenseId: 0,
      idNum: '',
      a: 0,
      b: 0,
      c: 0,
      adjustmentId: 0,
    };
    before(async () => {
      t = await testApp(dialect);
      const db = t.database.db;
      world = await buildWorld(db, { ledgers: 2 });
      const company_code_id = first(world.ledgers).companyCodeId;
      const eu = await insertEconomicUnit(db, { company_code_id });
      const uu = await insertUseUnit(db, { economic_unit_id: eu.id });
      const la = await insertLicenseAgreement(db, { use_unit_id: uu.id });
      const turnover = (valid_from: string, valid_to: string | null) =>
        insertContractAgreement(db, 'TurnoverRentAgreement', { license_agreement_id: la.id, valid_from, valid_to });
      Object.assign(mine, {
        economicUnitId: eu.id,
        useUnitId: uu.id,
        useUnitNumber: uu.use_unit_number,
        licenseId: la.id,
        idNum: la.id_num,
        a: (await turnover('2020-01-01', '2020-12-31')).id,
        b: (await turnover('2021-01-01', null)).id,
        c: (await turnover('2019-01-01', '2030-12-31')).id,
        adjustmentId: (await insertUseUnitRentAdjustment(db, { use_unit_id: uu.id })).id,
      });
      for (let i = 0; i < 25; i++) await insertContractAgreement(db, 'RentalUpperLimit', { company_code_id });
      token = await t.login({ permissions: [PERMISSIONS.rentAccountingRead] });
    });
    after(() => t.close());

    const call = (url: string, tok = token) => t.app.inject({ url, headers: bearer(tok) });
    const ids = async (url: string, tok = token): Promise<number[]> => {
      const res = await call(url, tok);
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      return res.json<{ Id: number }[]>().map((r) => r.Id);
    };
    const worldTurnover = () => world.ledgers.map((l) => l.contractAgreementIds.TurnoverRentAgreement);

    it('pages of version 1.2 concatenate to the full list, ordered by Id; limit defaults to 20', async () => {
      const url = `${V12}/ContractAgreement/RentalUpperLimit`;
      const all = await ids(`${url}?limit=100`);
      assert.equal(all.length, 27);
      assert.deepEqual(
        all,
        [...all].sort((x, y) => x - y),
      );
      assert.deepEqual(await ids(url), all.slice(0, 20));
      const pages: number[] = [];
      for (let offset = 0; offset < 35; offset += 7) pages.push(...(await ids(`${url}?limit=7&offset=${offset}`)));
      assert.deepEqual(pages, all);
    });

    it('version 1.0: without limit the complete list (from offset), with limit ordinary pages', async () => {
      const url = `${V10}/RentalUpperLimit`;
      const all = await ids(url);
      assert.deepEqual(all, await ids(`${V12}/ContractAgreement/RentalUpperLimit?limit=100`));
      assert.deepEqual(await ids(`${url}?offset=5`), all.slice(5));
      const pages: number[] = [];
      for (let offset = 0; offset < 30; offset += 10) pages.push(...(await ids(`${url}?limit=10&offset=${offset}`)));
      assert.deepEqual(pages, all);
      assert.deepEqual(await ids(`${url}?offset=1000`), []);
    });

    for (const url of TURNOVER) {
      it(`contract-agreement filters: ${url}`, async () => {
        const q = (query: string) => ids(`${url}?${query}`);
        const { a, b, c } = mine;
        assert.deepEqual(await q(`contractAgreementId=${b}`), [b]);
        assert.deepEqual(await q(`licenseAgreementId=${mine.licenseId}`), [a, b, c]);
        assert.deepEqual(await q(`licenseAgreementIdNum=${encodeURIComponent(mine.idNum)}`), [a, b, c]);
        assert.deepEqual(await q(`useUnitId=${mine.useUnitId}`), [a, b, c]);
        assert.deepEqual(await q(`useUnitNumber=${encodeURIComponent(mine.useUnitNumber)}`), [a, b, c]);
        assert.deepEqual(await q(`economicUnitId=${mine.economicUnitId}`), [a, b, c]);
        assert.deepEqual(await q('activeOn=2020-06-01'), [a, c]);
        assert.deepEqual(await q('activeOn=2020-12-31'), [a, c], 'ValidTo is inclusive');
        assert.deepEqual(await q('activeOn=2019-01-01'), [c], 'ValidFrom is inclusive');
        assert.deepEqual(await q('activeOn=2040-01-01'), [b], 'no ValidTo = open-ended');
        assert.deepEqual(await q('activeOn=2025-01-01'), [...worldTurnover(), b, c]);
        assert.deepEqual(await q(`licenseAgreementId=${mine.licenseId}&activeOn=2040-01-01`), [b], 'filters combine');
        assert.deepEqual(
          await q(`useUnitId=${first(at(world.ledgers, 1).useUnitIds)}&licenseAgreementId=${mine.licenseId}`),
          [],
        );
        assert.deepEqual(await q('contractAgreementId=999999'), [], 'an unknown id filters to nothing');
      });
    }

    it('UseUnitRentAdjustments filters by use unit and economic unit', async () => {
      const url = `${V10}/UseUnitRentAdjustments`;
      assert.deepEqual(await ids(`${url}?useUnitId=${mine.useUnitId}`), [mine.adjustmentId]);
      assert.deepEqual(await ids(`${url}?useUnitNumber=${encodeURIComponent(mine.useUnitNumber)}`), [
        mine.adjustmentId,
      ]);
      assert.deepEqual(await ids(`${url}?economicUnitId=${mine.economicUnitId}`), [mine.adjustmentId]);
      assert.deepEqual(await ids(`${url}?economicUnitId=${mine.economicUnitId}&limit=5`), [mine.adjustmentId]);
      assert.equal(
        (await ids(`${url}?contractAgreementId=${mine.a}`)).length,
        3,
        'a filter the endpoint does not have is ignored',
      );
    });

    it('PriceIndex and PriceIndexValue filters', async () => {
      const [firstIndex, second] = take(world.priceIndexIds, 2);
      const index = (await call(`${V12}/PriceIndex?priceIndexId=${second}`)).json<{ Id: number; Code: string }[]>();
      assert.deepEqual(
        index.map((r) => r.Id),
        [second],
      );
      assert.deepEqual(await ids(`${V12}/PriceIndex?priceIndexCode=${first(index).Code}`), [second]);
      const values = world.priceIndexValueIds;
      assert.deepEqual(await ids(`${V12}/PriceIndexValue?priceIndexId=${firstIndex}`), values.slice(0, 3));
      assert.deepEqual(await ids(`${V12}/PriceIndexValue?referenceDateFrom=2021-01-01`), [
        values[1],
        values[2],
        values[4],
        values[5],
      ]);
      assert.deepEqual(await ids(`${V12}/PriceIndexValue?referenceDateTo=2021-01-01`), [
        values[0],
        values[1],
        values[3],
        values[4],
      ]);
      assert.deepEqual(
        await ids(
          `${V12}/PriceIndexValue?priceIndexId=${second}&referenceDateFrom=2021-01-01&referenceDateTo=2021-12-31`,
        ),
        [values[4]],
      );
    });

    it('an API key of one ledger sees only that ledger; price indices are shared', async () => {
      const [l0, l1] = take(world.ledgers, 2);
      const key = await t.apiKey([l1.companyCodeId]);
      assert.deepEqual(await ids(`${V12}/ContractAgreement/VatOptionAgreement?apiKey=${key}`), [
        l1.contractAgreementIds.VatOptionAgreement,
      ]);
      assert.deepEqual(await ids(`${V10}/VATOptionAgreement?apiKey=${key}`), [
        l1.contractAgreementIds.VatOptionAgreement,
      ]);
      assert.deepEqual(await ids(`${V10}/VATOptionAgreement?apiKey=${key}&limit=10`), [
        l1.contractAgreementIds.VatOptionAgreement,
      ]);
      assert.deepEqual(await ids(`${V10}/UseUnitRentAdjustments?apiKey=${key}`), l1.rentAdjustmentIds);
      assert.deepEqual(
        await ids(`${V12}/ContractAgreement/TurnoverRentAgreement?apiKey=${key}&contractAgreementId=${mine.a}`),
        [],
        "another ledger's record is not there",
      );
      assert.deepEqual(await ids(`${V12}/PriceIndex?apiKey=${key}`), world.priceIndexIds);
      assert.equal((await ids(`${V12}/PriceIndexValue?apiKey=${key}`)).length, 6);
      const restricted = await t.login({ permissions: [PERMISSIONS.rentAccountingRead], ledgers: [l0.companyCodeId] });
      assert.deepEqual(await ids(`${V12}/ContractAgreement/VatOptionAgreement`, restricted), [
        l0.contractAgreementIds.VatOptionAgreement,
      ]);
      assert.deepEqual(
        await ids(`${V10}/VATOptionAgreement?apiKey=${key}`, restricted),
        [],
        'key and user grant intersect',
      );
      assert.equal((await call(`${V12}/PriceIndex?apiKey=unknown`)).statusCode, 401);
    });

    it('403 without the permission, 401 without a token; also under /openwowi', async () => {
      const other = await t.login({ permissions: [PERMISSIONS.runningCostRead, PERMISSIONS.runningCostMasterData] });
      for (const url of [
        `${V12}/PriceIndex`,
        `${V12}/ContractAgreement/IndexRentalAgreement`,
        `${V10}/UseUnitRentAdjustments`,
        `${V10}/IndexRentalAgreement`,
      ]) {
        const res = await call(url, other);
        assert.equal(res.statusCode, 403, url);
        assert.match(res.json().$[0], /Mietenbuchhaltung-lesen/);
        assert.equal((await t.app.inject({ url })).statusCode, 401);
      }
      assert.deepEqual(await ids('/openWowi/v1.2/RentAccounting/PriceIndex'), world.priceIndexIds);
    });

    for (const [query, key, value] of [
      ['limit=0', 'limit', "'0'"],
      ['limit=101', 'limit', "'101'"],
      ['offset=-1', 'offset', "'-1'"],
      ['useUnitId=abc', 'useUnitId', "'abc'"],
      ['contractAgreementId=1.5', 'contractAgreementId', "'1.5'"],
      ['activeOn=2024-02-30', 'activeOn', "'2024-02-30'"],
      ['activeOn=01.02.2024', 'activeOn', "'01.02.2024'"],
      ['economicUnitId=2147483648', 'economicUnitId', "'2147483648'"],
      ['showNullValues=maybe', 'showNullValues', "'maybe'"],
    ] as const) {
      it(`400 keyed by the parameter for ${query} (both versions)`, async () => {
        for (const url of TURNOVER) {
          const res = await call(`${url}?${query}`);
          assert.equal(res.statusCode, 400, url);
          assert.deepEqual(Object.keys(res.json()), [key]);
          assert.ok(res.json()[key][0].includes(value), res.json()[key][0]);
        }
      });
    }

    it('400 for bad price-index parameters', async () => {
      const res = await call(`${V12}/PriceIndexValue?referenceDateFrom=yesterday&priceIndexId=x`);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(Object.keys(res.json()).sort(), ['priceIndexId', 'referenceDateFrom']);
    });

    it('the OpenAPI document describes every query parameter of the endpoints', async () => {
      const doc = (await t.app.inject({ url: '/service/openapi.json' })).json();
      const master = new Set(MASTER_ROUTES.map((r) => `/service${r.url}`)); // master data (docs/master-data.md)
      const paths = Object.keys(doc.paths).filter((p) => p.includes('/RentAccounting/') && !master.has(p));
      assert.equal(paths.length, 27);
      const params = (p: string) => doc.paths[p].get.parameters as { name: string; description?: string }[];
      const turnover = params(`${V12}/ContractAgreement/TurnoverRentAgreement`);
      for (const name of [
        'contractAgreementId',
        'licenseAgreementId',
        'licenseAgreementIdNum',
        'useUnitId',
        'useUnitNumber',
        'economicUnitId',
        'activeOn',
        'limit',
        'offset',
        'showNullValues',
      ]) {
        assert.ok(turnover.find((x) => x.name === name)?.description, `${name} is described`);
      }
      assert.deepEqual(
        params(`${V12}/PriceIndexValue`)
          .map((x) => x.name)
          .filter((n) => /^(priceIndex|reference)/.test(n))
          .sort(),
        ['priceIndexId', 'referenceDateFrom', 'referenceDateTo'],
      );
    });
  });
}
