// Rent accounting: price indices and values, license agreements, contract agreements of the 17 kinds, rent adjustments.
import type { Executor } from '../../db/database.ts';
import type { ContractAgreementKind } from '../../rent-accounting/tables.ts';
import { insertUseUnit } from './master.ts';
import { catalogId, getRow, insertRow, nextId, seq, type Overrides, type Row } from './core.ts';
import { FILLERS } from './contract-fillers.ts';
import { buildContractAgreement, buildLicenseAgreement, buildPriceIndex, buildPriceIndexValue } from './builders.ts';

export async function insertPriceIndex(
  db: Executor,
  o: Overrides<'price_indices'> = {},
): Promise<Row<'price_indices'>> {
  return insertRow(db, 'price_indices', buildPriceIndex(o.id ?? nextId(), seq('price_index'), o));
}

export async function insertPriceIndexValue(
  db: Executor,
  o: Overrides<'price_index_values'> = {},
): Promise<Row<'price_index_values'>> {
  const price_index_id = o.price_index_id ?? (await insertPriceIndex(db)).id;
  return insertRow(
    db,
    'price_index_values',
    buildPriceIndexValue(o.id ?? nextId(), seq(`price_index_value:${price_index_id}`), price_index_id, o),
  );
}

export async function insertLicenseAgreement(
  db: Executor,
  o: Overrides<'license_agreements'> = {},
): Promise<Row<'license_agreements'>> {
  const useUnit =
    o.use_unit_id === undefined
      ? await insertUseUnit(db, { company_code_id: o.company_code_id })
      : await getRow(db, 'use_units', o.use_unit_id);
  return insertRow(
    db,
    'license_agreements',
    buildLicenseAgreement(o.id ?? nextId(), seq(`license:${useUnit.id}`), useUnit, o),
  );
}

/** Overrides of the 1:1 detail row, per kind (kinds without a detail table take none). */
export interface ContractAgreementDetails {
  IndexRentalAgreement: Overrides<'ca_index_rental'>;
  GraduatedRentAgreement: Overrides<'ca_graduated_rent'>;
  TurnoverRentAgreement: Overrides<'ca_turnover_rent'>;
  VatOptionAgreement: Overrides<'ca_vat_option'>;
  RentalUpperLimit: Overrides<'ca_rental_upper_limit'>;
  GrossRentsWithoutHeating: Record<string, never>;
  MaxCostDistribution: Overrides<'ca_special_charge'>;
  DistributionSpecialCharge: Overrides<'ca_special_charge'>;
  SpecialUseRight: Overrides<'ca_special_use_right'>;
  PrepaymentAdjustment: Overrides<'ca_prepayment_adjustment'>;
  DistributionCostType: Record<string, never>;
  MultipleOptInAgreement: Overrides<'ca_multiple_opt_in'>;
  MinorRepairWorkAgreement: Overrides<'ca_minor_repair_work'>;
  CivilCodeAdaptationLockAgreement: Record<string, never>;
  ReminderChargeFixedAmount: Overrides<'ca_reminder_charge'>;
  ReminderChargeInterest: Overrides<'ca_reminder_charge'>;
  WaiverOfTerminationAgreement: Overrides<'ca_waiver_of_termination'>;
}

export interface ContractAgreementOptions<K extends ContractAgreementKind> extends Overrides<'contract_agreements'> {
  detail?: ContractAgreementDetails[K];
  /** Also create the kind's default child rows (entries, steps, prolongations, links); default true. */
  children?: boolean;
}

/** A contract agreement of one kind: header, detail row and (unless children: false) the kind's child rows. */
export async function insertContractAgreement<K extends ContractAgreementKind>(
  db: Executor,
  kind: K,
  o: ContractAgreementOptions<K> = {},
): Promise<Row<'contract_agreements'>> {
  const { detail, children, ...header } = o;
  const license =
    header.license_agreement_id === undefined
      ? await insertLicenseAgreement(db, { company_code_id: header.company_code_id })
      : await getRow(db, 'license_agreements', header.license_agreement_id);
  const ca = await insertRow(
    db,
    'contract_agreements',
    buildContractAgreement(header.id ?? nextId(), kind, license, header),
  );
  await FILLERS[kind](db, ca, detail ?? {}, children ?? true);
  return ca;
}

