// The example document of docs/import-format.md imports as it stands (the docs stay true).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { DIALECTS } from '../../test/support/db.ts';
import { importText, withDb } from '../../test/support/dataset.ts';

const DOC = fs.readFileSync(new URL('../../docs/import-format.md', import.meta.url), 'utf8');
const EXAMPLE = /```json\n([\s\S]*?)```/.exec(DOC)?.[1] ?? '';

for (const dialect of DIALECTS) {
  describe(`docs/import-format.md [${dialect}]`, () => {
    it('its example document imports into an empty database', async () => {
      assert.match(EXAMPLE, /"Format":"wohnapi-data\/1"/);
      await withDb(dialect, async (t) => {
        const summary = await importText(t, EXAMPLE);
        assert.equal(summary.records, 7);
      });
    });
  });
}
