// Contract-agreement kinds about running costs and charges: gross rents without heating, maximum cost
// distribution and distribution special charge (one shape), prepayment adjustment, distribution cost types,
// reminder charges (fixed amount, interest).
import { Type } from '@sinclair/typebox';
import type { ContractAgreementKind } from './tables.ts';
import type { Executor } from '../db/database.ts';
import { WireObject } from '../http/schemas.ts';
import { bool, dec } from '../http/present.ts';
import { columnValues } from './codes.ts';
import { groupBy, indexBy } from '../db/group.ts';
import { defineKind } from './contracts.ts';
import { Bool, CodedRef, Int32, NamedRef, Num, Ref, Str } from './wire.ts';

const ExcludedInAllocationGroups = Type.Array(
  WireObject({ AllocationGroup: Str(), AllocationGroupState: Str(), DistributionPeriod: Str() }),
);

export const grossRentsWithoutHeating = defineKind({
  kind: 'GrossRentsWithoutHeating',
  async load(db, ids) {
    const groups = await db
      .selectFrom('ca_gross_rent_excluded_groups as x')
      .innerJoin('allocation_groups as ag', 'ag.id', 'x.allocation_group_id')
      .leftJoin('catalog_codes as st', 'st.id', 'ag.allocation_group_state_id')
      .leftJoin('distribution_periods as dp', 'dp.id', 'ag.distribution_period_id')
      .select(['x.contract_agreement_id', 'ag.code as group_code', 'st.code as state_code', 'dp.code as period_code'])
      .where('x.contract_agreement_id', 'in', ids)
      .orderBy('x.contract_agreement_id')
      .orderBy('x.allocation_group_id')
      .execute();
    return { groups: groupBy(groups, 'contract_agreement_id') };
  },
  codeIds: () => [],
  v12: {
    fields: { ExcludedInAllocationGroups },
    present: (h, l) => ({ ExcludedInAllocationGroups: presentExcluded(l.groups.get(h.id)) }),
  },
  v10: {
    fields: { ExcludedInAllocationGroups },
    present: (h, l) => ({ ExcludedInAllocationGroups: presentExcluded(l.groups.get(h.id)) }),
  },
});

function presentExcluded(
  groups: { group_code: string | null; state_code: string | null; period_code: string | null }[] = [],
) {
  return groups.map((g) => ({
    AllocationGroup: g.group_code,
    AllocationGroupState: g.state_code,
    DistributionPeriod: g.period_code,
  }));
}

async function loadSpecialCharges(db: Executor, ids: number[]) {
  const details = await db
    .selectFrom('ca_special_charge')
    .selectAll()
    .where('contract_agreement_id', 'in', ids)
    .execute();
  const bases = await db
    .selectFrom('ca_special_charge_calculation_bases')
    .selectAll()
    .where('contract_agreement_id', 'in', ids)
    .orderBy('contract_agreement_id')
    .orderBy('position')
    .execute();
  const units = await db
    .selectFrom('ca_special_charge_billing_unit_values')
    .selectAll()
    .where('contract_agreement_id', 'in', ids)
    .orderBy('contract_agreement_id')
    .orderBy('position')
    .execute();
  return {
    details: indexBy(details, 'contract_agreement_id'),
    bases: groupBy(bases, 'contract_agreement_id'),
    units: groupBy(units, 'contract_agreement_id'),
  };
}

/** MaxCostDistribution and DistributionSpecialCharge share their shape; version 1.0 offers MaxCostDistribution only. */
function specialCharge(kind: ContractAgreementKind) {
  return defineKind({
    kind,
    load: loadSpecialCharges,
    codeIds: (l) => [
      ...columnValues(l.details.values(), 'special_charge_type_id', 'prepayment_block_id', 'distribution_cost_type_id'),
      ...columnValues([...l.bases.values()].flat(), 'calculation_base_id'),
      ...columnValues([...l.units.values()].flat(), 'billing_unit_value_id'),
    ],
    v12: {
      fields: {
        Percentage: Num(),
        IsGrossAmount: Bool(),
        FixCostsValue: Num(),
        DistributionSpecialChargeType: WireObject({
          Id: Int32(),
          Code: Str(),
          IsFixCostsPerDistributionKeyUnit: Bool(),
          IsPercentOfContractPosition: Bool(),
          IsUpperLimit: Bool(),
        }),
        CalculationBase: Type.Array(NamedRef),
        BillingUnitValue: Type.Array(WireObject({ Id: Int32(), Name: Str(), Code: Str(), ArgeCode: Str() })),
        PrepaymentBlock: Ref,
        DistributionCostType: CodedRef,
      },
      present(h, l, c) {
        const d = l.details.get(h.id);
        return {
          Percentage: dec(d?.percentage),
          IsGrossAmount: bool(d?.is_gross_amount),
          FixCostsValue: dec(d?.fix_costs_value),
          DistributionSpecialChargeType: c.chargeType(d?.special_charge_type_id),
          CalculationBase: (l.bases.get(h.id) ?? []).map((b) => c.named(b.calculation_base_id)),
          BillingUnitValue: (l.units.get(h.id) ?? []).map((u) => c.billingUnit(u.billing_unit_value_id)),
          PrepaymentBlock: c.ref(d?.prepayment_block_id),
          DistributionCostType: c.coded(d?.distribution_cost_type_id),
        };
      },
    },
    v10: {
      fields: {
        DistributionSpecialChargeTypeMaxCost: Str(),
        Percentage: Num(),
        CalculationBasisId: Int32(),
        CalculationBasis: Str(),
        DistributionCostType: Str(),
        IsGrossAmount: Bool(),
        FixCostValue: Num(),
        PrepaymentBlockId: Int32(),
        PrepaymentBlock: Str(),
        BillingUnitValueId: Int32(),
        BillingUnitValue: Str(),
      },
      present(h, l, c) {
        const d = l.details.get(h.id);
        const base = l.bases.get(h.id)?.[0]?.calculation_base_id;
        const unit = l.units.get(h.id)?.[0]?.billing_unit_value_id;
        return {
          DistributionSpecialChargeTypeMaxCost: c.code(d?.special_charge_type_id),
          Percentage: dec(d?.percentage),
          CalculationBasisId: base ?? null,
          CalculationBasis: c.name(base),
          DistributionCostType: c.code(d?.distribution_cost_type_id),
          IsGrossAmount: bool(d?.is_gross_amount),
          FixCostValue: dec(d?.fix_costs_value),
          PrepaymentBlockId: d?.prepayment_block_id ?? null,
          PrepaymentBlock: c.code(d?.prepayment_block_id),
          BillingUnitValueId: unit ?? null,
          BillingUnitValue: c.code(unit),
        };
      },
    },
  });
}

