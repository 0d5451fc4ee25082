// For the tests: the rent-accounting wire objects transcribed from /work/shared/spec/interface.md (independently of
// the presenters' schemas), and a checker that a response object has exactly these fields with these types.
import assert from 'node:assert/strict';

export type Shape =
  'int' | 'number' | 'string' | 'boolean' | 'date' | 'datetime' | Shape[] | { [field: string]: Shape };

const REF: Shape = { Id: 'int', Code: 'string' };
const NAMED: Shape = { Id: 'int', Name: 'string', ShortCode: 'string' };
const CODED: Shape = { Id: 'int', Code: 'string', ShortCode: 'string' };

const V12_HEADER: Record<string, Shape> = {
  Id: 'int',
  ValidFrom: 'date',
  ValidTo: 'date',
  Inputdate: 'date',
  FirstDebit: 'date',
  LicenseAgreement: { Id: 'int', IdNum: 'string', UseUnit: { Id: 'int', UseUnitNumber: 'string' } },
};
const V10_HEADER: Record<string, Shape> = {
  Id: 'int',
  LicenseAgreementId: 'int',
  ValidFrom: 'datetime',
  ValidTo: 'datetime',
};

const SPECIAL_CHARGE: Record<string, Shape> = {
  Percentage: 'number',
  IsGrossAmount: 'boolean',
  FixCostsValue: 'number',
  DistributionSpecialChargeType: {
    Id: 'int',
    Code: 'string',
    IsFixCostsPerDistributionKeyUnit: 'boolean',
    IsPercentOfContractPosition: 'boolean',
    IsUpperLimit: 'boolean',
  },
  CalculationBase: [NAMED],
  BillingUnitValue: [{ Id: 'int', Name: 'string', Code: 'string', ArgeCode: 'string' }],
  PrepaymentBlock: REF,
  DistributionCostType: CODED,
};
const EXCLUDED: Shape = [{ AllocationGroup: 'string', AllocationGroupState: 'string', DistributionPeriod: 'string' }];
const STEPS: Shape = [{ Id: 'int', TurnoverFrom: 'number', TurnoverTo: 'number', Percentage: 'number' }];

/** Version 1.2 contract agreements: the additional fields per kind (header added below). */
const V12_KINDS: Record<string, Record<string, Shape>> = {
  IndexRentalAgreement: {
    PriceIndex: REF,
    PriceIndexValue: { Id: 'int', IndexValue: 'number', ReferenceDate: 'date', PriceIndex: REF },
    TransferPercent: 'number',
    WaitingPeriod: 'number',
    LimitForIncrease: 'number',
    LimitForReduction: 'number',
    ScopeChange: 'date',
    AutomaticAdjustment: 'boolean',
    BaseYear: 'number',
  },
  GraduatedRentAgreement: {
    RentalUpperLimit: 'number',
    ContractPositionType: NAMED,
    GraduatedRentEntries: [
      {
        Id: 'int',
        RentChangeDate: 'datetime',
        Amount: 'number',
        ActivatedAgreement: 'boolean',
        VatRate: REF,
        Invalid: 'boolean',
        SquareMeters: 'number',
        PricePerSquareMeter: 'number',
      },
    ],
  },
  TurnoverRentAgreement: {
    ContractPositionType: NAMED,
    ContractAgreementAccountingInterval: REF,
    NextAccountingDate: 'datetime',
    LastAccountingDate: 'datetime',
    LastPeriodOfService: 'number',
    RentalUpperLimitNet: 'number',
    RentalUpperLimitGross: 'number',
    RentalLowerLimitNet: 'number',
    RentalLowerLimitGross: 'number',
    Ascending: 'boolean',
    TurnoverRentSteps: STEPS,
  },
  VatOptionAgreement: { VatRate: REF },
  RentalUpperLimit: { RentalUpperLimit: 'number' },
  GrossRentsWithoutHeating: { ExcludedInAllocationGroups: EXCLUDED },
  MaxCostDistribution: SPECIAL_CHARGE,
  DistributionSpecialCharge: SPECIAL_CHARGE,
  SpecialUseRight: { SpecialUseRightDescription: 'string' },
  PrepaymentAdjustment: {
    MinimumAmountIncrease: 'number',
    MinimumAmountReduction: 'number',
    CapAmount: 'number',
    DefaultRoundingToInteger: REF,
    PrepaymentAdjustmentRoundingType: REF,
    MatchingBlocker: REF,
    PrepaymentBlock: REF,
  },
  DistributionCostType: { DistributionCostTypes: [{ DistributionCostType: CODED, StandardDistributionKey: CODED }] },
  MultipleOptInAgreement: {
    FirstEndOfContract: 'date',
    AutomaticProlongationAfterEndOfContract: REF,
    Prolongations: [
      {
        Id: 'int',
        ProlongationPeriod: REF,
        ProlongationActivated: 'boolean',
        NewEndOfContract: 'datetime',
        OptionDeadline: 'datetime',
      },
    ],
  },
  MinorRepairWorkAgreement: {
    IsRegardedInCommissioning: 'boolean',
    CostPortionPerRepair: { IsCostPortionPerRepairNetAmount: 'boolean', Amount: 'number' },
    CostPortionPerYear: {
      Amount: 'number',
      IsCostPortionPerYearAbsolute: 'boolean',
      IsCostPortionPerYearRentCalculationNetRent: 'boolean',
      IsCostPortionPerYearNetCommisionAmount: 'boolean',
      AnnualRentCostPortionPerYear: 'number',
      AnnualRentCostPortionPerYearString: 'string',
      AnnualRent: 'number',
      Currency: REF,
    },
  },
  CivilCodeAdaptationLockAgreement: {},
  ReminderChargeFixedAmount: { ReminderFee: 'number', DunningLevels: [REF] },
  ReminderChargeInterest: { DebitInterestRate: 'number', MinimumInterestRate: 'number', DunningLevels: [REF] },
  WaiverOfTerminationAgreement: { ReasonOfWaiver: { Id: 'int', Code: 'string', NodeId: 'int' } },
};

