// Who sees what: permissions, ledger scoping by API key and user grant, the /openwowi prefix and case-insensitive
// paths, and the withdrawal of AllocationGroups by the server clock.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { bearer } from '../../test/support/app.ts';
import type { WireRecord as Rec } from '../../test/support/wire.ts';
import { first, take } from '../../test/support/lists.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { BASE, runningCostFixture, type Fixture } from '../../test/fixtures/running-cost.ts';

const PATHS = ['DistributionPeriods', 'AllocationGroups', 'AllocationGroupBases'] as const;
const GROUP_PATHS = ['AllocationGroups', 'AllocationGroupBases'] as const;

for (const dialect of DIALECTS) {
  describe(`running-cost access [${dialect}]`, () => {
    let f: Fixture;
    before(async () => {
      f = await runningCostFixture(dialect);
    });
    after(() => f.t.close());
    const list = async (path: string, query: string, token?: string): Promise<Rec[]> => {
      const res = await f.get(path, query, token);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const ledgerIds = (records: Rec[]) => [...new Set(records.map((r) => r.CompanyCode.Id))].sort((a, b) => a - b);

    it('401 without a token, 403 naming the missing permission(s) when either or both are missing', async () => {
      for (const path of PATHS) assert.equal((await f.t.app.inject({ url: `${BASE}/${path}` })).statusCode, 401, path);
      const cases: [string[], string[]][] = [
        [[PERMISSIONS.runningCostRead], [PERMISSIONS.runningCostMasterData]],
        [[PERMISSIONS.runningCostMasterData], [PERMISSIONS.runningCostRead]],
        [
          [PERMISSIONS.projectEdit, PERMISSIONS.rentAccountingRead],
          [PERMISSIONS.runningCostMasterData, PERMISSIONS.runningCostRead],
        ],
      ];
      for (const [granted, missing] of cases) {
        const token = await f.t.login({ permissions: granted as never });
        for (const path of PATHS) {
          const res = await f.get(path, '', token);
          assert.equal(res.statusCode, 403, `${path} with ${granted.join(',')}`);
          const message = res.json().$[0] as string;
          for (const m of missing) assert.ok(message.includes(m), message);
        }
      }
      const both = await f.t.login({ permissions: [PERMISSIONS.runningCostMasterData, PERMISSIONS.runningCostRead] });
      for (const path of PATHS) assert.equal((await f.get(path, '', both)).statusCode, 200, path);
    });

    it('an API key of one ledger shows only that ledger; an all-ledgers key and no key show all', async () => {
      const [l0, l1, l2] = take(f.world.ledgers, 3);
      const one = await f.t.apiKey([l1.companyCodeId]);
      const all = await f.t.apiKey('all');
      for (const path of GROUP_PATHS) {
        const everything = await list(path, 'limit=100');
        assert.deepEqual(ledgerIds(everything), [l0.companyCodeId, l1.companyCodeId, l2.companyCodeId]);
        assert.deepEqual(await list(path, `limit=100&apiKey=${all}`), everything);
        const scoped = await list(path, `limit=100&apiKey=${one}`);
        assert.deepEqual(
          scoped,
          everything.filter((r) => r.CompanyCode.Id === l1.companyCodeId),
        );
        // a filter naming another ledger, or a record of another ledger, finds nothing
        assert.deepEqual(await list(path, `apiKey=${one}&companyCodeId=${l0.companyCodeId}`), []);
        const idParam = path === 'AllocationGroups' ? 'allocationGroupId' : 'allocationGroupBaseId';
        const foreign = first(path === 'AllocationGroups' ? l0.allocationGroupIds : l0.allocationGroupBaseIds);
        assert.deepEqual(await list(path, `apiKey=${one}&${idParam}=${foreign}`), []);
        // pages of the scoped list are consistent with it
        assert.deepEqual(
          [...(await list(path, `apiKey=${one}&limit=2`)), ...(await list(path, `apiKey=${one}&limit=2&offset=2`))],
          scoped.slice(0, 4),
        );
      }
      // distribution periods are a shared catalogue
      assert.deepEqual(await list('DistributionPeriods', `apiKey=${one}`), await list('DistributionPeriods', ''));
      assert.equal((await f.get('AllocationGroupBases', 'apiKey=wk_unknown')).statusCode, 401);
    });

    it('a user restricted to one ledger sees only it, also through a wider key', async () => {
      const [l0, l1, l2] = take(f.world.ledgers, 3);
      const token = await f.t.login({ ledgers: [l2.companyCodeId] });
      const wider = await f.t.apiKey([l0.companyCodeId, l2.companyCodeId]);
      const other = await f.t.apiKey([l1.companyCodeId]);
      for (const path of GROUP_PATHS) {
        const mine = await list(path, 'limit=100', token);
        assert.ok(mine.length > 0);
        assert.deepEqual(ledgerIds(mine), [l2.companyCodeId]);
        assert.deepEqual(await list(path, `limit=100&apiKey=${wider}`, token), mine);
        assert.deepEqual(await list(path, `limit=100&apiKey=${other}`, token), []);
      }
      assert.equal((await list('DistributionPeriods', '', token)).length, f.world.distributionPeriodIds.length);
    });

    it('answers under /openwowi and with paths in any case, with the same body', async () => {
      for (const path of PATHS) {
        const expected = (await f.get(path, 'limit=5')).body;
        for (const url of [
          `/openwowi/v1.2/RunningCostDistributionRead/${path}`,
          `/openWowi/v1.2/RunningCostDistributionRead/${path}`,
          `/service/v1.2/runningcostdistributionread/${path.toLowerCase()}`,
          `/OPENWOWI/V1.2/RUNNINGCOSTDISTRIBUTIONREAD/${path.toUpperCase()}`,
        ]) {
          const res = await f.t.app.inject({ url: `${url}?limit=5`, headers: bearer(f.token) });
          assert.equal(res.statusCode, 200, url);
          assert.equal(res.body, expected, url);
        }
      }
    });

    it('AllocationGroups: Deprecation, Sunset and Link until 2026-12-31, 410 Gone from 2027-01-01', async () => {
      let token = '';
      /** Moves the server clock, and logs in again (tokens issued at the old time may have expired). */
      const at = async (now: string) => {
        f.t.clock.now = new Date(now);
        token = await f.t.login();
      };
      const headersAt = async (url: string) => {
        const res = await f.t.app.inject({ url, headers: bearer(token) });
        return { status: res.statusCode, headers: res.headers, body: res.body };
      };
      try {
        for (const now of ['2026-06-01T10:00:00Z', '2026-12-31T23:59:59Z']) {
          await at(now);
          const res = await headersAt(`${BASE}/AllocationGroups`);
          assert.equal(res.status, 200, now);
          assert.match(String(res.headers.deprecation), /^@\d+$/);
          assert.equal(res.headers.sunset, 'Thu, 31 Dec 2026 23:59:59 GMT');
          assert.equal(
            res.headers.link,
            '</service/v1.2/RunningCostDistributionRead/AllocationGroupBases>; rel="successor-version"',
          );
          const vendor = await headersAt('/openwowi/v1.2/runningcostdistributionread/allocationgroups?limit=101');
          assert.equal(vendor.status, 400);
          assert.equal(
            vendor.headers.link,
            '</openwowi/v1.2/RunningCostDistributionRead/AllocationGroupBases>; rel="successor-version"',
          );
          // Error answers carry them too: a client learns of the withdrawal from whatever answer it gets.
          const anonymous = await f.t.app.inject({ url: `${BASE}/AllocationGroups` });
          const unpermitted = await f.get('AllocationGroups', '', await f.t.login({ permissions: [] }));
          for (const [status, answer] of [
            [401, anonymous],
            [403, unpermitted],
          ] as const) {
            assert.equal(answer.statusCode, status);
            assert.match(String(answer.headers.deprecation), /^@\d+$/);
            assert.equal(answer.headers.sunset, 'Thu, 31 Dec 2026 23:59:59 GMT');
            assert.match(String(answer.headers.link), /AllocationGroupBases>; rel="successor-version"$/);
          }
          const bases = await headersAt(`${BASE}/AllocationGroupBases`);
          assert.equal(bases.status, 200);
          assert.equal(bases.headers.deprecation, undefined);
          assert.equal(bases.headers.sunset, undefined);
        }
        for (const now of ['2027-01-01T00:00:00Z', '2030-05-05T12:00:00Z']) {
          await at(now);
          const gone = await headersAt(`${BASE}/AllocationGroups?limit=5`);
          assert.equal(gone.status, 410, now);
          const body = JSON.parse(gone.body);
          assert.deepEqual(Object.keys(body), ['$']);
          assert.match(body.$[0], /withdrawn on 2026-12-31.*AllocationGroupBases/);
          assert.match(String(gone.headers.link), /AllocationGroupBases>; rel="successor-version"$/);
          assert.equal((await headersAt(`${BASE}/AllocationGroups?limit=abc`)).status, 410);
          assert.equal((await headersAt(`/openwowi/v1.2/RunningCostDistributionRead/AllocationGroups`)).status, 410);
          assert.equal((await headersAt(`${BASE}/AllocationGroupBases`)).status, 200);
          assert.equal((await headersAt(`${BASE}/DistributionPeriods`)).status, 200);
        }
      } finally {
        f.t.clock.now = new Date('2026-06-01T10:00:00Z');
      }
    });

    it('the OpenAPI document marks AllocationGroups deprecated and describes searchPattern', async () => {
      const doc = (await f.t.app.inject({ url: '/service/openapi.json' })).json();
      const paths = doc.paths as Record<string, Rec>;
      const operation = (path: string): Rec => {
        const item = paths[`${BASE}/${path}`];
        assert.ok(item, `${path} in the OpenAPI document`);
        return item.get;
      };
      const groups = operation('AllocationGroups');
      assert.equal(groups.deprecated, true);
      assert.ok(!operation('AllocationGroupBases').deprecated);
      assert.ok(!Object.keys(paths).some((p) => p.startsWith('/openwowi')));
      for (const path of GROUP_PATHS) {
        const op = operation(path);
        assert.match(op.description, /searchPattern: .*case-insensitive/i);
        const names = (op.parameters as Rec[]).map((p) => p.name);
        for (const n of [
          'limit',
          'offset',
          'showNullValues',
          'ownerId',
          'companyCodeId',
          'distributionPeriodId',
          'prepaymentBlockId',
          'searchPattern',
          'includeUseUnits',
          'includeCostTypes',
          'includeExplanations',
          'includeOptionTaxes',
        ])
          assert.ok(names.includes(n), `${path} ${n}`);
      }
      const groupParams = (groups.parameters as Rec[]).map((p) => p.name);
      for (const n of ['allocationGroupId', 'allocationGroupCode', 'distributionTypeId'])
        assert.ok(groupParams.includes(n), n);
      const baseParams = (operation('AllocationGroupBases').parameters as Rec[]).map((p) => p.name);
      for (const n of ['allocationGroupBaseId', 'allocationGroupBaseCode']) assert.ok(baseParams.includes(n), n);
    });
  });
}
