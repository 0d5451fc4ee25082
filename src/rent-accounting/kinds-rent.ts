// Contract-agreement kinds about the rent itself: index rent, graduated rent, turnover rent, VAT option, rental
// upper limit. Each offered in version 1.2 and 1.0 (names and mapping: docs/data-model.md).
import { Type } from '@sinclair/typebox';
import { WireObject } from '../http/schemas.ts';
import { bool, dateTime, dec } from '../http/present.ts';
import { columnValues } from './codes.ts';
import { groupBy, indexBy } from '../db/group.ts';
import { defineKind } from './contracts.ts';
import { Bool, DateField, DateTimeField, Int32, NamedRef, Num, Ref, Str } from './wire.ts';

export const indexRental = defineKind({
  kind: 'IndexRentalAgreement',
  async load(db, ids) {
    const details = await db
      .selectFrom('ca_index_rental as d')
      .leftJoin('price_indices as pi', 'pi.id', 'd.price_index_id')
      .leftJoin('price_index_values as pv', 'pv.id', 'd.price_index_value_id')
      .leftJoin('price_indices as vpi', 'vpi.id', 'pv.price_index_id')
      .selectAll('d')
      .select([
        'pi.code as price_index_code',
        'pv.index_value',
        'pv.reference_date',
        'pv.price_index_id as value_price_index_id',
        'vpi.code as value_price_index_code',
      ])
      .where('d.contract_agreement_id', 'in', ids)
      .execute();
    return { details: indexBy(details, 'contract_agreement_id') };
  },
  codeIds: (l) => columnValues(l.details.values(), 'contract_agreement_type_id'),
  v12: {
    fields: {
      PriceIndex: Ref,
      PriceIndexValue: WireObject({ Id: Int32(), IndexValue: Num(), ReferenceDate: DateField(), PriceIndex: Ref }),
      TransferPercent: Num(),
      WaitingPeriod: Num(),
      LimitForIncrease: Num(),
      LimitForReduction: Num(),
      ScopeChange: DateField(),
      AutomaticAdjustment: Bool(),
      BaseYear: Num(),
    },
    present(h, l) {
      const d = l.details.get(h.id);
      return {
        PriceIndex: d?.price_index_id == null ? null : { Id: d.price_index_id, Code: d.price_index_code },
        PriceIndexValue:
          d?.price_index_value_id == null
            ? null
            : {
                Id: d.price_index_value_id,
                IndexValue: dec(d.index_value),
                ReferenceDate: d.reference_date,
                PriceIndex:
                  d.value_price_index_id == null
                    ? null
                    : { Id: d.value_price_index_id, Code: d.value_price_index_code },
              },
        TransferPercent: dec(d?.transfer_percent),
        WaitingPeriod: dec(d?.waiting_period),
        LimitForIncrease: dec(d?.limit_for_increase),
        LimitForReduction: dec(d?.limit_for_reduction),
        ScopeChange: d?.scope_change ?? null,
        AutomaticAdjustment: bool(d?.automatic_adjustment),
        BaseYear: d?.base_year ?? null,
      };
    },
  },
  v10: {
    fields: {
      PriceIndex: Str(),
      ContractAgreementTypeId: Int32(),
      ContractAgreementType: Str(),
      ReferenceValueIndex: Str(),
      AgreementIndexWaitingPeriod: Num(),
      AgreementIndexReferenceDate: DateTimeField(),
      AgreementIndexPriceIndexValue: Num(),
      AgreementIndexLimitForIncrease: Num(),
      AgreementIndexTransferPercent: Num(),
    },
    present(h, l, c) {
      const d = l.details.get(h.id);
      return {
        PriceIndex: d?.price_index_code ?? null,
        ContractAgreementTypeId: d?.contract_agreement_type_id ?? null,
        ContractAgreementType: c.code(d?.contract_agreement_type_id),
        ReferenceValueIndex: d?.reference_value_index ?? null,
        AgreementIndexWaitingPeriod: dec(d?.waiting_period),
        AgreementIndexReferenceDate: dateTime(d?.reference_date),
        AgreementIndexPriceIndexValue: dec(d?.index_value),
        AgreementIndexLimitForIncrease: dec(d?.limit_for_increase),
        AgreementIndexTransferPercent: dec(d?.transfer_percent),
      };
    },
  },
});

