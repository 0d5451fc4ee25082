// `serve --demo` on a database that is not empty loads nothing and says why, in the banner (src/cli/demo-setup.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, freshDatabase } from './support/db.ts';
import { setUpDemo } from '../src/cli/demo-setup.ts';
import { addUser } from '../src/auth/users.ts';

for (const dialect of DIALECTS) {
  describe(`serve --demo on a database that is not empty [${dialect}]`, () => {
    it('names the earlier demo set-up, or the users the database already has; loads nothing', async () => {
      const t = await freshDatabase(dialect);
      try {
        let loads = 0;
        const load = async () => void loads++;
        await addUser(t.db, { name: 'ops', password: 'ops-password-1', permissions: [] });
        const other = await setUpDemo(t, 'http://127.0.0.1:8080', load);
        assert.match(other.join('\n'), /already has users or data, so no demo data was loaded/);
        await addUser(t.db, { name: 'demo', password: 'demo-password-1', permissions: [] });
        const again = await setUpDemo(t, 'http://127.0.0.1:8080', load);
        assert.match(again.join('\n'), /set up on an earlier start; log in as 'demo'/);
        assert.equal(loads, 0);
      } finally {
        await t.drop();
      }
    });
  });
}
