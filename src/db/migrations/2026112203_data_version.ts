// A data version for the read caches: on PostgreSQL a counter that statement-level triggers on every table of
// the read model move on in the writing transaction (so it becomes visible exactly when the change commits).
// SQLite needs no table: PRAGMA data_version and total_changes() serve the same purpose there.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database.ts';

/** Tables whose content the cached read endpoints present. Frozen with this migration. */
const READ_MODEL_TABLES = [
  'company_codes',
  'catalog_codes',
  'facilities',
  'explanation_groups',
  'owners',
  'economic_units',
  'buildings',
  'lands',
  'use_units',
  'distribution_periods',
  'allocation_groups',
  'combined_allocation_groups',
  'allocation_group_bases',
  'allocation_group_use_units',
  'allocation_group_cost_types',
  'allocation_group_option_taxes',
  'allocation_group_base_cost_types',
  'allocation_group_base_option_taxes',
  'allocation_group_explanations',
  'combined_allocation_group_explanations',
  'price_indices',
  'price_index_values',
  'license_agreements',
  'contract_agreements',
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
  'use_unit_rent_adjustments',
  'rent_adjustment_surcharges',
  'rent_adjustment_facility_characteristics',
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await db.schema
    .createTable('data_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('data_version').values({ id: 1, version: 0 }).execute();
  await sql`CREATE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE data_version SET version = version + 1 WHERE id = 1; RETURN NULL; END $$`.execute(db);
  for (const table of READ_MODEL_TABLES) {
    await sql`CREATE TRIGGER ${sql.raw(`${table}_data_version`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of READ_MODEL_TABLES)
    await sql`DROP TRIGGER ${sql.raw(`${table}_data_version`)} ON ${sql.table(table)}`.execute(db);
  await sql`DROP FUNCTION bump_data_version()`.execute(db);
  await db.schema.dropTable('data_version').execute();
}
