// PostgreSQL: the read models' texts (the pieces of AllocationGroupBases, the contract agreements' wire JSON) are
// read whole on every page and never searched, so they are stored without compression (STORAGE EXTERNAL). A page of
// 100 AllocationGroupBases read 100 compressed texts of ~2 kB and decompressed each (pglz): ~0.3 ms of PostgreSQL's
// CPU per page. Stored plain, they take ~1 MB more per 1,000 bases. The setting applies to values written after it,
// so a read model that has texts is marked stale: `serve` (or the next import) rebuilds it
// (src/dataset/read-models.ts), and until then its live path answers. SQLite is unchanged: it does not compress.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database.ts';

/** Read model (its row in read_model_state) -> the table of its texts. */
const TEXTS: Record<string, string> = {
  allocation_group_bases: 'allocation_group_base_fragments',
  contract_agreements: 'contract_agreement_texts',
};

async function setStorage(db: Kysely<any>, storage: 'EXTERNAL' | 'EXTENDED'): Promise<void> {
  for (const table of Object.values(TEXTS)) {
    const { rows } = await sql<{ attname: string }>`SELECT attname FROM pg_attribute
      WHERE attrelid = ${table}::regclass AND attnum > 0 AND NOT attisdropped AND atttypid = 'text'::regtype
      ORDER BY attnum`.execute(db);
    for (const { attname } of rows)
      await sql`ALTER TABLE ${sql.id(table)} ALTER COLUMN ${sql.id(attname)} SET STORAGE ${sql.raw(storage)}`.execute(
        db,
      );
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await setStorage(db, 'EXTERNAL');
  // a read model without texts (a new database) has nothing stored compressed: it stays as it is
  for (const [name, table] of Object.entries(TEXTS))
    await sql`UPDATE read_model_state SET stale = 1
      WHERE name = ${name} AND EXISTS (SELECT 1 FROM ${sql.id(table)})`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await setStorage(db, 'EXTENDED');
}
