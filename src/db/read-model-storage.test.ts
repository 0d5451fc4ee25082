// The read models' texts are stored uncompressed on PostgreSQL (migration 2026113001_read_model_texts_uncompressed):
// every page reads them whole, and decompressing 100 texts was ~0.3 ms of PostgreSQL's CPU per AllocationGroupBases
// page. The migration marks a read model that has texts stale (its old values stay compressed until rewritten), and
// `serve` rebuilds it; one without texts stays as it is. SQLite does not compress: nothing changes there.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DIALECTS, freshDatabase, type TestDatabase } from '../../test/support/db.ts';
import { loadDemo } from '../dataset/demo/load.ts';
import { refreshReadModels } from '../dataset/read-models.ts';
import { up } from './migrations/2026113001_read_model_texts_uncompressed.ts';

const TEXTS = ['allocation_group_base_fragments', 'contract_agreement_texts'];

for (const dialect of DIALECTS) {
  describe(`read-model texts stored uncompressed [${dialect}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await freshDatabase(dialect);
    });
    after(() => database.drop());

    const staleness = async () =>
      Object.fromEntries(
        (await database.db.selectFrom('read_model_state').select(['name', 'stale']).orderBy('name').execute()).map(
          (r) => [r.name, Number(r.stale)],
        ),
      );

    it('texts written after the migration are stored as they are (PostgreSQL: no compression)', async () => {
      await loadDemo(database, { scale: 1, seed: 2 });
      assert.deepEqual(await staleness(), { allocation_group_bases: 0, contract_agreements: 0 });
      if (dialect !== 'postgres') return;
      for (const table of TEXTS) {
        const { rows } = await sql<{ attname: string; attstorage: string }>`SELECT attname, attstorage
          FROM pg_attribute WHERE attrelid = ${table}::regclass AND attnum > 0 AND NOT attisdropped
          AND atttypid = 'text'::regtype`.execute(database.db);
        assert.ok(rows.length >= 2, table);
        for (const r of rows) assert.equal(r.attstorage, 'e', `${table}.${r.attname}`);
      }
      // a base's complete text of ~2 kB compresses to about half; stored plain, its size is its length
      const { rows } = await sql<{ compressed: number | string; long: number | string }>`SELECT
          count(*) FILTER (WHERE pg_column_size(complete) < octet_length(complete)) AS compressed,
          count(*) FILTER (WHERE octet_length(complete) > 2100) AS long
        FROM allocation_group_base_fragments`.execute(database.db);
      assert.ok(Number(rows[0]!.long) > 0, 'some texts are long enough to be compressed');
      assert.equal(Number(rows[0]!.compressed), 0);
    });

    it('applied to a database with texts: PostgreSQL marks both read models stale, a rebuild makes them fresh', async () => {
      await up(database.db);
      const expected = dialect === 'postgres' ? 1 : 0;
      assert.deepEqual(await staleness(), { allocation_group_bases: expected, contract_agreements: expected });
      const lines = await refreshReadModels(database.db);
      assert.equal(lines.length, 2 * expected, lines.join('\n'));
      assert.deepEqual(await staleness(), { allocation_group_bases: 0, contract_agreements: 0 });
    });

    it('a read model without texts is left as it is (nothing was stored compressed)', async () => {
      const empty = await freshDatabase(dialect);
      try {
        await refreshReadModels(empty.db); // rebuilt from nothing: fresh
        await up(empty.db);
        const rows = await empty.db.selectFrom('read_model_state').select(['name', 'stale']).orderBy('name').execute();
        assert.deepEqual(
          rows.map((r) => [r.name, Number(r.stale)]),
          [
            ['allocation_group_bases', 0],
            ['contract_agreements', 0],
          ],
        );
      } finally {
        await empty.drop();
      }
    });
  });
}
