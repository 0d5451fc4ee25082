// Master data read by vendor clients (decisions §7, docs/master-data.md): catalogue entries keyed per kind, persons
// with their addresses, communications, bank accounts and contact persons, contractors, payment modes, contract
// positions, managements, departments, responsible officials, jurisdictions, and the missing columns of economic
// units, buildings, land, use units (type history, billing units), owners and license agreements.
// Catalogue references point at catalog_entries.id (a row id); the vendor's Id is catalog_entries.kind_id, unique
// per kind. Ledger columns copy the license agreement's (composite foreign keys, as in 2026112202_domain).
// A communication's related address and a payment mode's bank account are rows that the import replaces with their
// person, so they are checked by the importer, not by a foreign key (docs/master-data.md).
import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';
import { isPostgres } from '../database.ts';
import { decimal } from '../column-types.ts';

type Col = ColumnDefinitionBuilder;
type Table = CreateTableBuilder<string, string>;
type ColumnType = 'integer' | 'text' | 'decimal';
/** [column, type, references (table.column) or undefined]. */
type NewColumn = [string, ColumnType, string?];

/** New tables in creation order; `down` drops them in reverse. */
const TABLES = [
  'catalog_entries',
  'persons',
  'person_addresses',
  'person_communications',
  'person_bank_accounts',
  'person_contact_persons',
  'managements',
  'management_company_codes',
  'use_unit_types',
  'use_unit_billing_units',
  'contractors',
  'payment_modes',
  'contract_position_type_details',
  'contract_positions',
  'departments',
  'responsible_officials',
  'department_officials',
  'jurisdictions',
];

const cat = 'catalog_entries.id';
const ESTATE_ADDRESS: NewColumn[] = [
  ['zip', 'text'],
  ['town', 'text'],
  ['street', 'text'],
  ['house_number', 'text'],
  ['house_number_addition', 'text'],
  ['country_id', 'integer', cat],
];
const BUILDING_LAND: NewColumn[] = [
  ...ESTATE_ADDRESS,
  ['entry_date', 'text'],
  ['exit_date', 'text'],
  ['entry_reason_id', 'integer', cat],
  ['exit_reason_id', 'integer', cat],
  ['construction_year', 'integer'],
  ['move_in_date', 'text'],
  ['storeys', 'integer'],
  ['construction_method_id', 'integer', cat],
  ['building_type_id', 'integer', cat],
  ['district_id', 'integer', cat],
  ['monumental_protection_type_id', 'integer', cat],
  ['origin_id', 'integer', cat],
  ['change_reason_id', 'integer', cat],
  ['land_area', 'decimal'],
];

/** Columns added to existing tables (SQLite adds one column per statement). */
const ADDED: Record<string, NewColumn[]> = {
  owners: [
    ['person_id', 'integer', 'persons.id'],
    ['is_condominium', 'integer'],
  ],
  economic_units: [
    ['location', 'text'],
    ['construction_year', 'integer'],
    ['info', 'text'],
    ['binding_end_date', 'text'],
    ['owner_id', 'integer', 'owners.id'],
    ['management_id', 'integer', 'managements.id'],
    ['asset_identification_id', 'integer', cat],
    ['status_inventory_id', 'integer', cat],
    ['district_id', 'integer', cat],
    ['monumental_protection_type_id', 'integer', cat],
    ['regional_responsibility_id', 'integer', cat],
    ['universal_official_id', 'integer', 'responsible_officials.id'],
  ],
  buildings: BUILDING_LAND,
  lands: BUILDING_LAND,
  use_units: [
    ...ESTATE_ADDRESS,
    ['usable_space', 'decimal'],
    ['living_space', 'decimal'],
    ['heating_space', 'decimal'],
    ['number_of_rooms', 'integer'],
    ['number_of_half_rooms', 'integer'],
    ['target_rent', 'decimal'],
    ['management_start', 'text'],
    ['management_end', 'text'],
    ['binding_end_date', 'text'],
    ['move_in_date', 'text'],
    ['entry_date', 'text'],
    ['exit_date', 'text'],
    ['entry_reason_id', 'integer', cat],
    ['exit_reason_id', 'integer', cat],
    ['energy_certificate_id', 'integer'],
    ['position_id', 'integer', cat],
    ['floor_id', 'integer', cat],
    ['residential_authorization_id', 'integer', cat],
    ['financing_type_id', 'integer', cat],
    ['universal_official_id', 'integer', 'responsible_officials.id'],
  ],
  license_agreements: [
    ['restriction_of_use_id', 'integer', cat],
    ['status_contract_id', 'integer', cat],
    ['life_of_contract_id', 'integer', cat],
    ['payment_interval_id', 'integer', cat],
    ['period_of_notice_id', 'integer', cat],
    ['debit_entry_type_id', 'integer', cat],
    ['differing_maturity', 'integer'],
    ['dunning_block', 'integer'],
    ['dunning_level_id', 'integer', 'catalog_codes.id'],
    ['use_virtual_iban', 'integer'],
    ['virtual_iban', 'text'],
    ['former_virtual_iban', 'text'],
    ['collective_no_real_bank_account', 'integer'],
    ['collective_iban', 'text'],
    ['collective_bic', 'text'],
    ['collective_account_holder', 'text'],
  ],
};

