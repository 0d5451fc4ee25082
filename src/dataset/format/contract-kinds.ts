// The per-kind part of a ContractAgreements record: detail fields (1:1 table) and child arrays, for the 17 kinds.
import type { ContractAgreementKind } from '../../rent-accounting/tables.ts';
import {
  bool,
  code,
  date,
  dateTime,
  dec,
  id,
  int,
  refTo,
  str,
  type ChildSpec,
  type Field,
  type KindSpec,
} from './fields.ts';

const CA = 'contract_agreement_id';
const detail = (table: string, fields: Field[]) => ({ table, fields });
const positioned = (wire: string, table: string, f: Field): ChildSpec => ({
  wire,
  table,
  parentColumn: CA,
  fields: [f],
  scalar: true,
  key: ['position'],
  order: ['position'],
  position: 'position',
});

const specialCharge: KindSpec = {
  detail: detail('ca_special_charge', [
    dec('Percentage'),
    bool('IsGrossAmount'),
    dec('FixCostsValue'),
    code('DistributionSpecialChargeTypeId', 'DistributionSpecialChargeType', { col: 'special_charge_type_id' }),
    code('PrepaymentBlockId', 'PrepaymentBlock'),
    code('DistributionCostTypeId', 'DistributionCostType'),
  ]),
  children: [
    positioned(
      'CalculationBaseIds',
      'ca_special_charge_calculation_bases',
      code('CalculationBaseId', 'CalculationBase', { required: true }),
    ),
    positioned(
      'BillingUnitValueIds',
      'ca_special_charge_billing_unit_values',
      code('BillingUnitValueId', 'BillingUnitValue', { required: true }),
    ),
  ],
};

const dunningLevels: ChildSpec = {
  wire: 'DunningLevelIds',
  table: 'ca_reminder_charge_dunning_levels',
  parentColumn: CA,
  scalar: true,
  key: ['dunning_level_id'],
  order: ['dunning_level_id'],
  fields: [code('DunningLevelId', 'DunningLevel', { required: true })],
};

