// A persisted read model for AllocationGroupBases (docs/performance.md, "The read model"): per base the JSON pieces
// of its wire form in both null modes, spliced per request (src/running-cost/read-model.ts), and a state row saying
// whether the pieces are fresh. Triggers on every table the pieces are made from mark the state stale in the writing
// transaction, whoever writes (SQLite: row-level; PostgreSQL: statement-level, like 2026112203_data_version), so a
// stale read model is never used: the live path answers until a rebuild (the importer and demo load rebuild it at
// the end of their transaction) marks it fresh again.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database.ts';

/** Tables an AllocationGroupBase's wire form is made from. Frozen with this migration. */
const SOURCE_TABLES = [
  'allocation_group_bases',
  'owners',
  'company_codes',
  'catalog_codes',
  'distribution_periods',
  'allocation_groups',
  'combined_allocation_groups',
  'facilities',
  'allocation_group_use_units',
  'use_units',
  'allocation_group_base_cost_types',
  'allocation_group_explanations',
  'combined_allocation_group_explanations',
  'explanation_groups',
  'allocation_group_base_option_taxes',
];

/** Pieces of a fragment row: the omit-nulls text (not null) and the showNullValues text (null = the same). */
const PIECES = [
  'head',
  'use_units',
  'group_explanations',
  'middle',
  'combined_explanations',
  'cost_types',
  'option_taxes',
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('read_model_state')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('stale', 'integer', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .execute();
  await db.insertInto('read_model_state').values({ name: 'allocation_group_bases', stale: 1, format: '' }).execute();
  let fragments = db.schema
    .createTable('allocation_group_base_fragments')
    .addColumn('id', 'integer', (c) => c.primaryKey());
  for (const piece of PIECES)
    fragments = fragments.addColumn(piece, 'text', (c) => c.notNull()).addColumn(`${piece}_k`, 'text');
  await fragments.execute();

  const mark = "UPDATE read_model_state SET stale = 1 WHERE name = 'allocation_group_bases'";
  if (isPostgres(db)) {
    // Unconditional (not `AND stale = 0`): the row lock it takes orders every writer after a running rebuild, which
    // locks the row first (src/running-cost/read-model.ts).
    await sql`CREATE FUNCTION mark_read_model_stale() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN ${sql.raw(mark)}; RETURN NULL; END $$`.execute(db);
    for (const table of SOURCE_TABLES)
      await sql`CREATE TRIGGER ${sql.raw(`${table}_read_model`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION mark_read_model_stale()`.execute(db);
    return;
  }
  // SQLite: one writer at a time, so the cheap conditional form is enough (no write once stale).
  for (const table of SOURCE_TABLES)
    for (const event of ['insert', 'update', 'delete'])
      await sql`CREATE TRIGGER ${sql.raw(`${table}_read_model_${event}`)} AFTER ${sql.raw(event.toUpperCase())} ON ${sql.table(table)}
        BEGIN ${sql.raw(mark)} AND stale = 0; END`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of SOURCE_TABLES)
      await sql`DROP TRIGGER ${sql.raw(`${table}_read_model`)} ON ${sql.table(table)}`.execute(db);
    await sql`DROP FUNCTION mark_read_model_stale()`.execute(db);
  } else {
    for (const table of SOURCE_TABLES)
      for (const event of ['insert', 'update', 'delete'])
        await sql`DROP TRIGGER ${sql.raw(`${table}_read_model_${event}`)}`.execute(db);
  }
  await db.schema.dropTable('allocation_group_base_fragments').execute();
  await db.schema.dropTable('read_model_state').execute();
}