export const graduatedRent = defineKind({
  kind: 'GraduatedRentAgreement',
  async load(db, ids) {
    const details = await db
      .selectFrom('ca_graduated_rent')
      .selectAll()
      .where('contract_agreement_id', 'in', ids)
      .execute();
    const entries = await db
      .selectFrom('ca_graduated_rent_entries')
      .selectAll()
      .where('contract_agreement_id', 'in', ids)
      .orderBy('contract_agreement_id')
      .orderBy('id')
      .execute();
    return {
      details: indexBy(details, 'contract_agreement_id'),
      entries: groupBy(entries, 'contract_agreement_id'),
    };
  },
  codeIds: (l) => [
    ...columnValues(l.details.values(), 'contract_position_type_id'),
    ...columnValues([...l.entries.values()].flat(), 'vat_rate_id'),
  ],
  v12: {
    fields: {
      RentalUpperLimit: Num(),
      GraduatedRentEntries: Type.Array(
        WireObject({
          Id: Int32(),
          RentChangeDate: DateTimeField(),
          Amount: Num(),
          ActivatedAgreement: Bool(),
          VatRate: Ref,
          Invalid: Bool(),
          SquareMeters: Num(),
          PricePerSquareMeter: Num(),
        }),
      ),
      ContractPositionType: NamedRef,
    },
    present(h, l, c) {
      const d = l.details.get(h.id);
      return {
        RentalUpperLimit: dec(d?.rental_upper_limit),
        GraduatedRentEntries: (l.entries.get(h.id) ?? []).map((e) => ({
          Id: e.id,
          RentChangeDate: dateTime(e.rent_change_date),
          Amount: dec(e.amount),
          ActivatedAgreement: bool(e.activated_agreement),
          VatRate: c.ref(e.vat_rate_id),
          Invalid: bool(e.invalid),
          SquareMeters: dec(e.square_meters),
          PricePerSquareMeter: dec(e.price_per_square_meter),
        })),
        ContractPositionType: c.named(d?.contract_position_type_id),
      };
    },
  },
  v10: {
    fields: {
      RentalUpperLimit: Num(),
      GraduatedRentEntries: Type.Array(
        WireObject({
          Id: Int32(),
          RentChangeDate: DateTimeField(),
          Amount: Num(),
          VATRateId: Int32(),
          VATRate: Str(),
          ActivatedAgreement: Bool(),
        }),
      ),
    },
    present(h, l, c) {
      return {
        RentalUpperLimit: dec(l.details.get(h.id)?.rental_upper_limit),
        GraduatedRentEntries: (l.entries.get(h.id) ?? []).map((e) => ({
          Id: e.id,
          RentChangeDate: dateTime(e.rent_change_date),
          Amount: dec(e.amount),
          VATRateId: e.vat_rate_id,
          VATRate: c.code(e.vat_rate_id),
          ActivatedAgreement: bool(e.activated_agreement),
        })),
      };
    },
  },
});

const TurnoverRentSteps = Type.Array(
  WireObject({ Id: Int32(), TurnoverFrom: Num(), TurnoverTo: Num(), Percentage: Num() }),
);

