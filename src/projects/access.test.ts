import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { first } from '../../test/support/lists.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { revokeApiKey } from '../auth/api-keys.ts';
import { projectsFixture, type ProjectsFixture } from '../../test/fixtures/projects.ts';

for (const dialect of DIALECTS) {
  describe(`AccountancyProjectEdit access and read-back [${dialect}]`, () => {
    let f: ProjectsFixture;
    let idA: number;
    let idB: number;
    before(async () => {
      f = await projectsFixture(dialect);
      idA = await f.createId({ Code: 'ACC-A' });
      idB = (
        await f.create({ CompanyCodeId: f.B.companyCodeId, ProjectLifeTimeFrom: '2025-01-01', Code: 'ACC-B' })
      ).json().Id;
    });
    after(() => f.close());

    /** One request to each of the 15 write endpoints. */
    const writes = (id: number) =>
      [
        ['POST', '', { CompanyCodeId: f.A.companyCodeId, ProjectLifeTimeFrom: '2025-01-01' }],
        ['PUT', `/${id}`, { Name: 'x' }],
        ['DELETE', `/${id}`, undefined],
        ...['EconomicUnit', 'Building', 'Land', 'UseUnit', 'Budget', 'Loan'].flatMap((n) => [
          ['POST', `/${id}/Assign${n}`, []],
          ['POST', `/${id}/Remove${n}`, []],
        ]),
      ] as Array<['POST' | 'PUT' | 'DELETE', string, unknown]>;

    it('401 without a bearer token, without an apiKey or with an unknown or revoked one, on every write endpoint', async () => {
      const revoked = await f.t.apiKey('all', 'to-revoke');
      await revokeApiKey(f.t.database.db, 'to-revoke');
      for (const [method, path, body] of writes(idA)) {
        for (const options of [{ key: null }, { key: 'not-a-key' }, { key: revoked }, { token: 'garbage' }]) {
          const res = await f.call(method, path, { body, ...options });
          assert.equal(res.statusCode, 401, `${method} ${path} ${JSON.stringify(options)}`);
          assert.equal(res.body, '');
          assert.match(String(res.headers['www-authenticate']), /^Bearer/);
        }
        const anonymous = await f.t.app.inject({
          method,
          url: `/service/v1.2/AccountancyProjectEdit/Project${path}?apiKey=${f.key}`,
        });
        assert.equal(anonymous.statusCode, 401);
      }
      assert.equal((await f.read(idA)).Code, 'ACC-A', 'nothing was deleted');
    });

    it('403 with an error map without the permission Belegsystem Projekt ändern, on reads and writes', async () => {
      const token = await f.t.login({ permissions: [PERMISSIONS.runningCostRead, PERMISSIONS.rentAccountingRead] });
      for (const [method, path, body] of [
        ...writes(idA),
        ['GET', '', undefined],
        ['GET', `/${idA}`, undefined],
      ] as Array<['POST' | 'PUT' | 'DELETE' | 'GET', string, unknown]>) {
        const res = await f.call(method, path, { body, token });
        assert.equal(res.statusCode, 403, `${method} ${path}`);
        assert.match(res.json().$[0], /Belegsystem Projekt ändern/);
      }
    });

    it("reads take the apiKey as optional: without one the user's ledgers apply, with one only the key's", async () => {
      const list = await f.call('GET', '', { key: null, query: 'limit=100' });
      assert.equal(list.statusCode, 200);
      assert.ok(list.json().some((p: { Id: number }) => p.Id === idB));
      const keyA = await f.t.apiKey([f.A.companyCodeId]);
      const scoped = (await f.call('GET', '', { key: keyA, query: 'limit=100' })).json<
        Array<{ CompanyCodeId: number }>
      >();
      assert.ok(scoped.length > 0 && scoped.every((p) => p.CompanyCodeId === f.A.companyCodeId));
      assert.equal((await f.call('GET', `/${idB}`, { key: keyA })).statusCode, 404);
      assert.equal((await f.call('GET', `/${idA}`, { key: keyA })).statusCode, 200);
      assert.equal((await f.call('GET', `/${idA}`, { key: 'unknown' })).statusCode, 401);

      const userA = await f.t.login({ permissions: [PERMISSIONS.projectEdit], ledgers: [f.A.companyCodeId] });
      assert.equal((await f.call('GET', `/${idB}`, { key: null, token: userA })).statusCode, 404);
      // an all-ledgers key does not widen a user's grant
      const put = await f.call('PUT', `/${idB}`, { token: userA, body: { Name: 'hijack' } });
      assert.equal(put.statusCode, 404);
      assert.match(put.json().id[0], new RegExp(`${idB}`));
      const del = await f.call('DELETE', `/${idB}`, { token: userA });
      assert.equal(del.statusCode, 404);
      assert.equal((await f.read(idB)).Name, undefined);
    });

    it('404 for a project id that does not exist; 400 for one that is not an int32', async () => {
      assert.equal((await f.call('GET', '/999999')).statusCode, 404);
      assert.match((await f.call('GET', '/999999')).json().id[0], /999999/);
      assert.equal((await f.call('GET', '/9999999999')).statusCode, 400);
    });

    it('the list is paged and ordered by Id; limit and offset are checked', async () => {
      for (let i = 0; i < 4; i++) await f.createId();
      const all = (await f.call('GET', '', { query: 'limit=100' })).json<Array<{ Id: number }>>();
      const ids = all.map((p) => p.Id);
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
      );
      const page = (await f.call('GET', '', { query: 'limit=2&offset=1' })).json<Array<{ Id: number }>>();
      assert.deepEqual(
        page.map((p) => p.Id),
        ids.slice(1, 3),
      );
      assert.equal((await f.call('GET', '')).json().length, Math.min(20, ids.length));
      for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=x']) {
        const res = await f.call('GET', '', { query });
        assert.equal(res.statusCode, 400, query);
        assert.ok(res.json()[first(query.split('='))]);
      }
    });

    it('the OpenAPI document lists the 15 write endpoints and the two reads under /service only', async () => {
      const doc = (await f.t.app.inject({ url: '/service/openapi.json' })).json();
      const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
        .filter(([path]) => path.includes('AccountancyProjectEdit'))
        .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
      assert.equal(operations.length, 17);
      assert.ok(operations.every((o) => o.includes(' /service/v1.2/AccountancyProjectEdit/Project')));
      assert.ok(operations.includes('POST /service/v1.2/AccountancyProjectEdit/Project/{projectId}/RemoveUseUnit'));
    });

    it("the list carries each project's assignments; showNullValues=true shows nulls", async () => {
      const { A } = f;
      const id = await f.createId({ EconomicUnit: A.economicUnitIds, Building: [A.buildingIds[1]], Loan: A.loanIds });
      const list = (await f.call('GET', '', { query: 'limit=100' })).json<Array<Record<string, unknown>>>();
      const mine = list.find((p) => p.Id === id)!;
      assert.deepEqual(
        [mine.EconomicUnit, mine.Building, mine.Loan, mine.UseUnit],
        [A.economicUnitIds, [A.buildingIds[1]], A.loanIds, []],
      );
      assert.equal('Description' in mine, false);
      const shown = (await f.call('GET', '', { query: 'limit=100&showNullValues=true' })).json<
        Array<Record<string, unknown>>
      >();
      assert.equal(shown.find((p) => p.Id === id)!.Description, null);
    });
  });
}