export const CONTRACT_KINDS: Record<ContractAgreementKind, KindSpec> = {
  IndexRentalAgreement: {
    detail: detail('ca_index_rental', [
      refTo('PriceIndexId', 'price_indices'),
      refTo('PriceIndexValueId', 'price_index_values'),
      dec('TransferPercent'),
      dec('WaitingPeriod'),
      dec('LimitForIncrease'),
      dec('LimitForReduction'),
      date('ScopeChange'),
      bool('AutomaticAdjustment'),
      int('BaseYear'),
      code('ContractAgreementTypeId', 'ContractAgreementType'),
      str('ReferenceValueIndex'),
    ]),
    children: [],
  },
  GraduatedRentAgreement: {
    detail: detail('ca_graduated_rent', [
      dec('RentalUpperLimit'),
      code('ContractPositionTypeId', 'ContractPositionType'),
    ]),
    children: [
      {
        wire: 'GraduatedRentEntries',
        table: 'ca_graduated_rent_entries',
        parentColumn: CA,
        key: ['id'],
        order: ['id'],
        fields: [
          id(),
          dateTime('RentChangeDate'),
          dec('Amount'),
          bool('ActivatedAgreement'),
          code('VatRateId', 'VatRate'),
          bool('Invalid'),
          dec('SquareMeters'),
          dec('PricePerSquareMeter'),
        ],
      },
    ],
  },
  TurnoverRentAgreement: {
    detail: detail('ca_turnover_rent', [
      code('ContractPositionTypeId', 'ContractPositionType'),
      code('ContractAgreementAccountingIntervalId', 'ContractAgreementAccountingInterval', {
        col: 'accounting_interval_id',
      }),
      dateTime('NextAccountingDate'),
      dateTime('LastAccountingDate'),
      dec('LastPeriodOfService'),
      dec('RentalUpperLimitNet'),
      dec('RentalUpperLimitGross'),
      dec('RentalLowerLimitNet'),
      dec('RentalLowerLimitGross'),
      bool('Ascending'),
    ]),
    children: [
      {
        wire: 'TurnoverRentSteps',
        table: 'ca_turnover_rent_steps',
        parentColumn: CA,
        key: ['id'],
        order: ['id'],
        fields: [id(), dec('TurnoverFrom'), dec('TurnoverTo'), dec('Percentage')],
      },
    ],
  },
  VatOptionAgreement: { detail: detail('ca_vat_option', [code('VatRateId', 'VatRate')]), children: [] },
  RentalUpperLimit: { detail: detail('ca_rental_upper_limit', [dec('RentalUpperLimit')]), children: [] },
  GrossRentsWithoutHeating: {
    children: [
      {
        wire: 'ExcludedInAllocationGroupIds',
        table: 'ca_gross_rent_excluded_groups',
        parentColumn: CA,
        scalar: true,
        key: ['allocation_group_id'],
        order: ['allocation_group_id'],
        fields: [refTo('AllocationGroupId', 'allocation_groups', { required: true, sameLedger: true })],
      },
    ],
  },
  MaxCostDistribution: specialCharge,
  DistributionSpecialCharge: specialCharge,
  SpecialUseRight: {
    detail: detail('ca_special_use_right', [str('SpecialUseRightDescription', { col: 'description' })]),
    children: [],
  },
  PrepaymentAdjustment: {
    detail: detail('ca_prepayment_adjustment', [
      dec('MinimumAmountIncrease'),
      dec('MinimumAmountReduction'),
      dec('CapAmount'),
      code('DefaultRoundingToIntegerId', 'DefaultRoundingToInteger'),
      code('PrepaymentAdjustmentRoundingTypeId', 'PrepaymentAdjustmentRoundingType', { col: 'rounding_type_id' }),
      code('MatchingBlockerId', 'MatchingBlocker'),
      code('PrepaymentBlockId', 'PrepaymentBlock'),
    ]),
    children: [],
  },
  DistributionCostType: {
    children: [
      {
        wire: 'DistributionCostTypes',
        table: 'ca_distribution_cost_types',
        parentColumn: CA,
        key: ['position'],
        order: ['position'],
        position: 'position',
        fields: [
          code('DistributionCostTypeId', 'DistributionCostType', { required: true }),
          code('StandardDistributionKeyId', 'StandardDistributionKey'),
        ],
      },
    ],
  },
  MultipleOptInAgreement: {
    detail: detail('ca_multiple_opt_in', [
      date('FirstEndOfContract'),
      code('AutomaticProlongationAfterEndOfContractId', 'AutomaticProlongationAfterEndOfContract', {
        col: 'automatic_prolongation_id',
      }),
    ]),
    children: [
      {
        wire: 'Prolongations',
        table: 'ca_prolongations',
        parentColumn: CA,
        key: ['id'],
        order: ['id'],
        fields: [
          id(),
          code('ProlongationPeriodId', 'ProlongationPeriod'),
          bool('ProlongationActivated'),
          dateTime('NewEndOfContract'),
          dateTime('OptionDeadline'),
        ],
      },
    ],
  },
  MinorRepairWorkAgreement: {
    detail: detail('ca_minor_repair_work', [
      bool('IsRegardedInCommissioning'),
      bool('IsCostPortionPerRepairNetAmount', { col: 'per_repair_is_net_amount' }),
      dec('CostPortionPerRepairAmount', { col: 'per_repair_amount' }),
      dec('CostPortionPerYearAmount', { col: 'per_year_amount' }),
      bool('IsCostPortionPerYearAbsolute', { col: 'per_year_is_absolute' }),
      bool('IsCostPortionPerYearRentCalculationNetRent', { col: 'per_year_is_rent_calculation_net_rent' }),
      bool('IsCostPortionPerYearNetCommisionAmount', { col: 'per_year_is_net_commission_amount' }),
      dec('AnnualRentCostPortionPerYear'),
      str('AnnualRentCostPortionPerYearString'),
      dec('AnnualRent'),
      code('CurrencyId', 'Currency'),
    ]),
    children: [],
  },
  CivilCodeAdaptationLockAgreement: { children: [] },
  ReminderChargeFixedAmount: { detail: detail('ca_reminder_charge', [dec('ReminderFee')]), children: [dunningLevels] },
  ReminderChargeInterest: {
    detail: detail('ca_reminder_charge', [dec('DebitInterestRate'), dec('MinimumInterestRate')]),
    children: [dunningLevels],
  },
  WaiverOfTerminationAgreement: {
    detail: detail('ca_waiver_of_termination', [code('ReasonOfWaiverId', 'ReasonOfWaiver')]),
    children: [],
  },
};
