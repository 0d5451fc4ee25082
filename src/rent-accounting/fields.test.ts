// Every rent-accounting endpoint of both versions answers its records with the fields of the interface, and the
// same record agrees through version 1.0 and 1.2.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { bearer, testApp, type TestApp } from '../../test/support/app.ts';
import { at, first, only } from '../../test/support/lists.ts';
import type { WireRecord } from '../../test/support/wire.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { buildWorld, insertContractAgreement, type World } from '../dataset/factories.ts';
import type { ContractAgreementKind } from './tables.ts';
import { checkShape, V10_KINDS, V10_SHAPES, V12_SHAPES } from '../../test/fixtures/rent-accounting-wire-shapes.ts';

/** The URL of a version 1.2 endpoint by its name (price indices sit beside the contract-agreement kinds). */
const v12Url = (name: string) =>
  name.startsWith('PriceIndex')
    ? `/service/v1.2/RentAccounting/${name}`
    : `/service/v1.2/RentAccounting/ContractAgreement/${name}`;
const v10Url = (name: string) => `/service/v1.0/RentAccounting/${name}`;
/** The v1.2 contract-agreement kind that a v1.0 endpoint shows. */
const v10Kind = (name: string): string => {
  const entry = V10_KINDS[name];
  assert.ok(entry, `${name} is a v1.0 contract-agreement endpoint`);
  return entry[0];
};

