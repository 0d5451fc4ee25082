// The detail and child rows of each of the 17 contract-agreement kinds, as a table: insertContractAgreement (rent.ts)
// writes the header, then the kind's filler.
import type { Executor } from '../../db/database.ts';
import type { ContractAgreementKind } from '../../rent-accounting/tables.ts';
import { catalogId, firstOr, insertRow, type Overrides, type Row } from './core.ts';
// Used only when a filler runs (never while the modules load), so the cycle with rent.ts is harmless.
import {
  insertGraduatedRentEntry,
  insertPriceIndex,
  insertPriceIndexValue,
  insertProlongation,
  insertTurnoverRentStep,
} from './rent.ts';
import { OPEN_TURNOVER } from './builders.ts';
import { insertAllocationGroup } from './running-cost.ts';

type Filler = (
  db: Executor,
  ca: Row<'contract_agreements'>,
  detail: Record<string, unknown>,
  children: boolean,
) => Promise<void>;

const kid = (ca: Row<'contract_agreements'>) => ({ contract_agreement_id: ca.id });

async function specialCharge(
  db: Executor,
  ca: Row<'contract_agreements'>,
  d: Record<string, unknown>,
  children: boolean,
): Promise<void> {
  await insertRow(db, 'ca_special_charge', {
    percentage: '12.5',
    is_gross_amount: 0,
    fix_costs_value: '150.00',
    special_charge_type_id: await catalogId(db, 'DistributionSpecialChargeType'),
    prepayment_block_id: await catalogId(db, 'PrepaymentBlock'),
    distribution_cost_type_id: await catalogId(db, 'DistributionCostType'),
    ...d,
    ...kid(ca),
  });
  if (!children) return;
  await insertRow(db, 'ca_special_charge_calculation_bases', {
    ...kid(ca),
    position: 0,
    calculation_base_id: await catalogId(db, 'CalculationBase'),
  });
  await insertRow(db, 'ca_special_charge_billing_unit_values', {
    ...kid(ca),
    position: 0,
    billing_unit_value_id: await catalogId(db, 'BillingUnitValue'),
  });
}

async function reminderCharge(
  db: Executor,
  ca: Row<'contract_agreements'>,
  row: Overrides<'ca_reminder_charge'>,
  children: boolean,
): Promise<void> {
  await insertRow(db, 'ca_reminder_charge', { ...row, ...kid(ca) });
  if (children)
    await insertRow(db, 'ca_reminder_charge_dunning_levels', {
      ...kid(ca),
      dunning_level_id: await catalogId(db, 'DunningLevel'),
    });
}