/** Version 1.0 contract agreements: v1.0 endpoint name -> [stored kind, additional fields]. */
export const V10_KINDS: Record<string, [string, Record<string, Shape>]> = {
  IndexRentalAgreement: [
    'IndexRentalAgreement',
    {
      PriceIndex: 'string',
      ContractAgreementTypeId: 'int',
      ContractAgreementType: 'string',
      ReferenceValueIndex: 'string',
      AgreementIndexWaitingPeriod: 'number',
      AgreementIndexReferenceDate: 'datetime',
      AgreementIndexPriceIndexValue: 'number',
      AgreementIndexLimitForIncrease: 'number',
      AgreementIndexTransferPercent: 'number',
    },
  ],
  GraduatedRentAgreement: [
    'GraduatedRentAgreement',
    {
      RentalUpperLimit: 'number',
      GraduatedRentEntries: [
        {
          Id: 'int',
          RentChangeDate: 'datetime',
          Amount: 'number',
          VATRateId: 'int',
          VATRate: 'string',
          ActivatedAgreement: 'boolean',
        },
      ],
    },
  ],
  TurnoverRentAgreement: [
    'TurnoverRentAgreement',
    {
      ContractPositionTypeId: 'int',
      ContractPositionType: 'string',
      AccountingIntervalId: 'int',
      AccountingInterval: 'string',
      NextAccountingDate: 'datetime',
      LastAccountingDate: 'datetime',
      LastPeriodOfService: 'number',
      RentalLowerLimit_Net: 'number',
      RentalLowerLimit_Gross: 'number',
      RentalUpperLimit_Net: 'number',
      RentalUpperLimit_Gross: 'number',
      Ascending: 'boolean',
      TurnoverRentSteps: STEPS,
    },
  ],
  VATOptionAgreement: ['VatOptionAgreement', { FirstDebit: 'datetime', SalesTaxId: 'int', SalesTax: 'string' }],
  RentalUpperLimit: ['RentalUpperLimit', { RentalUpperLimit: 'number' }],
  GrossRentsWithoutHeating: ['GrossRentsWithoutHeating', { ExcludedInAllocationGroups: EXCLUDED }],
  MaxCostDistribution: [
    'MaxCostDistribution',
    {
      DistributionSpecialChargeTypeMaxCost: 'string',
      Percentage: 'number',
      CalculationBasisId: 'int',
      CalculationBasis: 'string',
      DistributionCostType: 'string',
      IsGrossAmount: 'boolean',
      FixCostValue: 'number',
      PrepaymentBlockId: 'int',
      PrepaymentBlock: 'string',
      BillingUnitValueId: 'int',
      BillingUnitValue: 'string',
    },
  ],
};

