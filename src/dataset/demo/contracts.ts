// Contract agreements of the demo: one of the 17 kinds with realistic detail values and child rows.
import type { ContractAgreementKind } from '../../rent-accounting/tables.ts';
import { buildContractAgreement, OPEN_END, OPEN_TURNOVER } from '../factories/builders.ts';
import type { Shared, Sink } from './catalog.ts';
import { nth, type Random } from './random.ts';

type Detail = (sink: Sink, rnd: Random, ca: number, s: Shared, groups: number[]) => void;
const c = (s: Shared, rnd: Random, kind: keyof Shared['catalog']) => rnd.pick(s.catalog[kind]);

const specialCharge: Detail = (sink, rnd, ca, s) => {
  sink.add('ca_special_charge', {
    contract_agreement_id: ca,
    percentage: rnd.decimal(5, 30, 1),
    is_gross_amount: rnd.int(0, 1),
    fix_costs_value: rnd.decimal(50, 400),
    special_charge_type_id: c(s, rnd, 'DistributionSpecialChargeType'),
    prepayment_block_id: c(s, rnd, 'PrepaymentBlock'),
    distribution_cost_type_id: c(s, rnd, 'DistributionCostType'),
  });
  sink.add('ca_special_charge_calculation_bases', {
    contract_agreement_id: ca,
    position: 0,
    calculation_base_id: c(s, rnd, 'CalculationBase'),
  });
  sink.add('ca_special_charge_billing_unit_values', {
    contract_agreement_id: ca,
    position: 0,
    billing_unit_value_id: c(s, rnd, 'BillingUnitValue'),
  });
};

const reminder =
  (fixed: boolean): Detail =>
  (sink, rnd, ca, s) => {
    sink.add(
      'ca_reminder_charge',
      fixed
        ? {
            contract_agreement_id: ca,
            reminder_fee: rnd.pick(['2.50', '5.00', '7.50']),
            debit_interest_rate: null,
            minimum_interest_rate: null,
          }
        : {
            contract_agreement_id: ca,
            reminder_fee: null,
            debit_interest_rate: rnd.decimal(3, 9, 2),
            minimum_interest_rate: '0.10',
          },
    );
    for (const level of s.catalog.DunningLevel.slice(0, rnd.int(1, 3)))
      sink.add('ca_reminder_charge_dunning_levels', { contract_agreement_id: ca, dunning_level_id: level });
  };

