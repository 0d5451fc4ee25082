// The persisted read model of the contract agreements (docs/performance.md, "The contract read model"): per agreement
// its wire JSON of version 1.2 and (for the kinds version 1.0 offers) 1.0, in both null modes, joined per request
// (src/rent-accounting/read-model.ts), and a second row of read_model_state (name 'contract_agreements') saying
// whether the texts are fresh. Triggers on every table the texts are made from mark that row stale in the writing
// transaction, whoever writes (SQLite: row-level; PostgreSQL: statement-level, as in 2026112401_read_model), so a
// stale read model is never used: the live path answers until a rebuild (the importer and demo load rebuild it at the
// end of their transaction) marks it fresh again.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database.ts';

/** Tables a contract agreement's wire form is made from (header, kinds' details and children, lookups). Frozen. */
const SOURCE_TABLES = [
  'contract_agreements',
  'license_agreements',
  'use_units',
  'catalog_codes',
  'price_indices',
  'price_index_values',
  'allocation_groups',
  'distribution_periods',
  'ca_index_rental',
  'ca_graduated_rent',
  'ca_graduated_rent_entries',
  'ca_turnover_rent',
  'ca_turnover_rent_steps',
  'ca_vat_option',
  'ca_rental_upper_limit',
  'ca_gross_rent_excluded_groups',
  'ca_special_charge',
  'ca_special_charge_calculation_bases',
  'ca_special_charge_billing_unit_values',
  'ca_special_use_right',
  'ca_prepayment_adjustment',
  'ca_distribution_cost_types',
  'ca_multiple_opt_in',
  'ca_prolongations',
  'ca_minor_repair_work',
  'ca_reminder_charge',
  'ca_reminder_charge_dunning_levels',
  'ca_waiver_of_termination',
];

const NAME = 'contract_agreements';

export async function up(db: Kysely<any>): Promise<void> {
  await db.insertInto('read_model_state').values({ name: NAME, stale: 1, format: '' }).execute();
  await db.schema
    .createTable('contract_agreement_texts')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('v12', 'text', (c) => c.notNull())
    .addColumn('v12_k', 'text')
    .addColumn('v10', 'text')
    .addColumn('v10_k', 'text')
    .execute();

  const mark = `UPDATE read_model_state SET stale = 1 WHERE name = '${NAME}'`;
  if (isPostgres(db)) {
    // Unconditional: the row lock orders every writer before or after a running rebuild (which locks the row first).
    await sql`CREATE FUNCTION mark_contract_read_model_stale() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN ${sql.raw(mark)}; RETURN NULL; END $$`.execute(db);
    for (const table of SOURCE_TABLES)
      await sql`CREATE TRIGGER ${sql.raw(`${table}_contract_read_model`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION mark_contract_read_model_stale()`.execute(db);
    return;
  }
  // SQLite: one writer at a time, so the cheap conditional form is enough (no write once stale).
  for (const table of SOURCE_TABLES)
    for (const event of ['insert', 'update', 'delete'])
      await sql`CREATE TRIGGER ${sql.raw(`${table}_contract_read_model_${event}`)} AFTER ${sql.raw(event.toUpperCase())} ON ${sql.table(table)}
        BEGIN ${sql.raw(mark)} AND stale = 0; END`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of SOURCE_TABLES)
      await sql`DROP TRIGGER ${sql.raw(`${table}_contract_read_model`)} ON ${sql.table(table)}`.execute(db);
    await sql`DROP FUNCTION mark_contract_read_model_stale()`.execute(db);
  } else {
    for (const table of SOURCE_TABLES)
      for (const event of ['insert', 'update', 'delete'])
        await sql`DROP TRIGGER ${sql.raw(`${table}_contract_read_model_${event}`)}`.execute(db);
  }
  await db.schema.dropTable('contract_agreement_texts').execute();
  await db.deleteFrom('read_model_state').where('name', '=', NAME).execute();
}
