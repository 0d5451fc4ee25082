// Correctness found on the way (issue 11, item 10): export is one snapshot, operator commands change all or
// nothing, export into a missing folder is a one-line error.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { DIALECTS, freshDatabase } from './support/db.ts';
import { cli } from './support/cli.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { exportData } from '../src/dataset/export.ts';
import { addUser } from '../src/auth/users.ts';
import { createApiKey } from '../src/auth/api-keys.ts';
import { insertBudget, insertCompanyCode } from '../src/dataset/factories.ts';

/** Makes every insert into `table` fail, as a broken disk or a constraint added later would. */
async function failInsertsInto(database: Database, table: string): Promise<void> {
  if (database.dialect === 'sqlite') {
    await sql
      .raw(`CREATE TRIGGER fail_${table} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'refused'); END`)
      .execute(database.db);
  } else {
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION fail_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`,
      )
      .execute(database.db);
    await sql
      .raw(`CREATE TRIGGER fail_${table} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION fail_insert()`)
      .execute(database.db);
  }
}

for (const dialect of DIALECTS) {
  describe(`operations [${dialect}]`, () => {
    it('export reads one snapshot: a ledger and a budget committed mid-export are not half in the file', async () => {
      const database = await freshDatabase(dialect);
      const other = openDatabase(database.url);
      try {
        await insertCompanyCode(database.db, { id: 1 });
        let committed = false;
        let text = '';
        const out = new Writable({
          highWaterMark: 1, // every write waits for its callback, so the commit below lands between two reads
          write(chunk: Buffer, _enc, done) {
            text += chunk.toString();
            if (committed || !text.includes('"Facilities"')) return done();
            committed = true;
            other.db
              .transaction()
              .execute(async (trx) => {
                await insertCompanyCode(trx, { id: 900 });
                await insertBudget(trx, { id: 901, company_code_id: 900 });
              })
              .then(() => done(), done);
          },
        });
        const summary = await exportData(database, out);
        assert.ok(committed, 'the concurrent commit happened during the export');
        const doc = JSON.parse(text) as Record<string, Array<{ Id: number }>>;
        assert.deepEqual(
          doc.CompanyCodes!.map((c) => c.Id),
          [1],
        );
        assert.deepEqual(doc.Budgets, [], 'a budget whose ledger is not in the file');
        assert.equal(summary.collections.Budgets, 0);
      } finally {
        await other.close();
        await database.drop();
      }
    });

    it('user add and apikey create change all or nothing', async () => {
      const database = await freshDatabase(dialect);
      try {
        await insertCompanyCode(database.db, { id: 7 });
        await failInsertsInto(database, 'user_ledgers');
        await assert.rejects(
          addUser(database.db, { name: 'half', password: 'half-secret', permissions: [], ledgers: [7] }),
        );
        assert.deepEqual(await database.db.selectFrom('users').select('name').execute(), []);
        await failInsertsInto(database, 'api_key_ledgers');
        await assert.rejects(createApiKey(database.db, { name: 'half', ledgers: [7] }));
        assert.deepEqual(await database.db.selectFrom('api_keys').select('name').execute(), []);
      } finally {
        await database.drop();
      }
    });
  });
}

describe('export into a missing folder', () => {
  it('is a one-line error, exit code 1, and leaves nothing behind', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-export-'));
    try {
      const target = path.join(dir, 'missing', 'out.json');
      const res = await cli(['export', target], { DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}` });
      assert.equal(res.code, 1);
      assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
      assert.match(res.stderr, /^wohnapi: error: cannot write .*out\.json: the folder .*missing does not exist/);
      assert.ok(!fs.existsSync(path.join(dir, 'missing')));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