const DETAILS: Record<ContractAgreementKind, Detail> = {
  IndexRentalAgreement(sink, rnd, ca, s) {
    const i = rnd.int(0, s.priceIndices.length - 1);
    sink.add('ca_index_rental', {
      contract_agreement_id: ca,
      price_index_id: s.priceIndices[i],
      price_index_value_id: rnd.pick(nth(s.priceIndexValues, i)),
      transfer_percent: '100',
      waiting_period: '12',
      limit_for_increase: rnd.decimal(5, 15, 0),
      limit_for_reduction: '5',
      scope_change: rnd.date(2024, 2026),
      automatic_adjustment: rnd.int(0, 1),
      base_year: 2020,
      contract_agreement_type_id: c(s, rnd, 'ContractAgreementType'),
      reference_value_index: 'VPI 2020',
    });
  },
  GraduatedRentAgreement(sink, rnd, ca, s) {
    const sqm = rnd.decimal(35, 110, 1);
    sink.add('ca_graduated_rent', {
      contract_agreement_id: ca,
      rental_upper_limit: rnd.decimal(900, 1600),
      contract_position_type_id: s.catalog.ContractPositionType[0],
    });
    let amount = rnd.int(500, 1100);
    for (let step = 0; step < 3; step++, amount += rnd.int(15, 40)) {
      sink.add('ca_graduated_rent_entries', {
        id: sink.nextId(),
        contract_agreement_id: ca,
        rent_change_date: `${2024 + step}-01-01T00:00:00Z`,
        amount: `${amount}.00`,
        activated_agreement: step === 0 ? 1 : 0,
        vat_rate_id: s.catalog.VatRate[2],
        invalid: 0,
        square_meters: sqm,
        price_per_square_meter: (amount / Number(sqm)).toFixed(2),
      });
    }
  },
  TurnoverRentAgreement(sink, rnd, ca, s) {
    sink.add('ca_turnover_rent', {
      contract_agreement_id: ca,
      contract_position_type_id: s.catalog.ContractPositionType[0],
      accounting_interval_id: c(s, rnd, 'ContractAgreementAccountingInterval'),
      next_accounting_date: '2026-01-01T00:00:00Z',
      last_accounting_date: '2025-01-01T00:00:00Z',
      last_period_of_service: '12',
      rental_upper_limit_net: '8000.00',
      rental_upper_limit_gross: '9520.00',
      rental_lower_limit_net: '1500.00',
      rental_lower_limit_gross: '1785.00',
      ascending: 1,
    });
    sink.add('ca_turnover_rent_steps', {
      id: sink.nextId(),
      contract_agreement_id: ca,
      turnover_from: '0.00',
      turnover_to: '250000.00',
      percentage: rnd.decimal(4, 6, 1),
    });
    sink.add('ca_turnover_rent_steps', {
      id: sink.nextId(),
      contract_agreement_id: ca,
      turnover_from: '250000.00',
      turnover_to: OPEN_TURNOVER,
      percentage: rnd.decimal(6, 8, 1),
    });
  },
  VatOptionAgreement: (sink, _rnd, ca, s) =>
    sink.add('ca_vat_option', { contract_agreement_id: ca, vat_rate_id: s.catalog.VatRate[0] }),
  RentalUpperLimit: (sink, rnd, ca) =>
    sink.add('ca_rental_upper_limit', { contract_agreement_id: ca, rental_upper_limit: rnd.decimal(700, 1500) }),
  GrossRentsWithoutHeating(sink, rnd, ca, _s, groups) {
    if (groups.length)
      sink.add('ca_gross_rent_excluded_groups', { contract_agreement_id: ca, allocation_group_id: rnd.pick(groups) });
  },
  MaxCostDistribution: specialCharge,
  DistributionSpecialCharge: specialCharge,
  SpecialUseRight: (sink, rnd, ca) =>
    sink.add('ca_special_use_right', {
      contract_agreement_id: ca,
      description: rnd.pick([
        'Gartennutzung hinter dem Haus',
        'Stellplatz im Hof',
        'Kellerraum Nr. 4',
        'Dachbodenabteil',
      ]),
    }),
  PrepaymentAdjustment(sink, rnd, ca, s) {
    sink.add('ca_prepayment_adjustment', {
      contract_agreement_id: ca,
      minimum_amount_increase: '5.00',
      minimum_amount_reduction: '5.00',
      cap_amount: rnd.decimal(30, 100, 0) + '.00',
      default_rounding_to_integer_id: c(s, rnd, 'DefaultRoundingToInteger'),
      rounding_type_id: c(s, rnd, 'PrepaymentAdjustmentRoundingType'),
      matching_blocker_id: c(s, rnd, 'MatchingBlocker'),
      prepayment_block_id: c(s, rnd, 'PrepaymentBlock'),
    });
  },
  DistributionCostType(sink, rnd, ca, s) {
    s.catalog.DistributionCostType.slice(0, rnd.int(1, 3)).forEach((t, position) =>
      sink.add('ca_distribution_cost_types', {
        contract_agreement_id: ca,
        position,
        distribution_cost_type_id: t,
        standard_distribution_key_id: c(s, rnd, 'StandardDistributionKey'),
      }),
    );
  },
  MultipleOptInAgreement(sink, rnd, ca, s) {
    const end = rnd.int(2028, 2032);
    sink.add('ca_multiple_opt_in', {
      contract_agreement_id: ca,
      first_end_of_contract: `${end}-12-31`,
      automatic_prolongation_id: c(s, rnd, 'AutomaticProlongationAfterEndOfContract'),
    });
    sink.add('ca_prolongations', {
      id: sink.nextId(),
      contract_agreement_id: ca,
      prolongation_period_id: c(s, rnd, 'ProlongationPeriod'),
      prolongation_activated: 0,
      new_end_of_contract: `${end + 5}-12-31T00:00:00Z`,
      option_deadline: `${end}-06-30T00:00:00Z`,
    });
  },
  MinorRepairWorkAgreement(sink, rnd, ca, s) {
    const annual = rnd.int(6000, 14000);
    sink.add('ca_minor_repair_work', {
      contract_agreement_id: ca,
      is_regarded_in_commissioning: 1,
      per_repair_is_net_amount: 0,
      per_repair_amount: rnd.pick(['75.00', '100.00', '120.00']),
      per_year_amount: (annual * 0.08).toFixed(2),
      per_year_is_absolute: 0,
      per_year_is_rent_calculation_net_rent: 1,
      per_year_is_net_commission_amount: 0,
      annual_rent_cost_portion_per_year: '8',
      annual_rent_cost_portion_per_year_string: '8 %',
      annual_rent: `${annual}.00`,
      currency_id: s.catalog.Currency[0],
    });
  },
  CivilCodeAdaptationLockAgreement: () => {},
  ReminderChargeFixedAmount: reminder(true),
  ReminderChargeInterest: reminder(false),
  WaiverOfTerminationAgreement: (sink, rnd, ca, s) =>
    sink.add('ca_waiver_of_termination', {
      contract_agreement_id: ca,
      reason_of_waiver_id: c(s, rnd, 'ReasonOfWaiver'),
    }),
};

/** A contract agreement of `kind` on a license agreement, with its detail and child rows. */
export function generateContractAgreement(
  sink: Sink,
  rnd: Random,
  s: Shared,
  kind: ContractAgreementKind,
  license: { id: number; company_code_id: number; valid_from: string },
  groups: number[],
): void {
  const from = license.valid_from;
  const row = buildContractAgreement(sink.nextId(), kind, license, {
    valid_from: from,
    valid_to: rnd.chance(0.3) ? `${Number(from.slice(0, 4)) + 10}-12-31` : OPEN_END,
    input_date: from,
    first_debit: `${from.slice(0, 7)}-01`,
  });
  sink.add('contract_agreements', row);
  DETAILS[kind](sink, rnd, row.id, s, groups);
}
