// A project's Code is unique within its ledger, and the check that looks for another project with the code reads
// one index entry, not every project (decisions §6). On PostgreSQL the unique index is on the code's MD5 digest
// (migration 2026112901, codes of any length): the lookup must name the digest to use it. SQLite indexes the code
// itself (company_code_id, code).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DIALECTS, freshDatabase, type TestDatabase } from '../../test/support/db.ts';
import { first } from '../../test/support/lists.ts';
import { buildWorld, type WorldLedger } from '../dataset/factories.ts';
import { ALL_LEDGERS } from '../auth/ledger-scope.ts';
import { createProject } from './commands.ts';
import { projectWithCode } from './queries.ts';

for (const dialect of DIALECTS) {
  describe(`the project Code lookup [${dialect}]`, () => {
    let database: TestDatabase;
    let A: WorldLedger;
    before(async () => {
      database = await freshDatabase(dialect);
      A = first((await buildWorld(database.db, { ledgers: 1 })).ledgers);
      for (const code of ['P-1', 'P-2', 'x'.repeat(5000)])
        await createProject(database.db, {
          scope: ALL_LEDGERS,
          userId: null,
          now: new Date('2026-02-03T04:05:06Z'),
          body: { CompanyCodeId: A.companyCodeId, ProjectLifeTimeFrom: '2025-01-01', Code: code },
        });
      // a ledger with many projects, its statistics known: a plan that reads the ledger's projects costs what it does
      await sql`insert into projects (company_code_id, code, project_life_time_from, created_at, updated_at)
        with recursive n(i) as (select 1 union all select i + 1 from n where i < 2000)
        select ${A.companyCodeId}, 'Q-' || i, '2025-01-01', '2026-02-03T04:05:06Z', '2026-02-03T04:05:06Z' from n`.execute(
        database.db,
      );
      await sql`analyze`.execute(database.db);
    });
    after(() => database.drop());

    it('finds the project with a code, also a code of 5,000 characters, and none for another ledger', async () => {
      const p2 = await projectWithCode(database.db, A.companyCodeId, 'P-2');
      assert.ok(p2 !== undefined);
      assert.equal(await projectWithCode(database.db, A.companyCodeId, 'P-2', p2), undefined);
      assert.ok((await projectWithCode(database.db, A.companyCodeId, 'x'.repeat(5000))) !== undefined);
      assert.equal(await projectWithCode(database.db, A.companyCodeId + 1000, 'P-2'), undefined);
    });

    it('reads an index, not the table', async () => {
      await database.db.transaction().execute(async (trx) => {
        if (dialect === 'postgres') {
          // without the table scan to choose, the planner takes an index: the digest's finds the one project, an index
          // on the ledger alone would fetch its 2,003 (the lookup is a prepared statement: after five calls its
          // generic plan, which knows no values, is what runs)
          await sql`set local enable_seqscan = off`.execute(trx);
          // the view counts the backend's reads not yet reported (earlier transactions too): the lookup's are the rise
          const counts = async () =>
            (
              await sql<{ seq: number; fetched: number }>`select seq_scan::int as seq, idx_tup_fetch::int as fetched
                from pg_stat_xact_user_tables where relname = 'projects'`.execute(trx)
            ).rows[0] ?? { seq: 0, fetched: 0 };
          const before = await counts();
          for (let i = 0; i < 6; i++) await projectWithCode(trx, A.companyCodeId, 'P-1');
          const after = await counts();
          assert.deepEqual(
            { seq: after.seq - before.seq, fetched: after.fetched - before.fetched },
            { seq: 0, fetched: 6 },
          );
        } else {
          const { rows } = await sql<{ detail: string }>`explain query plan select id from projects
            where company_code_id = ${A.companyCodeId} and code = ${'P-1'} and id <> ${0}`.execute(trx);
          assert.match(rows.map((r) => r.detail).join('\n'), /USING (COVERING )?INDEX projects_company_code_id_code/);
        }
      });
    });
  });
}
