import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS, createEmptyDatabaseUrl } from './support/db.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

for (const dialect of DIALECTS) {
  describe(`migrations [${dialect}]`, () => {
    it('apply to an empty database, then are a no-op the second time', async () => {
      const { url, remove } = await createEmptyDatabaseUrl(dialect);
      const database = openDatabase(url);
      try {
        const first = await migrateToLatest(database);
        assert.ok(first.applied.includes('2026112201_foundation'));
        const second = await migrateToLatest(database);
        assert.deepEqual(second.applied, []);
        const users = await database.db.selectFrom('users').selectAll().execute();
        assert.deepEqual(users, []);
      } finally {
        await database.close();
        await remove();
      }
    });
  });
}
