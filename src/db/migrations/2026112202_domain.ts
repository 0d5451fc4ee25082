// Domain model: catalogue codes, master data, running-cost distribution, rent accounting, projects.
// Table-by-table description and the wire-field mapping: docs/data-model.md.
// Ledger columns (company_code_id) on buildings, lands, use units, license agreements, contract agreements
// and rent adjustments copy their economic unit's ledger; composite foreign keys with ON UPDATE CASCADE keep
// them equal, so every ledger-scoped read filters one indexed column.
import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import { decimal, withAutoId } from '../column-types.ts';

type Col = ColumnDefinitionBuilder;
type Table = CreateTableBuilder<string, string>;

/** Every table of this migration, in creation order; `down` drops them in reverse. */
const TABLES = [
  'catalog_codes',
  'facilities',
  'explanation_groups',
  'owners',
  'economic_units',
  'buildings',
  'lands',
  'use_units',
  'budgets',
  'loans',
  'cost_centers',
  'cost_units',
  'cost_types',
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
  'projects',
  'project_economic_units',
  'project_buildings',
  'project_lands',
  'project_use_units',
  'project_budgets',
  'project_loans',
];

/** (entity column prefix, entity table) of the six project assignment tables `project_<table>`. */
const PROJECT_ASSIGNMENTS = [
  ['economic_unit', 'economic_units'],
  ['building', 'buildings'],
  ['land', 'lands'],
  ['use_unit', 'use_units'],
  ['budget', 'budgets'],
  ['loan', 'loans'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const dec = decimal(db);
  const notNull = (c: Col) => c.notNull();
  const cat = (c: Col) => c.references('catalog_codes.id');
  const catNotNull = (c: Col) => c.notNull().references('catalog_codes.id');
  const ledger = (c: Col) => c.notNull().references('company_codes.id');
  const parent = (ref: string) => (c: Col) => c.notNull().references(ref).onDelete('cascade');
  const create = (name: string, build: (t: Table) => Table, pk: 'id' | 'none' = 'id'): Promise<void> => {
    if (!TABLES.includes(name)) throw new Error(`table ${name} is missing from TABLES`);
    let t = db.schema.createTable(name) as Table;
    if (pk === 'id') t = t.addColumn('id', 'integer', (c) => c.primaryKey());
    return build(t).execute();
  };
  const index = async (table: string, ...columns: string[]): Promise<void> => {
    await db.schema
      .createIndex(`${table}_${columns.join('_')}`)
      .on(table)
      .columns(columns)
      .execute();
  };
  /** A 1:1 detail table of one contract-agreement kind, keyed by the header id. */
  const detail = (name: string, build: (t: Table) => Table) =>
    create(
      name,
      (t) =>
        build(
          t.addColumn('contract_agreement_id', 'integer', (c) =>
            c.primaryKey().references('contract_agreements.id').onDelete('cascade'),
          ),
        ),
      'none',
    );

  // ---- catalogues ---------------------------------------------------------------------------------------
  await create('catalog_codes', (t) =>
    t
      .addColumn('kind', 'text', notNull)
      .addColumn('code', 'text')
      .addColumn('name', 'text')
      .addColumn('short_code', 'text')
      .addColumn('node_id', 'integer')
      .addColumn('arge_code', 'text')
      .addColumn('is_fix_costs_per_distribution_key_unit', 'integer')
      .addColumn('is_percent_of_contract_position', 'integer')
      .addColumn('is_upper_limit', 'integer'),
  );
  await index('catalog_codes', 'kind', 'id');
  await create('facilities', (t) => t.addColumn('name', 'text'));
  await create('explanation_groups', (t) => t.addColumn('name', 'text'));

  // ---- master data --------------------------------------------------------------------------------------
  await create('owners', (t) => t.addColumn('owner_number', 'text').addColumn('company_code_id', 'integer', ledger));
  await index('owners', 'company_code_id', 'id');
  await create('economic_units', (t) =>
    t
      .addColumn('company_code_id', 'integer', ledger)
      .addColumn('number', 'text')
      .addColumn('name', 'text')
      .addUniqueConstraint('economic_units_id_ledger', ['id', 'company_code_id']),
  );
  await index('economic_units', 'company_code_id', 'id');
  const ofEconomicUnit = (t: Table, name: string) =>
    t
      .addColumn('economic_unit_id', 'integer', notNull)
      .addColumn('company_code_id', 'integer', ledger)
      .addForeignKeyConstraint(
        `${name}_economic_unit_fk`,
        ['economic_unit_id', 'company_code_id'],
        'economic_units',
        ['id', 'company_code_id'],
        (f) => f.onUpdate('cascade'),
      );
  await create('buildings', (t) =>
    ofEconomicUnit(t, 'buildings')
      .addColumn('number', 'text')
      .addColumn('name', 'text')
      .addUniqueConstraint('buildings_id_economic_unit', ['id', 'economic_unit_id']),
  );
  await create('lands', (t) => ofEconomicUnit(t, 'lands').addColumn('number', 'text').addColumn('name', 'text'));
  await create('use_units', (t) =>
    ofEconomicUnit(t, 'use_units')
      .addColumn('building_id', 'integer')
      .addColumn('use_unit_number', 'text', notNull)
      .addColumn('name', 'text')
      .addForeignKeyConstraint('use_units_building_fk', ['building_id', 'economic_unit_id'], 'buildings', [
        'id',
        'economic_unit_id',
      ])
      .addUniqueConstraint('use_units_id_ledger', ['id', 'company_code_id']),
  );
  for (const t of ['buildings', 'lands', 'use_units']) {
    await index(t, 'company_code_id', 'id');
    await index(t, 'economic_unit_id');
  }
  await index('use_units', 'building_id');
  await index('use_units', 'use_unit_number');
  await create('budgets', (t) => t.addColumn('company_code_id', 'integer', ledger).addColumn('name', 'text'));
  await create('loans', (t) =>
    t.addColumn('company_code_id', 'integer', ledger).addColumn('loan_number', 'text').addColumn('name', 'text'),
  );
  for (const name of ['cost_centers', 'cost_units', 'cost_types']) {
    await create(name, (t) =>
      t
        .addColumn('company_code_id', 'integer', (c) => c.references('company_codes.id'))
        .addColumn('code', 'text')
        .addColumn('name', 'text'),
    );
  }
  for (const t of ['budgets', 'loans', 'cost_centers', 'cost_units', 'cost_types'])
    await index(t, 'company_code_id', 'id');

  // ---- running-cost distribution ------------------------------------------------------------------------
  await create('distribution_periods', (t) =>
    t
      .addColumn('code', 'text')
      .addColumn('first_calender_year', 'integer', notNull)
      .addColumn('is_bookable', 'integer', notNull)
      .addColumn('is_computable', 'integer', notNull)
      .addColumn('regular_distribution_period_id', 'integer', catNotNull),
  );
  /** Columns shared by allocation groups and bases. */
  const groupHeader = (t: Table) =>
    t
      .addColumn('code', 'text')
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('owners.id'))
      .addColumn('company_code_id', 'integer', ledger)
      .addColumn('allocation_group_state_id', 'integer', catNotNull)
      .addColumn('prepayment_block_id', 'integer', cat)
      .addColumn('search_pattern', 'text')
      .addColumn('location', 'text')
      .addColumn('distribution_period_id', 'integer', (c) => c.notNull().references('distribution_periods.id'));
  await create('allocation_groups', (t) =>
    groupHeader(t)
      .addColumn('distribution_type_id', 'integer', cat)
      .addColumn('previous_allocation_group_id', 'integer', (c) => c.references('allocation_groups.id'))
      .addColumn('individual_ownership_management', 'integer', notNull)
      .addColumn('is_cleared', 'integer', notNull)
      .addColumn('regular_distribution_period_id', 'integer', catNotNull),
  );
  await create('combined_allocation_groups', (t) =>
    t
      .addColumn('units_total', dec)
      .addColumn('costs_per_unit', 'text')
      .addColumn('warm_water_fuel_consumption', dec)
      .addColumn('warm_water_heat_quantity', dec)
      .addColumn('independent_commercial_heating_supply', 'integer', notNull)
      .addColumn('inventory_increases_cleared', 'integer', notNull)
      .addColumn('inventory_changes_amount', dec)
      .addColumn('combined_allocation_group_type_id', 'integer', cat)
      .addColumn('fuel_energy_type_id', 'integer', cat)
      .addColumn('facility_id', 'integer', (c) => c.references('facilities.id'))
      .addColumn('settlement_state_id', 'integer', cat)
      .addColumn('elementary_distribution_key_id', 'integer', cat),
  );
  await create('allocation_group_bases', (t) =>
    groupHeader(t)
      .addColumn('previous_allocation_group_base_id', 'integer', (c) => c.references('allocation_group_bases.id'))
      .addColumn('allocation_group_id', 'integer', (c) => c.notNull().references('allocation_groups.id'))
      .addColumn('combined_allocation_group_id', 'integer', (c) =>
        c.notNull().references('combined_allocation_groups.id'),
      ),
  );
  for (const t of ['allocation_groups', 'allocation_group_bases']) {
    for (const c of [
      'company_code_id',
      'owner_id',
      'distribution_period_id',
      'prepayment_block_id',
      'code',
      'search_pattern',
    ])
      await index(t, c, 'id');
  }
  await index('allocation_groups', 'distribution_type_id', 'id');
  await index('allocation_group_bases', 'allocation_group_id');
  await index('allocation_group_bases', 'combined_allocation_group_id');

  await create(
    'allocation_group_use_units',
    (t) =>
      t
        .addColumn('allocation_group_id', 'integer', parent('allocation_groups.id'))
        .addColumn('use_unit_id', 'integer', (c) => c.notNull().references('use_units.id'))
        .addPrimaryKeyConstraint('allocation_group_use_units_pk', ['allocation_group_id', 'use_unit_id']),
    'none',
  );
  await index('allocation_group_use_units', 'use_unit_id');
  for (const [owner, ref] of [
    ['allocation_group', 'allocation_groups.id'],
    ['allocation_group_base', 'allocation_group_bases.id'],
  ] as const) {
    await create(
      `${owner}_cost_types`,
      (t) =>
        t
          .addColumn(`${owner}_id`, 'integer', parent(ref))
          .addColumn('cost_type_id', 'integer', catNotNull)
          .addPrimaryKeyConstraint(`${owner}_cost_types_pk`, [`${owner}_id`, 'cost_type_id']),
      'none',
    );
    await create(
      `${owner}_option_taxes`,
      (t) =>
        t
          .addColumn(`${owner}_id`, 'integer', parent(ref))
          .addColumn('option_tax', dec, notNull)
          .addColumn('valid_from', 'text', notNull)
          .addColumn('valid_to', 'text')
          .addPrimaryKeyConstraint(`${owner}_option_taxes_pk`, [`${owner}_id`, 'valid_from']),
      'none',
    );
  }
  for (const [owner, ref] of [
    ['allocation_group', 'allocation_groups.id'],
    ['combined_allocation_group', 'combined_allocation_groups.id'],
  ] as const) {
    await create(`${owner}_explanations`, (t) =>
      t
        .addColumn(`${owner}_id`, 'integer', parent(ref))
        .addColumn('text', 'text')
        .addColumn('explanation_group_id', 'integer', (c) => c.references('explanation_groups.id')),
    );
    await db.schema
      .createIndex(`${owner}_explanations_parent`)
      .on(`${owner}_explanations`)
      .columns([`${owner}_id`, 'id'])
      .execute();
  }

  // ---- rent accounting ----------------------------------------------------------------------------------
  await create('price_indices', (t) => t.addColumn('code', 'text', notNull).addColumn('note', 'text'));
  await index('price_indices', 'code');
  await create('price_index_values', (t) =>
    t
      .addColumn('price_index_id', 'integer', (c) => c.notNull().references('price_indices.id'))
      .addColumn('index_value', dec, notNull)
      .addColumn('reference_date', 'text', notNull),
  );
  await index('price_index_values', 'price_index_id', 'reference_date');
  await index('price_index_values', 'reference_date');
  await create('license_agreements', (t) =>
    t
      .addColumn('id_num', 'text', notNull)
      .addColumn('use_unit_id', 'integer', notNull)
      .addColumn('company_code_id', 'integer', ledger)
      .addColumn('valid_from', 'text', notNull)
      .addColumn('valid_to', 'text')
      .addForeignKeyConstraint(
        'license_agreements_use_unit_fk',
        ['use_unit_id', 'company_code_id'],
        'use_units',
        ['id', 'company_code_id'],
        (f) => f.onUpdate('cascade'),
      )
      .addUniqueConstraint('license_agreements_id_ledger', ['id', 'company_code_id']),
  );
  await index('license_agreements', 'use_unit_id');
  await index('license_agreements', 'id_num');
  await index('license_agreements', 'company_code_id', 'id');
  await create('contract_agreements', (t) =>
    t
      .addColumn('kind', 'text', notNull)
      .addColumn('license_agreement_id', 'integer', notNull)
      .addColumn('company_code_id', 'integer', ledger)
      .addColumn('valid_from', 'text', notNull)
      .addColumn('valid_to', 'text')
      .addColumn('input_date', 'text')
      .addColumn('first_debit', 'text')
      .addForeignKeyConstraint(
        'contract_agreements_license_fk',
        ['license_agreement_id', 'company_code_id'],
        'license_agreements',
        ['id', 'company_code_id'],
        (f) => f.onUpdate('cascade'),
      ),
  );
  await index('contract_agreements', 'kind', 'id');
  await index('contract_agreements', 'kind', 'company_code_id', 'id');
  await index('contract_agreements', 'license_agreement_id');

  await detail('ca_index_rental', (t) =>
    t
      .addColumn('price_index_id', 'integer', (c) => c.references('price_indices.id'))
      .addColumn('price_index_value_id', 'integer', (c) => c.references('price_index_values.id'))
      .addColumn('transfer_percent', dec)
      .addColumn('waiting_period', dec)
      .addColumn('limit_for_increase', dec)
      .addColumn('limit_for_reduction', dec)
      .addColumn('scope_change', 'text')
      .addColumn('automatic_adjustment', 'integer', notNull)
      .addColumn('base_year', 'integer')
      .addColumn('contract_agreement_type_id', 'integer', cat)
      .addColumn('reference_value_index', 'text'),
  );
  await detail('ca_graduated_rent', (t) =>
    t.addColumn('rental_upper_limit', dec).addColumn('contract_position_type_id', 'integer', cat),
  );
  await create('ca_graduated_rent_entries', (t) =>
    t
      .addColumn('contract_agreement_id', 'integer', parent('contract_agreements.id'))
      .addColumn('rent_change_date', 'text')
      .addColumn('amount', dec)
      .addColumn('activated_agreement', 'integer', notNull)
      .addColumn('vat_rate_id', 'integer', cat)
      .addColumn('invalid', 'integer', notNull)
      .addColumn('square_meters', dec)
      .addColumn('price_per_square_meter', dec),
  );
  await detail('ca_turnover_rent', (t) =>
    t
      .addColumn('contract_position_type_id', 'integer', cat)
      .addColumn('accounting_interval_id', 'integer', cat)
      .addColumn('next_accounting_date', 'text')
      .addColumn('last_accounting_date', 'text')
      .addColumn('last_period_of_service', dec)
      .addColumn('rental_upper_limit_net', dec)
      .addColumn('rental_upper_limit_gross', dec)
      .addColumn('rental_lower_limit_net', dec)
      .addColumn('rental_lower_limit_gross', dec)
      .addColumn('ascending', 'integer', notNull),
  );
  await create('ca_turnover_rent_steps', (t) =>
    t
      .addColumn('contract_agreement_id', 'integer', parent('contract_agreements.id'))
      .addColumn('turnover_from', dec)
      .addColumn('turnover_to', dec)
      .addColumn('percentage', dec),
  );
  await detail('ca_vat_option', (t) => t.addColumn('vat_rate_id', 'integer', cat));
  await detail('ca_rental_upper_limit', (t) => t.addColumn('rental_upper_limit', dec));
  await create(
    'ca_gross_rent_excluded_groups',
    (t) =>
      t
        .addColumn('contract_agreement_id', 'integer', parent('contract_agreements.id'))
        .addColumn('allocation_group_id', 'integer', (c) => c.notNull().references('allocation_groups.id'))
        .addPrimaryKeyConstraint('ca_gross_rent_excluded_groups_pk', ['contract_agreement_id', 'allocation_group_id']),
    'none',
  );
  await detail('ca_special_charge', (t) =>
    t
      .addColumn('percentage', dec)
      .addColumn('is_gross_amount', 'integer', notNull)
      .addColumn('fix_costs_value', dec)
      .addColumn('special_charge_type_id', 'integer', cat)
      .addColumn('prepayment_block_id', 'integer', cat)
      .addColumn('distribution_cost_type_id', 'integer', cat),
  );
  for (const [name, col] of [
    ['ca_special_charge_calculation_bases', 'calculation_base_id'],
    ['ca_special_charge_billing_unit_values', 'billing_unit_value_id'],
  ] as const) {
    await create(
      name,
      (t) =>
        t
          .addColumn('contract_agreement_id', 'integer', parent('contract_agreements.id'))
          .addColumn('position', 'integer', notNull)
          .addColumn(col, 'integer', catNotNull)
          .addPrimaryKeyConstraint(`${name}_pk`, ['contract_agreement_id', 'position']),
      'none',
    );
  }
  await detail('ca_special_use_right', (t) => t.addColumn('description', 'text'));
  await detail('ca_prepayment_adjustment', (t) =>
    t
      .addColumn('minimum_amount_increase', dec)
      .addColumn('minimum_amount_reduction', dec)
      .addColumn('cap_amount', dec)
      .addColumn('default_rounding_to_integer_id', 'integer', cat)
      .addColumn('rounding_type_id', 'integer', cat)
      .addColumn('matching_blocker_id', 'integer', cat)
      .addColumn('prepayment_block_id', 'integer', cat),
  );
  await create(
    'ca_distribution_cost_types',
    (t) =>
      t
        .addColumn('contract_agreement_id', 'integer', parent('contract_agreements.id'))
        .addColumn('position', 'integer', notNull)
        .addColumn('distribution_cost_type_id', 'integer', catNotNull)
        .addColumn('standard_distribution_key_id', 'integer', cat)
        .addPrimaryKeyConstraint('ca_distribution_cost_types_pk', ['contract_agreement_id', 'position']),
    'none',
  );
  await detail('ca_multiple_opt_in', (t) =>
    t.addColumn('first_end_of_contract', 'text').addColumn('automatic_prolongation_id', 'integer', cat),
  );
  await create('ca_prolongations', (t) =>
    t
      .addColumn('contract_agreement_id', 'integer', parent('contract_agreements.id'))
      .addColumn('prolongation_period_id', 'integer', cat)
      .addColumn('prolongation_activated', 'integer', notNull)
      .addColumn('new_end_of_contract', 'text')
      .addColumn('option_deadline', 'text'),
  );
  await detail('ca_minor_repair_work', (t) =>
    t
      .addColumn('is_regarded_in_commissioning', 'integer', notNull)
      .addColumn('per_repair_is_net_amount', 'integer', notNull)
      .addColumn('per_repair_amount', dec)
      .addColumn('per_year_amount', dec)
      .addColumn('per_year_is_absolute', 'integer', notNull)
      .addColumn('per_year_is_rent_calculation_net_rent', 'integer', notNull)
      .addColumn('per_year_is_net_commission_amount', 'integer', notNull)
      .addColumn('annual_rent_cost_portion_per_year', dec)
      .addColumn('annual_rent_cost_portion_per_year_string', 'text')
      .addColumn('annual_rent', dec)
      .addColumn('currency_id', 'integer', cat),
  );
  await detail('ca_reminder_charge', (t) =>
    t.addColumn('reminder_fee', dec).addColumn('debit_interest_rate', dec).addColumn('minimum_interest_rate', dec),
  );
  await create(
    'ca_reminder_charge_dunning_levels',
    (t) =>
      t
        .addColumn('contract_agreement_id', 'integer', parent('contract_agreements.id'))
        .addColumn('dunning_level_id', 'integer', catNotNull)
        .addPrimaryKeyConstraint('ca_reminder_charge_dunning_levels_pk', ['contract_agreement_id', 'dunning_level_id']),
    'none',
  );
  await detail('ca_waiver_of_termination', (t) => t.addColumn('reason_of_waiver_id', 'integer', cat));
  for (const t of ['ca_graduated_rent_entries', 'ca_turnover_rent_steps', 'ca_prolongations'])
    await index(t, 'contract_agreement_id', 'id');

  await create('use_unit_rent_adjustments', (t) =>
    t
      .addColumn('use_unit_id', 'integer', notNull)
      .addColumn('company_code_id', 'integer', ledger)
      .addColumn('adjustment_blocker', 'text')
      .addColumn('fio_legal_state_id', 'integer', cat)
      .addColumn('municipality_id', 'integer', cat)
      .addColumn('move_in_date', 'text')
      .addColumn('square_meter_living_space', dec)
      .addColumn('apartment_size_class', 'text')
      .addColumn('housing_quality_points_comparison_object', dec)
      .addColumn('modernising_by_rent_index', 'integer', notNull)
      .addColumn('increase_amount', dec)
      .addColumn('comparable_rent_of_an_area', dec)
      .addColumn('adjustment_date', 'text')
      .addColumn('text_for_different_rating', 'text')
      .addColumn('cap_limit_id', 'integer', cat)
      .addColumn('cap_limit_absolute_sqm', dec)
      .addColumn('municipality_active_rent_index', 'text')
      .addForeignKeyConstraint(
        'use_unit_rent_adjustments_use_unit_fk',
        ['use_unit_id', 'company_code_id'],
        'use_units',
        ['id', 'company_code_id'],
        (f) => f.onUpdate('cascade'),
      ),
  );
  await index('use_unit_rent_adjustments', 'use_unit_id');
  await index('use_unit_rent_adjustments', 'company_code_id', 'id');
  await create('rent_adjustment_surcharges', (t) =>
    t
      .addColumn('use_unit_rent_adjustment_id', 'integer', parent('use_unit_rent_adjustments.id'))
      .addColumn('special_attribute_id', 'integer', cat)
      .addColumn('amount', dec)
      .addColumn('percent', dec),
  );
  await index('rent_adjustment_surcharges', 'use_unit_rent_adjustment_id', 'id');
  await create(
    'rent_adjustment_facility_characteristics',
    (t) =>
      t
        .addColumn('use_unit_rent_adjustment_id', 'integer', parent('use_unit_rent_adjustments.id'))
        .addColumn('facility_characteristic_group_id', 'integer', catNotNull)
        .addColumn('effective_value', 'text')
        .addPrimaryKeyConstraint('rent_adjustment_facility_characteristics_pk', [
          'use_unit_rent_adjustment_id',
          'facility_characteristic_group_id',
        ]),
    'none',
  );

  // ---- projects -----------------------------------------------------------------------------------------
  let projects = withAutoId(db, db.schema.createTable('projects'))
    .addColumn('name', 'text')
    .addColumn('code', 'text')
    .addColumn('project_manager', 'text')
    .addColumn('description', 'text')
    .addColumn('company_code_id', 'integer', ledger);
  for (const app of ['development', 'building_license']) {
    for (const c of ['schedule_date', 'delivery_date', 'grant_date', 'valid_to', 'file_reference'])
      projects = projects.addColumn(`application_for_${app}_${c}`, 'text');
  }
  await projects
    .addColumn('application_for_building_license_reference', 'text')
    .addColumn('project_life_time_from', 'text', notNull)
    .addColumn('project_life_time_to', 'text')
    .addColumn('cost_center_id', 'integer', (c) => c.references('cost_centers.id'))
    .addColumn('cost_unit_id', 'integer', (c) => c.references('cost_units.id'))
    .addColumn('cost_type_id', 'integer', (c) => c.references('cost_types.id'))
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();
  await index('projects', 'company_code_id', 'id');
  await db.schema
    .createIndex('projects_company_code_id_code')
    .on('projects')
    .columns(['company_code_id', 'code'])
    .unique()
    .where('code', 'is not', null)
    .execute();
  for (const [entity, table] of PROJECT_ASSIGNMENTS) {
    const name = `project_${table}`;
    await create(
      name,
      (t) =>
        t
          .addColumn('project_id', 'integer', parent('projects.id'))
          .addColumn(`${entity}_id`, 'integer', (c) => c.notNull().references(`${table}.id`))
          .addPrimaryKeyConstraint(`${name}_pk`, ['project_id', `${entity}_id`]),
      'none',
    );
    await index(name, `${entity}_id`);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [...TABLES].reverse()) await db.schema.dropTable(t).execute();
}