/** Indexes for the filters and the joins of the read endpoints: [table, columns]. */
const INDEXES: [string, string[]][] = [
  ['persons', ['id_num']],
  ['person_addresses', ['person_id', 'id']],
  ['person_communications', ['person_id', 'id']],
  ['person_bank_accounts', ['person_id', 'id']],
  ['person_contact_persons', ['person_id', 'id']],
  ['managements', ['id_num']],
  ['managements', ['person_id']],
  ['management_company_codes', ['company_code_id']],
  ['owners', ['owner_number']],
  ['owners', ['person_id']],
  ['economic_units', ['number']],
  ['economic_units', ['owner_id']],
  ['economic_units', ['management_id']],
  ['buildings', ['number']],
  ['lands', ['number']],
  ['use_unit_types', ['use_unit_id', 'valid_from']],
  ['use_unit_billing_units', ['use_unit_id', 'id']],
  ['contractors', ['license_agreement_id']],
  ['contractors', ['person_id', 'company_code_id']],
  ['contractors', ['company_code_id', 'id']],
  ['payment_modes', ['license_agreement_id']],
  ['payment_modes', ['company_code_id', 'id']],
  ['contract_positions', ['license_agreement_id']],
  ['contract_positions', ['company_code_id', 'id']],
  ['departments', ['management_id']],
  ['department_officials', ['responsible_official_id']],
  ['responsible_officials', ['person_id']],
  ['jurisdictions', ['economic_unit_id', 'id']],
  ['jurisdictions', ['use_unit_id', 'id']],
  ['jurisdictions', ['company_code_id', 'economic_unit_id']],
  ['jurisdictions', ['responsible_official_id']],
];

