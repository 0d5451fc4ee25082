// Contract-agreement kinds about terms of the contract (version 1.2 only): special use right, multiple opt-in,
// minor repair work, civil-code adaptation lock, waiver of termination.
import { Type } from '@sinclair/typebox';
import { WireObject } from '../http/schemas.ts';
import { bool, dateTime, dec } from '../http/present.ts';
import { columnValues } from './codes.ts';
import { groupBy, indexBy } from '../db/group.ts';
import { defineKind } from './contracts.ts';
import { Bool, DateField, DateTimeField, Int32, Num, Ref, Str } from './wire.ts';

export const specialUseRight = defineKind({
  kind: 'SpecialUseRight',
  async load(db, ids) {
    const details = await db
      .selectFrom('ca_special_use_right')
      .selectAll()
      .where('contract_agreement_id', 'in', ids)
      .execute();
    return { details: indexBy(details, 'contract_agreement_id') };
  },
  codeIds: () => [],
  v12: {
    fields: { SpecialUseRightDescription: Str() },
    present: (h, l) => ({ SpecialUseRightDescription: l.details.get(h.id)?.description ?? null }),
  },
});

export const multipleOptIn = defineKind({
  kind: 'MultipleOptInAgreement',
  async load(db, ids) {
    const details = await db
      .selectFrom('ca_multiple_opt_in')
      .selectAll()
      .where('contract_agreement_id', 'in', ids)
      .execute();
    const prolongations = await db
      .selectFrom('ca_prolongations')
      .selectAll()
      .where('contract_agreement_id', 'in', ids)
      .orderBy('contract_agreement_id')
      .orderBy('id')
      .execute();
    return {
      details: indexBy(details, 'contract_agreement_id'),
      prolongations: groupBy(prolongations, 'contract_agreement_id'),
    };
  },
  codeIds: (l) => [
    ...columnValues(l.details.values(), 'automatic_prolongation_id'),
    ...columnValues([...l.prolongations.values()].flat(), 'prolongation_period_id'),
  ],
  v12: {
    fields: {
      FirstEndOfContract: DateField(),
      AutomaticProlongationAfterEndOfContract: Ref,
      Prolongations: Type.Array(
        WireObject({
          Id: Int32(),
          ProlongationPeriod: Ref,
          ProlongationActivated: Bool(),
          NewEndOfContract: DateTimeField(),
          OptionDeadline: DateTimeField(),
        }),
      ),
    },
    present(h, l, c) {
      const d = l.details.get(h.id);
      return {
        FirstEndOfContract: d?.first_end_of_contract ?? null,
        AutomaticProlongationAfterEndOfContract: c.ref(d?.automatic_prolongation_id),
        Prolongations: (l.prolongations.get(h.id) ?? []).map((p) => ({
          Id: p.id,
          ProlongationPeriod: c.ref(p.prolongation_period_id),
          ProlongationActivated: bool(p.prolongation_activated),
          NewEndOfContract: dateTime(p.new_end_of_contract),
          OptionDeadline: dateTime(p.option_deadline),
        })),
      };
    },
  },
});

export const minorRepairWork = defineKind({
  kind: 'MinorRepairWorkAgreement',
  async load(db, ids) {
    const details = await db
      .selectFrom('ca_minor_repair_work')
      .selectAll()
      .where('contract_agreement_id', 'in', ids)
      .execute();
    return { details: indexBy(details, 'contract_agreement_id') };
  },
  codeIds: (l) => columnValues(l.details.values(), 'currency_id'),
  v12: {
    fields: {
      IsRegardedInCommissioning: Bool(),
      CostPortionPerRepair: WireObject({ IsCostPortionPerRepairNetAmount: Bool(), Amount: Num() }),
      CostPortionPerYear: WireObject({
        Amount: Num(),
        IsCostPortionPerYearAbsolute: Bool(),
        IsCostPortionPerYearRentCalculationNetRent: Bool(),
        IsCostPortionPerYearNetCommisionAmount: Bool(),
        AnnualRentCostPortionPerYear: Num(),
        AnnualRentCostPortionPerYearString: Str(),
        AnnualRent: Num(),
        Currency: Ref,
      }),
    },
    present(h, l, c) {
      const d = l.details.get(h.id);
      if (!d) return { IsRegardedInCommissioning: null, CostPortionPerRepair: null, CostPortionPerYear: null };
      return {
        IsRegardedInCommissioning: bool(d.is_regarded_in_commissioning),
        CostPortionPerRepair: {
          IsCostPortionPerRepairNetAmount: bool(d.per_repair_is_net_amount),
          Amount: dec(d.per_repair_amount),
        },
        CostPortionPerYear: {
          Amount: dec(d.per_year_amount),
          IsCostPortionPerYearAbsolute: bool(d.per_year_is_absolute),
          IsCostPortionPerYearRentCalculationNetRent: bool(d.per_year_is_rent_calculation_net_rent),
          IsCostPortionPerYearNetCommisionAmount: bool(d.per_year_is_net_commission_amount),
          AnnualRentCostPortionPerYear: dec(d.annual_rent_cost_portion_per_year),
          AnnualRentCostPortionPerYearString: d.annual_rent_cost_portion_per_year_string,
          AnnualRent: dec(d.annual_rent),
          Currency: c.ref(d.currency_id),
        },
      };
    },
  },
});

export const civilCodeAdaptationLock = defineKind({
  kind: 'CivilCodeAdaptationLockAgreement',
  load: async () => ({}),
  codeIds: () => [],
  v12: { fields: {}, present: () => ({}) },
});

export const waiverOfTermination = defineKind({
  kind: 'WaiverOfTerminationAgreement',
  async load(db, ids) {
    const details = await db
      .selectFrom('ca_waiver_of_termination')
      .selectAll()
      .where('contract_agreement_id', 'in', ids)
      .execute();
    return { details: indexBy(details, 'contract_agreement_id') };
  },
  codeIds: (l) => columnValues(l.details.values(), 'reason_of_waiver_id'),
  v12: {
    fields: { ReasonOfWaiver: WireObject({ Id: Int32(), Code: Str(), NodeId: Int32() }) },
    present: (h, l, c) => ({ ReasonOfWaiver: c.node(l.details.get(h.id)?.reason_of_waiver_id) }),
  },
});
