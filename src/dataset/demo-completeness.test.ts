// The demo data set fills every field the interface types as not nullable: after `demo load --scale 1`, each
// running-cost and rent-accounting endpoint shows each such field (default showNullValues=false) in some record.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { bearer, testApp, type TestApp } from '../../test/support/app.ts';
import { V10_SHAPES, V12_SHAPES, type Shape } from '../../test/fixtures/rent-accounting-wire-shapes.ts';
import { loadDemo } from './demo/load.ts';
import { buildWorld } from './factories.ts';

// The running-cost resource tables of the interface; a field name ending in '?' is nullable. (The rent-accounting
// tables mark nothing nullable: every field of V12_SHAPES / V10_SHAPES is required.)
const CODE: Shape = { Id: 'int', 'Code?': 'string' };
const EXPLANATION: Shape = { Id: 'int', 'Text?': 'string', Group: { Id: 'int', 'Name?': 'string' } };
const USE_UNITS: Shape = [{ Id: 'int', 'UseUnitNumber?': 'string' }];
const OPTION_TAXES: Shape = [{ OptionTax: 'number', ValidFrom: 'date', 'ValidTo?': 'date' }];
const GROUP_HEADER: Record<string, Shape> = {
  Id: 'int',
  'Code?': 'string',
  Owner: { Id: 'int', 'OwnerNumber?': 'string' },
  CompanyCode: { Id: 'int', 'Name?': 'string', 'Code?': 'string' },
  AllocationGroupState: CODE,
  PrepaymentBlock: CODE,
  'SearchPattern?': 'string',
  'Location?': 'string',
  DistributionPeriod: CODE,
  'AllocationGroupCostTypes?': [CODE],
  'OptionTaxes?': OPTION_TAXES,
};
const RUNNING_COST: Record<string, Shape> = {
  DistributionPeriods: {
    Id: 'int',
    'Code?': 'string',
    FirstCalenderYear: 'int',
    IsBookable: 'boolean',
    IsComputable: 'boolean',
    RegularDistributionPeriod: CODE,
  },
  AllocationGroups: {
    ...GROUP_HEADER,
    DistributionTypeSlim: CODE,
    PreviousAllocationGroup: CODE,
    IndividualOwnershipManagement: 'boolean',
    IsCleared: 'boolean',
    RegularDistributionPeriod: CODE,
    'UseUnits?': USE_UNITS,
    'Explanations?': [EXPLANATION],
  },
  AllocationGroupBases: {
    ...GROUP_HEADER,
    PreviousAllocationGroupBase: CODE,
    AllocationGroup: {
      Id: 'int',
      IndividualOwnershipManagement: 'boolean',
      IsCleared: 'boolean',
      RegularDistributionPeriod: CODE,
      'UseUnits?': USE_UNITS,
      'Explanations?': [EXPLANATION],
    },
    CombinedAllocationGroup: {
      Id: 'int',
      'UnitsTotal?': 'number',
      'CostsPerUnit?': 'string',
      'WarmWaterFuelConsumption?': 'number',
      'WarmWaterHeatQuantity?': 'number',
      IndependentCommercialHeatingSupply: 'boolean',
      InventoryIncreasesCleared: 'boolean',
      'InventoryChangesAmount?': 'number',
      CombinedAllocationGroupType: CODE,
      FuelEnergyType: CODE,
      Facility: { Id: 'int', 'Name?': 'string' },
      SettlementState: CODE,
      ElementaryDistributionKey: CODE,
      'Explanations?': [EXPLANATION],
    },
  },
};

/** Paths of the not-nullable fields of a shape (array elements as `[]`), at every depth. */
function requiredPaths(shape: Shape, path = '', out: string[] = []): string[] {
  if (Array.isArray(shape)) return requiredPaths(shape[0], `${path}[]`, out);
  if (typeof shape !== 'object') return out;
  for (const [field, s] of Object.entries(shape)) {
    const name = field.replace(/\?$/, '');
    if (!field.endsWith('?')) out.push(`${path}.${name}`);
    requiredPaths(s, `${path}.${name}`, out);
  }
  return out;
}

/** Adds the paths of the fields a record shows (not null) to `seen`. */
function shownPaths(value: unknown, shape: Shape, path: string, seen: Set<string>): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(shape)) {
    if (Array.isArray(value)) for (const v of value) shownPaths(v, shape[0], `${path}[]`, seen);
    return;
  }
  if (typeof shape !== 'object' || typeof value !== 'object') return;
  for (const [field, s] of Object.entries(shape)) {
    const name = field.replace(/\?$/, '');
    const v = (value as Record<string, unknown>)[name];
    if (v === null || v === undefined) continue;
    seen.add(`${path}.${name}`);
    shownPaths(v, s, `${path}.${name}`, seen);
  }
}