export async function up(db: Kysely<any>): Promise<void> {
  const dec = decimal(db);
  const type = (t: ColumnType) => (t === 'decimal' ? dec : t);
  const notNull = (c: Col) => c.notNull();
  const ref = (target: string) => (c: Col) => c.references(target);
  const parent = (target: string) => (c: Col) => c.notNull().references(target).onDelete('cascade');
  const create = (name: string, build: (t: Table) => Table, pk = true) => {
    let t = db.schema.createTable(name) as Table;
    if (pk) t = t.addColumn('id', 'integer', (c) => c.primaryKey());
    return build(t).execute();
  };
  const columns = (t: Table, list: NewColumn[]) =>
    list.reduce((acc, [name, ty, target]) => acc.addColumn(name, type(ty), target ? ref(target) : (c) => c), t);
  /** The ledger of a row that belongs to a license agreement (composite FK keeps it equal to the agreement's). */
  const ofAgreement = (t: Table, name: string) =>
    t
      .addColumn('license_agreement_id', 'integer', notNull)
      .addColumn('company_code_id', 'integer', (c) => c.notNull().references('company_codes.id'))
      .addForeignKeyConstraint(
        `${name}_license_fk`,
        ['license_agreement_id', 'company_code_id'],
        'license_agreements',
        ['id', 'company_code_id'],
        (f) => f.onUpdate('cascade').onDelete('cascade'),
      );

  await create('catalog_entries', (t) =>
    columns(t.addColumn('kind', 'text', notNull).addColumn('kind_id', 'integer', notNull), [
      ['code', 'text'],
      ['name', 'text'],
      ['short_code', 'text'],
      ['node_id', 'integer'],
      ['classification_id', 'integer'],
      ['classification', 'text'],
      ['level_to_ground', 'integer'],
      ['is_vacancy', 'integer'],
    ]).addUniqueConstraint('catalog_entries_kind_id', ['kind', 'kind_id']),
  );
  await create('persons', (t) =>
    columns(
      t
        .addColumn('id_num', 'text', notNull)
        .addColumn('name', 'text', notNull)
        .addColumn('is_natural_person', 'integer', notNull)
        .addColumn('valid_from', 'text', notNull),
      [
        ['short_name', 'text'],
        ['valid_to', 'text'],
        ['node_id', 'integer'],
        ['tax_number', 'text'],
        ['tax_identification_number', 'text'],
        ['title', 'text'],
        ['first_name', 'text'],
        ['last_name', 'text'],
        ['birth_name', 'text'],
        ['care_of', 'text'],
        ['birth_date', 'text'],
        ['death_date', 'text'],
        ['gender_id', 'integer', cat],
        ['marital_type_id', 'integer', cat],
        ['nationality_id', 'integer', cat],
        ['long_name1', 'text'],
        ['long_name2', 'text'],
        ['vat_id', 'text'],
        ['commercial_register_number', 'text'],
        ['commercial_register_town', 'text'],
      ],
    ),
  );
  await create('person_addresses', (t) =>
    columns(t.addColumn('person_id', 'integer', parent('persons.id')), [
      ...ESTATE_ADDRESS,
      ['valid_from', 'text'],
      ['valid_to', 'text'],
      ['main_address', 'integer'],
      ['address_type_id', 'integer', cat],
    ]),
  );
  await create('person_communications', (t) =>
    columns(t.addColumn('person_id', 'integer', parent('persons.id')), [
      ['related_address_id', 'integer'],
      ['content', 'text'],
      ['explanation', 'text'],
      ['communication_type_id', 'integer', cat],
    ]),
  );
  await create('person_bank_accounts', (t) =>
    columns(t.addColumn('person_id', 'integer', parent('persons.id')), [
      ['iban', 'text'],
      ['bic', 'text'],
      ['account_holder', 'text'],
      ['valid_from', 'text'],
      ['valid_to', 'text'],
      ['bank_account_type_id', 'integer', cat],
      ['bank_account_usage_type_id', 'integer', cat],
    ]),
  );
  await create('person_contact_persons', (t) =>
    columns(t.addColumn('person_id', 'integer', parent('persons.id')), [
      ['id_num', 'text'],
      ['first_name', 'text'],
      ['last_name', 'text'],
    ]),
  );
  await create('managements', (t) =>
    columns(t.addColumn('id_num', 'text', notNull), [
      ['name', 'text'],
      ['node_id', 'integer'],
      ['parent_management_id', 'integer', 'managements.id'],
      ['administration_type_id', 'integer', cat],
      ['person_id', 'integer', 'persons.id'],
    ]),
  );
  await create(
    'management_company_codes',
    (t) =>
      t
        .addColumn('management_id', 'integer', parent('managements.id'))
        .addColumn('company_code_id', 'integer', (c) => c.notNull().references('company_codes.id'))
        .addPrimaryKeyConstraint('management_company_codes_pk', ['management_id', 'company_code_id']),
    false,
  );
  await create('responsible_officials', (t) =>
    columns(t, [
      ['code_short', 'text'],
      ['automatic_mails_activated', 'integer'],
      ['universal_responsibility_possible', 'integer'],
      ['user_id', 'integer'],
      ['person_id', 'integer', 'persons.id'],
    ]),
  );
  for (const [table, list] of Object.entries(ADDED))
    for (const [name, ty, target] of list)
      await db.schema
        .alterTable(table)
        .addColumn(name, type(ty), target ? ref(target) : (c) => c)
        .execute();
  await create('use_unit_types', (t) =>
    columns(t.addColumn('use_unit_id', 'integer', parent('use_units.id')), [
      ['valid_from', 'text'],
      ['valid_to', 'text'],
      ['use_unit_usage_type_id', 'integer', cat],
    ]),
  );
  await create('use_unit_billing_units', (t) =>
    columns(t.addColumn('use_unit_id', 'integer', parent('use_units.id')), [
      ['value', 'decimal'],
      ['valid_from', 'text'],
      ['valid_to', 'text'],
      ['is_base_component_cold_water', 'integer'],
      ['is_base_component_heating', 'integer'],
      ['is_base_component_warm_water', 'integer'],
      ['quantity_type_id', 'integer', cat],
    ]),
  );
  await create('contractors', (t) =>
    columns(
      ofAgreement(t, 'contractors').addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id')),
      [
        ['contractor_type_id', 'integer', cat],
        ['contractual_use_valid_from', 'text'],
        ['contractual_use_valid_to', 'text'],
      ],
    ),
  );
  await create('payment_modes', (t) =>
    columns(ofAgreement(t, 'payment_modes'), [
      ['active_from', 'text'],
      ['active_to', 'text'],
      ['mode_id', 'integer', cat],
      ['type_id', 'integer', cat],
      ['sepa_mandate_reference', 'text'],
      ['bank_account_id', 'integer'],
    ]),
  );
  await create(
    'contract_position_type_details',
    (t) =>
      columns(
        t.addColumn('id', 'integer', (c) => c.primaryKey().references('catalog_codes.id').onDelete('cascade')),
        [
          ['deposit', 'integer'],
          ['wb_relevant', 'integer'],
          ['bgb_relevant', 'integer'],
          ['is_part_of_net_rent', 'integer'],
          ['using_cp_as_prepayment_block', 'integer'],
          ['assignment_prepayment', 'text'],
          ['is_gross_rent_without_heating', 'integer'],
          ['is_part_of_net_rent_census', 'integer'],
          ['is_basis_calculation_reminder_charge_interest', 'integer'],
          ['is_prepayment_heating', 'integer'],
          ['is_prepayment_running_cost', 'integer'],
          ['report_as_sinking_fund', 'integer'],
        ],
      ),
    false,
  );
  await create('contract_positions', (t) =>
    columns(ofAgreement(t, 'contract_positions'), [
      ['net_amount', 'decimal'],
      ['amount', 'decimal'],
      ['active_from', 'text'],
      ['active_to', 'text'],
      ['vat_rate_id', 'integer', 'catalog_codes.id'],
      ['contract_position_type_id', 'integer', 'catalog_codes.id'],
      ['valid_contract_position_id', 'integer', cat],
      ['change_reason_contracts_id', 'integer', cat],
    ]),
  );
  await create('departments', (t) =>
    columns(t.addColumn('id_num', 'text'), [
      ['name', 'text'],
      ['management_id', 'integer', 'managements.id'],
      ['parent_id', 'integer', 'departments.id'],
      ['department_type_id', 'integer', cat],
    ]),
  );
  await create(
    'department_officials',
    (t) =>
      t
        .addColumn('department_id', 'integer', parent('departments.id'))
        .addColumn('responsible_official_id', 'integer', parent('responsible_officials.id'))
        .addPrimaryKeyConstraint('department_officials_pk', ['department_id', 'responsible_official_id']),
    false,
  );
  await create('jurisdictions', (t) =>
    columns(
      t
        .addColumn('economic_unit_id', 'integer', notNull)
        .addColumn('company_code_id', 'integer', (c) => c.notNull().references('company_codes.id'))
        .addForeignKeyConstraint(
          'jurisdictions_economic_unit_fk',
          ['economic_unit_id', 'company_code_id'],
          'economic_units',
          ['id', 'company_code_id'],
          (f) => f.onUpdate('cascade').onDelete('cascade'),
        ),
      [
        ['use_unit_id', 'integer', 'use_units.id'],
        ['main_jurisdiction', 'integer'],
        ['responsible_official_id', 'integer', 'responsible_officials.id'],
        ['department_id', 'integer', 'departments.id'],
        ['department_type_id', 'integer', cat],
      ],
    ),
  );
  for (const [table, cols] of INDEXES)
    await db.schema
      .createIndex(`${table}_${cols.join('_')}`)
      .on(table)
      .columns(cols)
      .execute();
  if (isPostgres(db))
    for (const table of TABLES)
      await sql`CREATE TRIGGER ${sql.raw(`${table}_data_version`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, cols] of INDEXES.filter(([t]) => !TABLES.includes(t)))
    await db.schema.dropIndex(`${table}_${cols.join('_')}`).execute();
  for (const [table, list] of Object.entries(ADDED).reverse())
    for (const [name] of [...list].reverse()) await db.schema.alterTable(table).dropColumn(name).execute();
  for (const table of [...TABLES].reverse()) await db.schema.dropTable(table).execute();
}