export const maxCostDistribution = specialCharge('MaxCostDistribution');
export const distributionSpecialCharge = specialCharge('DistributionSpecialCharge');

export const prepaymentAdjustment = defineKind({
  kind: 'PrepaymentAdjustment',
  async load(db, ids) {
    const details = await db
      .selectFrom('ca_prepayment_adjustment')
      .selectAll()
      .where('contract_agreement_id', 'in', ids)
      .execute();
    return { details: indexBy(details, 'contract_agreement_id') };
  },
  codeIds: (l) =>
    columnValues(
      l.details.values(),
      'default_rounding_to_integer_id',
      'rounding_type_id',
      'matching_blocker_id',
      'prepayment_block_id',
    ),
  v12: {
    fields: {
      MinimumAmountIncrease: Num(),
      MinimumAmountReduction: Num(),
      CapAmount: Num(),
      DefaultRoundingToInteger: Ref,
      PrepaymentAdjustmentRoundingType: Ref,
      MatchingBlocker: Ref,
      PrepaymentBlock: Ref,
    },
    present(h, l, c) {
      const d = l.details.get(h.id);
      return {
        MinimumAmountIncrease: dec(d?.minimum_amount_increase),
        MinimumAmountReduction: dec(d?.minimum_amount_reduction),
        CapAmount: dec(d?.cap_amount),
        DefaultRoundingToInteger: c.ref(d?.default_rounding_to_integer_id),
        PrepaymentAdjustmentRoundingType: c.ref(d?.rounding_type_id),
        MatchingBlocker: c.ref(d?.matching_blocker_id),
        PrepaymentBlock: c.ref(d?.prepayment_block_id),
      };
    },
  },
});

export const distributionCostType = defineKind({
  kind: 'DistributionCostType',
  async load(db, ids) {
    const types = await db
      .selectFrom('ca_distribution_cost_types')
      .selectAll()
      .where('contract_agreement_id', 'in', ids)
      .orderBy('contract_agreement_id')
      .orderBy('position')
      .execute();
    return { types: groupBy(types, 'contract_agreement_id') };
  },
  codeIds: (l) =>
    columnValues([...l.types.values()].flat(), 'distribution_cost_type_id', 'standard_distribution_key_id'),
  v12: {
    fields: {
      DistributionCostTypes: Type.Array(
        WireObject({ DistributionCostType: CodedRef, StandardDistributionKey: CodedRef }),
      ),
    },
    present: (h, l, c) => ({
      DistributionCostTypes: (l.types.get(h.id) ?? []).map((t) => ({
        DistributionCostType: c.coded(t.distribution_cost_type_id),
        StandardDistributionKey: c.coded(t.standard_distribution_key_id),
      })),
    }),
  },
});

async function loadReminderCharges(db: Executor, ids: number[]) {
  const details = await db
    .selectFrom('ca_reminder_charge')
    .selectAll()
    .where('contract_agreement_id', 'in', ids)
    .execute();
  const levels = await db
    .selectFrom('ca_reminder_charge_dunning_levels')
    .selectAll()
    .where('contract_agreement_id', 'in', ids)
    .orderBy('contract_agreement_id')
    .orderBy('dunning_level_id')
    .execute();
  return {
    details: indexBy(details, 'contract_agreement_id'),
    levels: groupBy(levels, 'contract_agreement_id'),
  };
}
type ReminderCharges = Awaited<ReturnType<typeof loadReminderCharges>>;
const reminderCodeIds = (l: ReminderCharges) => columnValues([...l.levels.values()].flat(), 'dunning_level_id');
const DunningLevels = Type.Array(Ref);

export const reminderChargeFixedAmount = defineKind({
  kind: 'ReminderChargeFixedAmount',
  load: loadReminderCharges,
  codeIds: reminderCodeIds,
  v12: {
    fields: { ReminderFee: Num(), DunningLevels },
    present: (h, l, c) => ({
      ReminderFee: dec(l.details.get(h.id)?.reminder_fee),
      DunningLevels: (l.levels.get(h.id) ?? []).map((x) => c.ref(x.dunning_level_id)),
    }),
  },
});

export const reminderChargeInterest = defineKind({
  kind: 'ReminderChargeInterest',
  load: loadReminderCharges,
  codeIds: reminderCodeIds,
  v12: {
    fields: { DebitInterestRate: Num(), MinimumInterestRate: Num(), DunningLevels },
    present(h, l, c) {
      const d = l.details.get(h.id);
      return {
        DebitInterestRate: dec(d?.debit_interest_rate),
        MinimumInterestRate: dec(d?.minimum_interest_rate),
        DunningLevels: (l.levels.get(h.id) ?? []).map((x) => c.ref(x.dunning_level_id)),
      };
    },
  },
});