/** Paths of the not-nullable fields a record leaves out, each array element checked. */
function absentPaths(value: unknown, shape: Shape, path = '', out: string[] = []): string[] {
  if (Array.isArray(shape)) {
    if (Array.isArray(value)) for (const v of value) absentPaths(v, shape[0], `${path}[]`, out);
    return out;
  }
  if (typeof shape !== 'object' || value === null || typeof value !== 'object') return out;
  for (const [field, s] of Object.entries(shape)) {
    const name = field.replace(/\?$/, '');
    const v = (value as Record<string, unknown>)[name];
    if (v !== null && v !== undefined) absentPaths(v, s, `${path}.${name}`, out);
    else if (!field.endsWith('?')) out.push(`${path}.${name}`);
  }
  return out;
}

/** Not-nullable fields a demo record may leave out: the first group (base) of a chain has no previous one. */
const CHAIN_STARTS = new Set(['.PreviousAllocationGroup', '.PreviousAllocationGroupBase']);

const ENDPOINTS: [url: string, shape: Shape, paged: boolean][] = [
  ...Object.entries(RUNNING_COST).map(([name, shape]): [string, Shape, boolean] => [
    `/service/v1.2/RunningCostDistributionRead/${name}?includeUseUnits=true&includeCostTypes=true&includeExplanations=true&includeOptionTaxes=true`,
    shape,
    true,
  ]),
  ...Object.entries(V12_SHAPES).map(([name, shape]): [string, Shape, boolean] => [
    `/service/v1.2/RentAccounting/${name.startsWith('PriceIndex') ? '' : 'ContractAgreement/'}${name}?`,
    shape,
    true,
  ]),
  ...Object.entries(V10_SHAPES).map(([name, shape]): [string, Shape, boolean] => [
    `/service/v1.0/RentAccounting/${name}?`,
    shape,
    false,
  ]),
];

/** Every record of an endpoint: all pages of 100 (version 1.2) or the complete list (version 1.0). */
async function all(t: TestApp, token: string, url: string, paged: boolean): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await t.app.inject({ url: paged ? `${url}&limit=100&offset=${offset}` : url, headers: bearer(token) });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    const page = res.json<unknown[]>();
    out.push(...page);
    if (!paged || page.length < 100) return out;
  }
}

/** Asserts that each endpoint shows every not-nullable field in some record, and in every record but chain starts. */
async function assertComplete(t: TestApp, token: string, what: string): Promise<void> {
  const gaps: string[] = [];
  const holes: string[] = [];
  for (const [url, shape, paged] of ENDPOINTS) {
    const path = url.split('?')[0];
    const records = await all(t, token, url, paged);
    const seen = new Set<string>();
    const absent = new Map<string, number>();
    for (const record of records) {
      shownPaths(record, shape, '', seen);
      for (const p of absentPaths(record, shape)) if (!CHAIN_STARTS.has(p)) absent.set(p, (absent.get(p) ?? 0) + 1);
    }
    const missing = records.length ? requiredPaths(shape).filter((p) => !seen.has(p)) : ['(no records)'];
    if (missing.length) gaps.push(`${path}: ${missing.join(', ')}`);
    if (absent.size)
      holes.push(`${path}: ${[...absent].map(([p, n]) => `${p} (${n} of ${records.length})`).join(', ')}`);
  }
  assert.deepEqual(gaps, [], `not-nullable fields that no ${what} record shows:\n${gaps.join('\n')}`);
  assert.deepEqual(holes, [], `not-nullable fields that some ${what} records leave out:\n${holes.join('\n')}`);
}

for (const dialect of DIALECTS) {
  describe(`demo data completeness [${dialect}]`, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await testApp(dialect);
      await loadDemo(t.database, { scale: 1, seed: 1 });
      token = await t.login();
    });
    after(() => t.close());

    it('catalogue codes of kind DistributionSpecialChargeType keep their flags (rows of one table with different columns)', async () => {
      const codes = await t.database.db
        .selectFrom('catalog_codes')
        .selectAll()
        .where('kind', '=', 'DistributionSpecialChargeType')
        .execute();
      assert.ok(codes.length > 0);
      for (const c of codes) {
        assert.notEqual(c.is_fix_costs_per_distribution_key_unit, null, `${c.code}: IsFixCostsPerDistributionKeyUnit`);
        assert.notEqual(c.is_percent_of_contract_position, null, `${c.code}: IsPercentOfContractPosition`);
        assert.notEqual(c.is_upper_limit, null, `${c.code}: IsUpperLimit`);
      }
      const others = await t.database.db
        .selectFrom('catalog_codes')
        .select('id')
        .where('kind', '!=', 'DistributionSpecialChargeType')
        .where('is_upper_limit', 'is not', null)
        .execute();
      assert.deepEqual(others, [], 'other kinds have no charge-type flags');
    });

    it('every running-cost and rent-accounting endpoint shows each not-nullable field of the interface in some record, and in every record but chain starts', async () => {
      await assertComplete(t, token, 'demo');
    });

    it("the test factories' defaults (buildWorld) fill the same fields", async () => {
      const w = await testApp(dialect);
      try {
        await buildWorld(w.database.db);
        await assertComplete(w, await w.login(), 'factory');
      } finally {
        await w.close();
      }
    });
  });
}