export async function insertGraduatedRentEntry(
  db: Executor,
  o: Overrides<'ca_graduated_rent_entries'> & { contract_agreement_id: number },
): Promise<Row<'ca_graduated_rent_entries'>> {
  return insertRow(db, 'ca_graduated_rent_entries', {
    id: o.id ?? nextId(),
    rent_change_date: '2025-01-01T00:00:00Z',
    amount: '850.00',
    activated_agreement: 1,
    vat_rate_id: await catalogId(db, 'VatRate', o.vat_rate_id),
    invalid: 0,
    square_meters: '68.5',
    price_per_square_meter: '12.41',
    ...o,
  });
}

export async function insertTurnoverRentStep(
  db: Executor,
  o: Overrides<'ca_turnover_rent_steps'> & { contract_agreement_id: number },
): Promise<Row<'ca_turnover_rent_steps'>> {
  return insertRow(db, 'ca_turnover_rent_steps', {
    id: o.id ?? nextId(),
    turnover_from: '0',
    turnover_to: '100000.00',
    percentage: '5',
    ...o,
  });
}

export async function insertProlongation(
  db: Executor,
  o: Overrides<'ca_prolongations'> & { contract_agreement_id: number },
): Promise<Row<'ca_prolongations'>> {
  return insertRow(db, 'ca_prolongations', {
    id: o.id ?? nextId(),
    prolongation_period_id: await catalogId(db, 'ProlongationPeriod', o.prolongation_period_id),
    prolongation_activated: 0,
    new_end_of_contract: '2035-12-31T00:00:00Z',
    option_deadline: '2030-06-30T00:00:00Z',
    ...o,
  });
}

/** A v1.0 rent adjustment of a use unit, with one surcharge/reduction and one facility characteristic (unless children: false). */
export async function insertUseUnitRentAdjustment(
  db: Executor,
  o: Overrides<'use_unit_rent_adjustments'> & { children?: boolean } = {},
): Promise<Row<'use_unit_rent_adjustments'>> {
  const { children, ...fields } = o;
  const useUnit =
    fields.use_unit_id === undefined
      ? await insertUseUnit(db, { company_code_id: fields.company_code_id })
      : await getRow(db, 'use_units', fields.use_unit_id);
  const row = await insertRow(db, 'use_unit_rent_adjustments', {
    id: fields.id ?? nextId(),
    adjustment_blocker: '2025-03-31T00:00:00Z',
    fio_legal_state_id: await catalogId(db, 'FIOLegalState'),
    municipality_id: await catalogId(db, 'Municipality'),
    move_in_date: '2019-04-01T00:00:00Z',
    square_meter_living_space: '68.5',
    apartment_size_class: '60-80 m²',
    housing_quality_points_comparison_object: '7.5',
    modernising_by_rent_index: 0,
    increase_amount: '45.20',
    comparable_rent_of_an_area: '9.85',
    adjustment_date: '2025-07-01T00:00:00Z',
    text_for_different_rating: 'Quiet location in the courtyard',
    cap_limit_id: await catalogId(db, 'CapLimit'),
    cap_limit_absolute_sqm: '0.75',
    municipality_active_rent_index: 'Rent index 2025',
    ...fields,
    use_unit_id: useUnit.id,
    company_code_id: useUnit.company_code_id,
  });
  if (children ?? true) {
    await insertRow(db, 'rent_adjustment_surcharges', {
      id: nextId(),
      use_unit_rent_adjustment_id: row.id,
      special_attribute_id: await catalogId(db, 'SpecialAttribute'),
      amount: '0.35',
      percent: '3.5',
    });
    await insertRow(db, 'rent_adjustment_facility_characteristics', {
      use_unit_rent_adjustment_id: row.id,
      facility_characteristic_group_id: await catalogId(db, 'FacilityCharacteristicGroup'),
      effective_value: 'good',
    });
  }
  return row;
}
