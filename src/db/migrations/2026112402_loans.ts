// Loans read by vendor clients (decisions §7, vendor-master-data.md §2.8, docs/master-data.md): the missing columns
// of `loans` (loan type and the other catalogue references as catalog_entries ids, lender and borrower as persons,
// dates, amounts, banking, the precursor loan; the follower is the loan whose precursor it is) and the child tables conditions, annuity headers, repayment
// plan entries and object assignments (loan -> economic unit). A loan's bank account is a person's account row that
// the import replaces with its person, so it is checked by the importer, not by a foreign key (as payment modes').
import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';
import { isPostgres } from '../database.ts';
import { decimal } from '../column-types.ts';

type Col = ColumnDefinitionBuilder;
type Table = CreateTableBuilder<string, string>;
type ColumnType = 'integer' | 'text' | 'decimal';
/** [column, type, references (table.column) or undefined]. */
type NewColumn = [string, ColumnType, string?];

const cat = 'catalog_entries.id';

/** Columns added to `loans` (SQLite adds one column per statement). */
const LOAN_COLUMNS: NewColumn[] = [
  ['loan_type_id', 'integer', cat],
  ['collateral_security_id', 'integer', cat],
  ['lender_id', 'integer', 'persons.id'],
  ['borrower_id', 'integer', 'persons.id'],
  ['contract_date', 'text'],
  ['date_of_full_payment', 'text'],
  ['has_special_repayment_option', 'integer'],
  ['current_day', 'text'],
  ['min_term_from', 'text'],
  ['nominal_as_per_land_register', 'decimal'],
  ['nominal_capital', 'decimal'],
  ['residual_debt', 'decimal'],
  ['calculation_capital', 'decimal'],
  ['annuity_mix', 'decimal'],
  ['debt_discount_percent', 'decimal'],
  ['building_saving_sum', 'decimal'],
  ['file_number', 'text'],
  ['contingent_number', 'text'],
  ['own_reference', 'text'],
  ['repayment_blackout_period', 'text'],
  ['end_of_interest_fixing', 'text'],
  ['last_ended_interest_entry', 'text'],
  ['use_virtual_iban', 'integer'],
  ['virtual_iban', 'text'],
  ['former_virtual_iban', 'text'],
  ['collective_no_real_bank_account', 'integer'],
  ['collective_iban', 'text'],
  ['collective_bic', 'text'],
  ['collective_account_holder', 'text'],
  ['bank_account_id', 'integer'],
  ['subsidies_loan_id', 'integer', cat],
  ['cancellation_possibility_id', 'integer', cat],
  ['precursor_loan_id', 'integer', 'loans.id'],
];

/** New tables in creation order with their columns (each has id and loan_id); `down` drops them in reverse. */
const TABLES: [string, NewColumn[]][] = [
  [
    'loan_conditions',
    [
      ['term_from', 'text'],
      ['term_to', 'text'],
      ['amount', 'decimal'],
      ['percentage', 'decimal'],
      ['first_maturity', 'text'],
      ['next_maturity', 'text'],
      ['fixed_maturity', 'text'],
      ['amortization_setting_off', 'text'],
      ['loan_terms_type_id', 'integer', cat],
      ['maturity_date_type_id', 'integer', cat],
      ['period_of_performance_from_id', 'integer', cat],
      ['period_of_performance_to_id', 'integer', cat],
      ['rounding_type_id', 'integer', cat],
      ['loan_base_id', 'integer', cat],
      ['change_reason_cost_item_id', 'integer', cat],
      ['maturity_period_id', 'integer', cat],
    ],
  ],
  [
    'loan_annuity_headers',
    [
      ['annuity_per_maturity', 'decimal'],
      ['term_from', 'text'],
      ['term_to', 'text'],
    ],
  ],
  [
    'loan_repayment_plan_entries',
    [
      ['maturity', 'text'],
      ['rest_debt', 'decimal'],
      ['calculation_capital', 'decimal'],
      ['annuity_amount', 'decimal'],
      ['amortization', 'decimal'],
      ['interest', 'decimal'],
      ['administrative_cost', 'decimal'],
      ['guarantee_fee', 'decimal'],
      ['non_standard_amortization', 'decimal'],
      ['validation', 'decimal'],
      ['is_past_period', 'integer'],
      ['payment_amount', 'decimal'],
      ['residual_debt_next_period', 'decimal'],
    ],
  ],
  [
    'loan_object_assignments',
    [
      ['nominal_amount', 'decimal'],
      ['object_allocation_type_id', 'integer', cat],
    ],
  ],
];

/** Indexes for the filters of Loans/Loan and the joins of its child rows: [table, columns]. */
const INDEXES: [string, string[]][] = [
  ['loans', ['loan_number']],
  ['loans', ['loan_type_id']],
  ['loans', ['lender_id']],
  ['loans', ['borrower_id']],
  ['loans', ['precursor_loan_id']],
  ['loan_conditions', ['loan_id', 'id']],
  ['loan_annuity_headers', ['loan_id', 'id']],
  ['loan_repayment_plan_entries', ['loan_id', 'id']],
  ['loan_object_assignments', ['loan_id', 'id']],
  ['loan_object_assignments', ['economic_unit_id']],
];

export async function up(db: Kysely<any>): Promise<void> {
  const dec = decimal(db);
  const type = (t: ColumnType) => (t === 'decimal' ? dec : t);
  const ref = (target: string) => (c: Col) => c.references(target);
  for (const [name, ty, target] of LOAN_COLUMNS)
    await db.schema
      .alterTable('loans')
      .addColumn(name, type(ty), target ? ref(target) : (c) => c)
      .execute();
  for (const [name, columns] of TABLES) {
    let t = db.schema
      .createTable(name)
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('loan_id', 'integer', (c) => c.notNull().references('loans.id').onDelete('cascade')) as Table;
    if (name === 'loan_object_assignments')
      t = t.addColumn('economic_unit_id', 'integer', (c) => c.notNull().references('economic_units.id'));
    for (const [column, ty, target] of columns) t = t.addColumn(column, type(ty), target ? ref(target) : (c) => c);
    await t.execute();
  }
  for (const [table, cols] of INDEXES)
    await db.schema
      .createIndex(`${table}_${cols.join('_')}`)
      .on(table)
      .columns(cols)
      .execute();
  // The read caches follow the data version (2026112203_data_version); `loans` had no trigger before.
  if (isPostgres(db))
    for (const table of ['loans', ...TABLES.map(([name]) => name)]) {
      const trigger = sql.raw(`${table}_data_version`);
      await sql`DROP TRIGGER IF EXISTS ${trigger} ON ${sql.table(table)}`.execute(db);
      await sql`CREATE TRIGGER ${trigger} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()`.execute(db);
    }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`DROP TRIGGER IF EXISTS loans_data_version ON loans`.execute(db);
  for (const [table, cols] of INDEXES.filter(([t]) => t === 'loans'))
    await db.schema.dropIndex(`${table}_${cols.join('_')}`).execute();
  for (const [name] of [...TABLES].reverse()) await db.schema.dropTable(name).execute();
  for (const [name] of [...LOAN_COLUMNS].reverse()) await db.schema.alterTable('loans').dropColumn(name).execute();
}
