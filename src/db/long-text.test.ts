// Text of any length in the indexed lookup columns (codes, numbers, IdNum), on both engines (migration
// 2026112901_long_text_indexes): PostgreSQL's B-tree entries stop at ~2.7 kB, so a project Code or an imported
// use-unit number of a few thousand random characters was a 500 there and stored on SQLite. Random text does not
// compress, so it is the case that overflowed.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { DIALECTS } from '../../test/support/db.ts';
import { bearer, testApp, type TestApp } from '../../test/support/app.ts';
import { exportText, importText } from '../../test/support/dataset.ts';
import { loadDemo } from '../dataset/demo/load.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { first } from '../../test/support/lists.ts';

/** `n` characters of random letters and digits (incompressible for PostgreSQL's TOAST). */
const randomText = (n: number) =>
  randomBytes(n * 2)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, n);

for (const dialect of DIALECTS) {
  describe(`text of any length in indexed lookups [${dialect}]`, () => {
    let t: TestApp;
    let token: string;
    let key: string;
    before(async () => {
      t = await testApp(dialect);
      await loadDemo(t.database, { scale: 1, seed: 3 });
      token = await t.login({
        permissions: [PERMISSIONS.projectEdit, PERMISSIONS.runningCostRead, PERMISSIONS.runningCostMasterData],
      });
      key = await t.apiKey('all');
    });
    after(() => t.close());

    const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
      t.app.inject({
        method,
        url: `${url}${url.includes('?') ? '&' : '?'}apiKey=${key}`,
        headers: { ...bearer(token), ...(body ? { 'content-type': 'application/json' } : {}) },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });

    it('a project Code of 4,000 random characters: created, found, unique within its ledger, changed', async () => {
      const code = randomText(4000);
      const url = '/service/v1.2/AccountancyProjectEdit/Project';
      const created = await call('POST', url, { CompanyCodeId: 1, ProjectLifeTimeFrom: '2026-01-01', Code: code });
      assert.equal(created.statusCode, 201, created.body);
      const twin = await call('POST', url, { CompanyCodeId: 1, ProjectLifeTimeFrom: '2026-01-01', Code: code });
      assert.equal(twin.statusCode, 400, twin.body);
      assert.match(twin.json().Code[0], /already used by project/);
      const other = await call('POST', url, { CompanyCodeId: 2, ProjectLifeTimeFrom: '2026-01-01', Code: code });
      assert.equal(other.statusCode, 201, 'unique within its ledger only');
      const changed = await call('PUT', `${url}/${created.json().Id}`, { Code: randomText(6000) });
      assert.equal(changed.statusCode, 200, changed.body);
    });

    it('an import of a use-unit number and an allocation-group code of 3,000 random characters; the filter finds it', async () => {
      const doc = JSON.parse(await exportText(t.database)) as Record<string, Record<string, unknown>[]>;
      const group = first(doc.AllocationGroups ?? []);
      const unit = first(doc.UseUnits ?? []);
      const [code, number] = [randomText(3000), randomText(3000)];
      group.Code = code;
      unit.UseUnitNumber = number;
      await importText(t.database, JSON.stringify({ UseUnits: [unit], AllocationGroups: [group] }));
      assert.ok((await exportText(t.database)).includes(`"UseUnitNumber":"${number}"`));
      const found = await call(
        'GET',
        `/service/v1.2/RunningCostDistributionRead/AllocationGroups?allocationGroupCode=${code}`,
      );
      assert.equal(found.statusCode, 200, found.body);
      assert.deepEqual(
        found.json().map((g: { Id: number }) => g.Id),
        [group.Id],
      );
    });
  });
}
