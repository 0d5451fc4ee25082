// PostgreSQL: text that clients and imports write may be of any length, as on SQLite, but a B-tree index entry may
// not exceed ~2.7 kB (after compression): a project Code or a use-unit number of ~3,000 random characters was a 500
// on PostgreSQL and stored on SQLite. The equality lookups on such text (codes, numbers, IdNum, SearchPattern) are
// now hash indexes, which take any length; the one unique rule (a project Code within its ledger, decisions §4) is a
// unique B-tree index on the code's MD5 digest (sha256 needs bytea, and no cast of text to bytea is immutable and exact). SQLite is unchanged: its B-trees take keys of any length.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database.ts';

/** Index name -> [table, column] of the equality lookups on client text (created in 2026112202 and later). */
const LOOKUPS: Record<string, [string, string]> = {
  allocation_groups_code_id: ['allocation_groups', 'code'],
  allocation_groups_search_pattern_id: ['allocation_groups', 'search_pattern'],
  allocation_group_bases_code_id: ['allocation_group_bases', 'code'],
  allocation_group_bases_search_pattern_id: ['allocation_group_bases', 'search_pattern'],
  buildings_number: ['buildings', 'number'],
  economic_units_number: ['economic_units', 'number'],
  lands_number: ['lands', 'number'],
  license_agreements_id_num: ['license_agreements', 'id_num'],
  loans_loan_number: ['loans', 'loan_number'],
  managements_id_num: ['managements', 'id_num'],
  owners_owner_number: ['owners', 'owner_number'],
  persons_id_num: ['persons', 'id_num'],
  price_indices_code: ['price_indices', 'code'],
  use_units_use_unit_number: ['use_units', 'use_unit_number'],
};

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const [name, [table, column]] of Object.entries(LOOKUPS)) {
    await sql`DROP INDEX IF EXISTS ${sql.id(name)}`.execute(db);
    await sql`CREATE INDEX ${sql.id(name)} ON ${sql.id(table)} USING hash (${sql.id(column)})`.execute(db);
  }
  await sql`DROP INDEX IF EXISTS projects_company_code_id_code`.execute(db);
  await sql`CREATE UNIQUE INDEX projects_company_code_id_code
    ON projects (company_code_id, md5(code)) WHERE code IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const [name, [table, column]] of Object.entries(LOOKUPS)) {
    await sql`DROP INDEX IF EXISTS ${sql.id(name)}`.execute(db);
    const columns = name.endsWith('_id') ? sql`${sql.id(column)}, id` : sql.id(column);
    await sql`CREATE INDEX ${sql.id(name)} ON ${sql.id(table)} (${columns})`.execute(db);
  }
  await sql`DROP INDEX IF EXISTS projects_company_code_id_code`.execute(db);
  await sql`CREATE UNIQUE INDEX projects_company_code_id_code ON projects (company_code_id, code)
    WHERE code IS NOT NULL`.execute(db);
}