/** Detail row and default child rows per kind. */
export const FILLERS: Record<ContractAgreementKind, Filler> = {
  async IndexRentalAgreement(db, ca, d) {
    const price_index_id =
      (d.price_index_id as number | undefined) ?? (await firstOr(db, 'price_indices', () => insertPriceIndex(db)));
    const value = await db
      .selectFrom('price_index_values')
      .select('id')
      .where('price_index_id', '=', price_index_id)
      .orderBy('id')
      .executeTakeFirst();
    await insertRow(db, 'ca_index_rental', {
      price_index_id,
      price_index_value_id: value?.id ?? (await insertPriceIndexValue(db, { price_index_id })).id,
      transfer_percent: '100',
      waiting_period: '12',
      limit_for_increase: '10',
      limit_for_reduction: '5',
      scope_change: '2025-01-01',
      automatic_adjustment: 1,
      base_year: 2020,
      contract_agreement_type_id: await catalogId(db, 'ContractAgreementType'),
      reference_value_index: 'VPI 2020',
      ...d,
      ...kid(ca),
    });
  },
  async GraduatedRentAgreement(db, ca, d, children) {
    await insertRow(db, 'ca_graduated_rent', {
      rental_upper_limit: '1200.00',
      contract_position_type_id: await catalogId(db, 'ContractPositionType'),
      ...d,
      ...kid(ca),
    });
    if (children)
      for (const [i, amount] of ['850.00', '875.50'].entries())
        await insertGraduatedRentEntry(db, { ...kid(ca), amount, rent_change_date: `${2025 + i}-01-01T00:00:00Z` });
  },
  async TurnoverRentAgreement(db, ca, d, children) {
    await insertRow(db, 'ca_turnover_rent', {
      contract_position_type_id: await catalogId(db, 'ContractPositionType'),
      accounting_interval_id: await catalogId(db, 'ContractAgreementAccountingInterval'),
      next_accounting_date: '2026-01-01T00:00:00Z',
      last_accounting_date: '2025-01-01T00:00:00Z',
      last_period_of_service: '12',
      rental_upper_limit_net: '5000.00',
      rental_upper_limit_gross: '5950.00',
      rental_lower_limit_net: '1000.00',
      rental_lower_limit_gross: '1190.00',
      ascending: 1,
      ...d,
      ...kid(ca),
    });
    if (children) {
      await insertTurnoverRentStep(db, { ...kid(ca), turnover_from: '0', turnover_to: '100000.00', percentage: '5' });
      await insertTurnoverRentStep(db, {
        ...kid(ca),
        turnover_from: '100000.00',
        turnover_to: OPEN_TURNOVER,
        percentage: '6.5',
      });
    }
  },
  async VatOptionAgreement(db, ca, d) {
    await insertRow(db, 'ca_vat_option', { vat_rate_id: await catalogId(db, 'VatRate'), ...d, ...kid(ca) });
  },
  async RentalUpperLimit(db, ca, d) {
    await insertRow(db, 'ca_rental_upper_limit', { rental_upper_limit: '950.00', ...d, ...kid(ca) });
  },
  async GrossRentsWithoutHeating(db, ca, _d, children) {
    if (!children) return;
    const group = await db
      .selectFrom('allocation_groups')
      .select('id')
      .where('company_code_id', '=', ca.company_code_id)
      .orderBy('id')
      .executeTakeFirst();
    const allocation_group_id =
      group?.id ?? (await insertAllocationGroup(db, { company_code_id: ca.company_code_id })).id;
    await insertRow(db, 'ca_gross_rent_excluded_groups', { ...kid(ca), allocation_group_id });
  },
  MaxCostDistribution: specialCharge,
  DistributionSpecialCharge: specialCharge,
  async SpecialUseRight(db, ca, d) {
    await insertRow(db, 'ca_special_use_right', {
      description: 'Use of the garden behind the building',
      ...d,
      ...kid(ca),
    });
  },
  async PrepaymentAdjustment(db, ca, d) {
    await insertRow(db, 'ca_prepayment_adjustment', {
      minimum_amount_increase: '5.00',
      minimum_amount_reduction: '5.00',
      cap_amount: '50.00',
      default_rounding_to_integer_id: await catalogId(db, 'DefaultRoundingToInteger'),
      rounding_type_id: await catalogId(db, 'PrepaymentAdjustmentRoundingType'),
      matching_blocker_id: await catalogId(db, 'MatchingBlocker'),
      prepayment_block_id: await catalogId(db, 'PrepaymentBlock'),
      ...d,
      ...kid(ca),
    });
  },
  async DistributionCostType(db, ca, _d, children) {
    if (!children) return;
    await insertRow(db, 'ca_distribution_cost_types', {
      ...kid(ca),
      position: 0,
      distribution_cost_type_id: await catalogId(db, 'DistributionCostType'),
      standard_distribution_key_id: await catalogId(db, 'StandardDistributionKey'),
    });
  },
  async MultipleOptInAgreement(db, ca, d, children) {
    await insertRow(db, 'ca_multiple_opt_in', {
      first_end_of_contract: '2030-12-31',
      automatic_prolongation_id: await catalogId(db, 'AutomaticProlongationAfterEndOfContract'),
      ...d,
      ...kid(ca),
    });
    if (children) await insertProlongation(db, kid(ca));
  },
  async MinorRepairWorkAgreement(db, ca, d) {
    await insertRow(db, 'ca_minor_repair_work', {
      is_regarded_in_commissioning: 1,
      per_repair_is_net_amount: 0,
      per_repair_amount: '100.00',
      per_year_amount: '300.00',
      per_year_is_absolute: 1,
      per_year_is_rent_calculation_net_rent: 0,
      per_year_is_net_commission_amount: 0,
      annual_rent_cost_portion_per_year: '8',
      annual_rent_cost_portion_per_year_string: '8 %',
      annual_rent: '10200.00',
      currency_id: await catalogId(db, 'Currency'),
      ...d,
      ...kid(ca),
    });
  },
  async CivilCodeAdaptationLockAgreement() {},
  ReminderChargeFixedAmount: (db, ca, d, children) => reminderCharge(db, ca, { reminder_fee: '5.00', ...d }, children),
  ReminderChargeInterest: (db, ca, d, children) =>
    reminderCharge(db, ca, { debit_interest_rate: '5.12', minimum_interest_rate: '0.1', ...d }, children),
  async WaiverOfTerminationAgreement(db, ca, d) {
    await insertRow(db, 'ca_waiver_of_termination', {
      reason_of_waiver_id: await catalogId(db, 'ReasonOfWaiver'),
      ...d,
      ...kid(ca),
    });
  },
};