export const V12_SHAPES: Record<string, Shape> = Object.fromEntries(
  Object.entries(V12_KINDS).map(([k, f]) => [k, { ...V12_HEADER, ...f }]),
);
export const V10_SHAPES: Record<string, Shape> = Object.fromEntries(
  Object.entries(V10_KINDS).map(([k, [, f]]) => [k, { ...V10_HEADER, ...f }]),
);

V10_SHAPES.UseUnitRentAdjustments = {
  Id: 'int',
  UseUnitId: 'int',
  AdjustmentBlocker: 'datetime',
  FIOLegalStateId: 'int',
  FIOLegalState: 'string',
  MunicipalityId: 'int',
  Municipality: 'string',
  MoveInDate: 'datetime',
  SquareMeterLivingSpace: 'number',
  ApartmentSizeClass: 'string',
  HousingQualityPointsComparisonObject: 'number',
  ModernisingByRentIndex: 'boolean',
  IncreaseAmount: 'number',
  ComparableRentOfAnArea: 'number',
  AdjustmentDate: 'datetime',
  TextForDifferentRating: 'string',
  CapLimitId: 'int',
  CapLimit: 'string',
  CapLimitAbsoluteSqm: 'number',
  MunicipalityActiveRentIndex: 'string',
  SurchargesAndReduction: [
    {
      Id: 'int',
      UseUnitRentAdjustmentId: 'int',
      SpecialAttributeId: 'int',
      SpecialAttribute: 'string',
      Amount: 'number',
      Percent: 'number',
    },
  ],
  FacilityCharacteristics: [
    {
      FacilityCharacteristicGroupId: 'int',
      UseUnitRentAdjustmentId: 'int',
      FacilityCharacteristicGroup: 'string',
      FacilityCharacteristicGroupEffectiveValue: 'string',
    },
  ],
};
V12_SHAPES.PriceIndex = { Id: 'int', Code: 'string', Note: 'string' };
V12_SHAPES.PriceIndexValue = { Id: 'int', IndexValue: 'number', ReferenceDate: 'date', PriceIndex: REF };

const DATE = /^\d{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Checks a response object shown with showNullValues=true: exactly the shape's fields, each null or of its type.
 * Returns the paths of the null values (so a test can say which may be null).
 */
export function checkShape(value: unknown, shape: Shape, path = '$', nulls: string[] = []): string[] {
  if (value === null) {
    nulls.push(path);
    return nulls;
  }
  if (Array.isArray(shape)) {
    assert.ok(Array.isArray(value), `${path}: expected an array, got ${JSON.stringify(value)}`);
    value.forEach((v, i) => checkShape(v, shape[0], `${path}[${i}]`, nulls));
  } else if (typeof shape === 'object') {
    assert.ok(
      value !== null && typeof value === 'object' && !Array.isArray(value),
      `${path}: expected an object, got ${JSON.stringify(value)}`,
    );
    assert.deepEqual(Object.keys(value).sort(), Object.keys(shape).sort(), `${path}: field names`);
    for (const [k, s] of Object.entries(shape))
      checkShape((value as Record<string, unknown>)[k], s, `${path}.${k}`, nulls);
  } else {
    const ok = {
      int: () => Number.isInteger(value),
      number: () => typeof value === 'number',
      string: () => typeof value === 'string',
      boolean: () => typeof value === 'boolean',
      date: () => typeof value === 'string' && DATE.test(value),
      datetime: () => typeof value === 'string' && DATE_TIME.test(value),
    }[shape]();
    assert.ok(ok, `${path}: expected ${shape}, got ${JSON.stringify(value)}`);
  }
  return nulls;
}