export const turnoverRent = defineKind({
  kind: 'TurnoverRentAgreement',
  async load(db, ids) {
    const details = await db
      .selectFrom('ca_turnover_rent')
      .selectAll()
      .where('contract_agreement_id', 'in', ids)
      .execute();
    const steps = await db
      .selectFrom('ca_turnover_rent_steps')
      .selectAll()
      .where('contract_agreement_id', 'in', ids)
      .orderBy('contract_agreement_id')
      .orderBy('id')
      .execute();
    return {
      details: indexBy(details, 'contract_agreement_id'),
      steps: groupBy(steps, 'contract_agreement_id'),
    };
  },
  codeIds: (l) => columnValues(l.details.values(), 'contract_position_type_id', 'accounting_interval_id'),
  v12: {
    fields: {
      ContractPositionType: NamedRef,
      ContractAgreementAccountingInterval: Ref,
      NextAccountingDate: DateTimeField(),
      LastAccountingDate: DateTimeField(),
      LastPeriodOfService: Num(),
      RentalUpperLimitNet: Num(),
      RentalUpperLimitGross: Num(),
      RentalLowerLimitNet: Num(),
      RentalLowerLimitGross: Num(),
      Ascending: Bool(),
      TurnoverRentSteps,
    },
    present(h, l, c) {
      const d = l.details.get(h.id);
      return {
        ContractPositionType: c.named(d?.contract_position_type_id),
        ContractAgreementAccountingInterval: c.ref(d?.accounting_interval_id),
        NextAccountingDate: dateTime(d?.next_accounting_date),
        LastAccountingDate: dateTime(d?.last_accounting_date),
        LastPeriodOfService: dec(d?.last_period_of_service),
        RentalUpperLimitNet: dec(d?.rental_upper_limit_net),
        RentalUpperLimitGross: dec(d?.rental_upper_limit_gross),
        RentalLowerLimitNet: dec(d?.rental_lower_limit_net),
        RentalLowerLimitGross: dec(d?.rental_lower_limit_gross),
        Ascending: bool(d?.ascending),
        TurnoverRentSteps: presentSteps(l.steps.get(h.id)),
      };
    },
  },
  v10: {
    fields: {
      ContractPositionTypeId: Int32(),
      ContractPositionType: Str(),
      AccountingIntervalId: Int32(),
      AccountingInterval: Str(),
      NextAccountingDate: DateTimeField(),
      LastAccountingDate: DateTimeField(),
      LastPeriodOfService: Num(),
      RentalLowerLimit_Net: Num(),
      RentalLowerLimit_Gross: Num(),
      RentalUpperLimit_Net: Num(),
      RentalUpperLimit_Gross: Num(),
      Ascending: Bool(),
      TurnoverRentSteps,
    },
    present(h, l, c) {
      const d = l.details.get(h.id);
      return {
        ContractPositionTypeId: d?.contract_position_type_id ?? null,
        ContractPositionType: c.name(d?.contract_position_type_id),
        AccountingIntervalId: d?.accounting_interval_id ?? null,
        AccountingInterval: c.code(d?.accounting_interval_id),
        NextAccountingDate: dateTime(d?.next_accounting_date),
        LastAccountingDate: dateTime(d?.last_accounting_date),
        LastPeriodOfService: dec(d?.last_period_of_service),
        RentalLowerLimit_Net: dec(d?.rental_lower_limit_net),
        RentalLowerLimit_Gross: dec(d?.rental_lower_limit_gross),
        RentalUpperLimit_Net: dec(d?.rental_upper_limit_net),
        RentalUpperLimit_Gross: dec(d?.rental_upper_limit_gross),
        Ascending: bool(d?.ascending),
        TurnoverRentSteps: presentSteps(l.steps.get(h.id)),
      };
    },
  },
});

function presentSteps(
  steps: { id: number; turnover_from: string | null; turnover_to: string | null; percentage: string | null }[] = [],
) {
  return steps.map((s) => ({
    Id: s.id,
    TurnoverFrom: dec(s.turnover_from),
    TurnoverTo: dec(s.turnover_to),
    Percentage: dec(s.percentage),
  }));
}

export const vatOption = defineKind({
  kind: 'VatOptionAgreement',
  async load(db, ids) {
    const details = await db
      .selectFrom('ca_vat_option')
      .selectAll()
      .where('contract_agreement_id', 'in', ids)
      .execute();
    return { details: indexBy(details, 'contract_agreement_id') };
  },
  codeIds: (l) => columnValues(l.details.values(), 'vat_rate_id'),
  v12: {
    fields: { VatRate: Ref },
    present: (h, l, c) => ({ VatRate: c.ref(l.details.get(h.id)?.vat_rate_id) }),
  },
  v10: {
    fields: { FirstDebit: DateTimeField(), SalesTaxId: Int32(), SalesTax: Str() },
    present(h, l, c) {
      const id = l.details.get(h.id)?.vat_rate_id;
      return { FirstDebit: dateTime(h.first_debit), SalesTaxId: id ?? null, SalesTax: c.code(id) };
    },
  },
});

export const rentalUpperLimit = defineKind({
  kind: 'RentalUpperLimit',
  async load(db, ids) {
    const details = await db
      .selectFrom('ca_rental_upper_limit')
      .selectAll()
      .where('contract_agreement_id', 'in', ids)
      .execute();
    return { details: indexBy(details, 'contract_agreement_id') };
  },
  codeIds: () => [],
  v12: {
    fields: { RentalUpperLimit: Num() },
    present: (h, l) => ({ RentalUpperLimit: dec(l.details.get(h.id)?.rental_upper_limit) }),
  },
  v10: {
    fields: { RentalUpperLimit: Num() },
    present: (h, l) => ({ RentalUpperLimit: dec(l.details.get(h.id)?.rental_upper_limit) }),
  },
});
