// Version 1.0 UseUnitRentAdjustments: rent adjustments per use unit, with surcharges/reductions and facility
// characteristics; ledger of a record = its use unit's (company_code_id on the row).
import { Type } from '@sinclair/typebox';
import type { Selectable } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { UseUnitRentAdjustmentsTable } from './tables.ts';
import { ledgerCondition } from '../auth/ledger-scope.ts';
import { WireObject } from '../http/schemas.ts';
import { bool, dateTime, dec } from '../http/present.ts';
import { Codes, columnValues } from './codes.ts';
import { groupBy } from '../db/group.ts';
import { useUnitFilters, windowed } from './contracts.ts';
import type { Reader } from './engine.ts';
import { Bool, DateTimeField, Int32, Num, Str } from './wire.ts';

type AdjustmentRow = Selectable<UseUnitRentAdjustmentsTable>;

async function related(db: Executor, rows: AdjustmentRow[]) {
  const ids = rows.map((r) => r.id);
  const surcharges = await db
    .selectFrom('rent_adjustment_surcharges')
    .selectAll()
    .where('use_unit_rent_adjustment_id', 'in', ids)
    .orderBy('use_unit_rent_adjustment_id')
    .orderBy('id')
    .execute();
  const facilities = await db
    .selectFrom('rent_adjustment_facility_characteristics')
    .selectAll()
    .where('use_unit_rent_adjustment_id', 'in', ids)
    .orderBy('use_unit_rent_adjustment_id')
    .orderBy('facility_characteristic_group_id')
    .execute();
  const codes = await Codes.load(db, [
    ...columnValues(rows, 'fio_legal_state_id', 'municipality_id', 'cap_limit_id'),
    ...columnValues(surcharges, 'special_attribute_id'),
    ...columnValues(facilities, 'facility_characteristic_group_id'),
  ]);
  return {
    surcharges: groupBy(surcharges, 'use_unit_rent_adjustment_id'),
    facilities: groupBy(facilities, 'use_unit_rent_adjustment_id'),
    codes,
  };
}

export const useUnitRentAdjustmentsReader: Reader<AdjustmentRow, Awaited<ReturnType<typeof related>>> = {
  summary: 'Rent adjustments per use unit (version 1.0)',
  filters: ['useUnitId', 'useUnitNumber', 'economicUnitId'],
  fields: {
    Id: Int32(),
    UseUnitId: Int32(),
    AdjustmentBlocker: DateTimeField(),
    FIOLegalStateId: Int32(),
    FIOLegalState: Str(),
    MunicipalityId: Int32(),
    Municipality: Str(),
    MoveInDate: DateTimeField(),
    SquareMeterLivingSpace: Num(),
    ApartmentSizeClass: Str(),
    HousingQualityPointsComparisonObject: Num(),
    ModernisingByRentIndex: Bool(),
    IncreaseAmount: Num(),
    ComparableRentOfAnArea: Num(),
    AdjustmentDate: DateTimeField(),
    TextForDifferentRating: Str(),
    CapLimitId: Int32(),
    CapLimit: Str(),
    CapLimitAbsoluteSqm: Num(),
    MunicipalityActiveRentIndex: Str(),
    SurchargesAndReduction: Type.Array(
      WireObject({
        Id: Int32(),
        UseUnitRentAdjustmentId: Int32(),
        SpecialAttributeId: Int32(),
        SpecialAttribute: Str(),
        Amount: Num(),
        Percent: Num(),
      }),
    ),
    FacilityCharacteristics: Type.Array(
      WireObject({
        FacilityCharacteristicGroupId: Int32(),
        UseUnitRentAdjustmentId: Int32(),
        FacilityCharacteristicGroup: Str(),
        FacilityCharacteristicGroupEffectiveValue: Str(),
      }),
    ),
  },
  rows(db, f, scope, w) {
    const qb = db
      .selectFrom('use_unit_rent_adjustments as ra')
      .innerJoin('use_units as uu', 'uu.id', 'ra.use_unit_id')
      .selectAll('ra')
      .where((eb) => ledgerCondition(eb.ref('ra.company_code_id'), scope));
    return windowed(useUnitFilters(qb, f), 'ra.id', w).execute();
  },
  related,
  present(r, { surcharges, facilities, codes: c }) {
    return {
      Id: r.id,
      UseUnitId: r.use_unit_id,
      AdjustmentBlocker: dateTime(r.adjustment_blocker),
      FIOLegalStateId: r.fio_legal_state_id,
      FIOLegalState: c.code(r.fio_legal_state_id),
      MunicipalityId: r.municipality_id,
      Municipality: c.code(r.municipality_id),
      MoveInDate: dateTime(r.move_in_date),
      SquareMeterLivingSpace: dec(r.square_meter_living_space),
      ApartmentSizeClass: r.apartment_size_class,
      HousingQualityPointsComparisonObject: dec(r.housing_quality_points_comparison_object),
      ModernisingByRentIndex: bool(r.modernising_by_rent_index),
      IncreaseAmount: dec(r.increase_amount),
      ComparableRentOfAnArea: dec(r.comparable_rent_of_an_area),
      AdjustmentDate: dateTime(r.adjustment_date),
      TextForDifferentRating: r.text_for_different_rating,
      CapLimitId: r.cap_limit_id,
      CapLimit: c.code(r.cap_limit_id),
      CapLimitAbsoluteSqm: dec(r.cap_limit_absolute_sqm),
      MunicipalityActiveRentIndex: r.municipality_active_rent_index,
      SurchargesAndReduction: (surcharges.get(r.id) ?? []).map((s) => ({
        Id: s.id,
        UseUnitRentAdjustmentId: s.use_unit_rent_adjustment_id,
        SpecialAttributeId: s.special_attribute_id,
        SpecialAttribute: c.code(s.special_attribute_id),
        Amount: dec(s.amount),
        Percent: dec(s.percent),
      })),
      FacilityCharacteristics: (facilities.get(r.id) ?? []).map((f) => ({
        FacilityCharacteristicGroupId: f.facility_characteristic_group_id,
        UseUnitRentAdjustmentId: f.use_unit_rent_adjustment_id,
        FacilityCharacteristicGroup: c.code(f.facility_characteristic_group_id),
        FacilityCharacteristicGroupEffectiveValue: f.effective_value,
      })),
    };
  },
};