for (const dialect of DIALECTS) {
  describe(`rent accounting fields [${dialect}]`, () => {
    let t: TestApp;
    let token: string;
    let world: World;
    before(async () => {
      t = await testApp(dialect);
      world = await buildWorld(t.database.db, { ledgers: 2 });
      token = await t.login({ permissions: [PERMISSIONS.rentAccountingRead] });
    });
    after(() => t.close());
    const get = async (url: string) => {
      const res = await t.app.inject({ url, headers: bearer(token) });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      return res.json<WireRecord[]>();
    };
    const expectedIds = (name: string, version: '1.0' | '1.2'): number[] => {
      if (name === 'PriceIndex') return world.priceIndexIds;
      if (name === 'PriceIndexValue') return world.priceIndexValueIds;
      if (name === 'UseUnitRentAdjustments') return world.ledgers.flatMap((l) => l.rentAdjustmentIds);
      const kind = (version === '1.0' ? v10Kind(name) : name) as ContractAgreementKind;
      return world.ledgers.map((l) => l.contractAgreementIds[kind]);
    };

    for (const [version, shapes, url] of [
      ['1.2', V12_SHAPES, v12Url],
      ['1.0', V10_SHAPES, v10Url],
    ] as const) {
      for (const [name, shape] of Object.entries(shapes)) {
        it(`v${version} ${name}: every field of the interface, with its type`, async () => {
          const paging = version === '1.2' ? '&limit=100' : '';
          const shown = await get(`${url(name)}?showNullValues=true${paging}`);
          assert.deepEqual(
            shown.map((r) => r.Id),
            expectedIds(name, version),
          );
          for (const record of shown) {
            const nulls = checkShape(record, shape);
            assert.deepEqual(nulls, [], `${name} ${record.Id}: unexpected nulls`);
          }
          const plain = await get(`${url(name)}${paging.replace('&', '?')}`);
          assert.equal(plain.length, shown.length);
          assert.ok(!JSON.stringify(plain).includes('null'), 'nulls are left out by default');
          assert.deepEqual(first(plain).Id, first(shown).Id);
        });
      }
    }

    it('the same record agrees through version 1.0 and 1.2', async () => {
      const valueAt = (o: WireRecord, path: string) =>
        path.split('.').reduce((v: WireRecord | undefined, k) => v?.[k], o);
      const pairs: Record<string, [string, string][]> = {
        IndexRentalAgreement: [
          ['PriceIndex', 'PriceIndex.Code'],
          ['AgreementIndexPriceIndexValue', 'PriceIndexValue.IndexValue'],
          ['AgreementIndexWaitingPeriod', 'WaitingPeriod'],
          ['AgreementIndexLimitForIncrease', 'LimitForIncrease'],
          ['AgreementIndexTransferPercent', 'TransferPercent'],
        ],
        GraduatedRentAgreement: [
          ['RentalUpperLimit', 'RentalUpperLimit'],
          ['GraduatedRentEntries.0.Amount', 'GraduatedRentEntries.0.Amount'],
          ['GraduatedRentEntries.1.VATRateId', 'GraduatedRentEntries.1.VatRate.Id'],
          ['GraduatedRentEntries.1.VATRate', 'GraduatedRentEntries.1.VatRate.Code'],
          ['GraduatedRentEntries.1.RentChangeDate', 'GraduatedRentEntries.1.RentChangeDate'],
        ],
        TurnoverRentAgreement: [
          ['ContractPositionTypeId', 'ContractPositionType.Id'],
          ['ContractPositionType', 'ContractPositionType.Name'],
          ['AccountingIntervalId', 'ContractAgreementAccountingInterval.Id'],
          ['AccountingInterval', 'ContractAgreementAccountingInterval.Code'],
          ['RentalLowerLimit_Net', 'RentalLowerLimitNet'],
          ['RentalLowerLimit_Gross', 'RentalLowerLimitGross'],
          ['RentalUpperLimit_Net', 'RentalUpperLimitNet'],
          ['RentalUpperLimit_Gross', 'RentalUpperLimitGross'],
          ['TurnoverRentSteps', 'TurnoverRentSteps'],
          ['NextAccountingDate', 'NextAccountingDate'],
        ],
        VATOptionAgreement: [
          ['SalesTaxId', 'VatRate.Id'],
          ['SalesTax', 'VatRate.Code'],
        ],
        RentalUpperLimit: [['RentalUpperLimit', 'RentalUpperLimit']],
        GrossRentsWithoutHeating: [['ExcludedInAllocationGroups', 'ExcludedInAllocationGroups']],
        MaxCostDistribution: [
          ['Percentage', 'Percentage'],
          ['FixCostValue', 'FixCostsValue'],
          ['IsGrossAmount', 'IsGrossAmount'],
          ['PrepaymentBlockId', 'PrepaymentBlock.Id'],
          ['PrepaymentBlock', 'PrepaymentBlock.Code'],
          ['CalculationBasisId', 'CalculationBase.0.Id'],
          ['CalculationBasis', 'CalculationBase.0.Name'],
          ['BillingUnitValueId', 'BillingUnitValue.0.Id'],
          ['BillingUnitValue', 'BillingUnitValue.0.Code'],
          ['DistributionCostType', 'DistributionCostType.Code'],
          ['DistributionSpecialChargeTypeMaxCost', 'DistributionSpecialChargeType.Code'],
        ],
      };
      for (const [name, [kind]] of Object.entries(V10_KINDS)) {
        const old = await get(v10Url(name));
        const now = await get(`${v12Url(kind)}?limit=100`);
        assert.equal(old.length, 2);
        old.forEach((o, i) => {
          const n = at(now, i);
          assert.equal(o.Id, n.Id);
          assert.equal(o.LicenseAgreementId, n.LicenseAgreement.Id);
          assert.equal(o.ValidFrom, `${n.ValidFrom}T00:00:00Z`);
          assert.equal(o.ValidTo, `${n.ValidTo}T00:00:00Z`);
          if (name === 'VATOptionAgreement') assert.equal(o.FirstDebit, `${n.FirstDebit}T00:00:00Z`);
          if (name === 'IndexRentalAgreement')
            assert.equal(o.AgreementIndexReferenceDate, `${n.PriceIndexValue.ReferenceDate}T00:00:00Z`);
          const checks = pairs[name];
          assert.ok(checks, `${name}: fields to compare`);
          for (const [a, b] of checks) {
            assert.notEqual(valueAt(o, a), undefined, `${name}.${a} is shown`);
            assert.deepEqual(valueAt(o, a), valueAt(n, b), `${name}: v1.0 ${a} = v1.2 ${b}`);
          }
        });
      }
    });

    it('decimals round-trip exactly; an open-ended ValidTo is left out, or null with showNullValues', async () => {
      const license_agreement_id = first(first(world.ledgers).licenseAgreementIds);
      const ca = await insertContractAgreement(t.database.db, 'RentalUpperLimit', {
        license_agreement_id,
        valid_to: null,
        detail: { rental_upper_limit: '1234.56' },
      });
      const v12 = only(await get(`${v12Url('RentalUpperLimit')}?contractAgreementId=${ca.id}`));
      assert.equal(v12.RentalUpperLimit, 1234.56);
      assert.ok(!('ValidTo' in v12));
      const v10 = await get(`${v10Url('RentalUpperLimit')}?contractAgreementId=${ca.id}&showNullValues=true`);
      assert.deepEqual(v10, [
        {
          Id: ca.id,
          LicenseAgreementId: license_agreement_id,
          ValidFrom: '2024-01-01T00:00:00Z',
          ValidTo: null,
          RentalUpperLimit: 1234.56,
        },
      ]);
    });

    it('a decimal with more digits than a double holds reaches the wire exactly (v1.2 page and v1.0 stream)', async () => {
      const license_agreement_id = first(first(world.ledgers).licenseAgreementIds);
      const ca = await insertContractAgreement(t.database.db, 'RentalUpperLimit', {
        license_agreement_id,
        detail: { rental_upper_limit: '12345678901234567.89' },
      });
      for (const url of [
        `${v12Url('RentalUpperLimit')}?contractAgreementId=${ca.id}`,
        `${v12Url('RentalUpperLimit')}?contractAgreementId=${ca.id}&showNullValues=true`,
        `${v10Url('RentalUpperLimit')}?contractAgreementId=${ca.id}`,
      ]) {
        const res = await t.app.inject({ url, headers: bearer(token) });
        assert.equal(res.statusCode, 200);
        assert.ok(res.body.includes('"RentalUpperLimit":12345678901234567.89'), `${url}: ${res.body}`);
      }
    });

    it('a contract agreement without detail or child rows shows its header, its arrays empty', async () => {
      const licenseAgreementId = at(first(world.ledgers).licenseAgreementIds, 1);
      const ca = await insertContractAgreement(t.database.db, 'GraduatedRentAgreement', {
        children: false,
        license_agreement_id: licenseAgreementId,
      });
      await t.database.db.deleteFrom('ca_graduated_rent').where('contract_agreement_id', '=', ca.id).execute();
      const v12 = only(
        await get(`${v12Url('GraduatedRentAgreement')}?contractAgreementId=${ca.id}&showNullValues=true`),
      );
      assert.equal(v12.Id, ca.id);
      assert.deepEqual(v12.GraduatedRentEntries, []);
      assert.equal(v12.RentalUpperLimit, null);
      const [v10] = await get(`${v10Url('GraduatedRentAgreement')}?contractAgreementId=${ca.id}`);
      assert.deepEqual(v10, {
        Id: ca.id,
        LicenseAgreementId: licenseAgreementId,
        ValidFrom: '2024-01-01T00:00:00Z',
        ValidTo: '2034-12-31T00:00:00Z',
        GraduatedRentEntries: [],
      });
    });
  });
}
