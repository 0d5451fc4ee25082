// The import/export format of loans (migration 2026112402_loans, docs/master-data.md): the fields of a loan beyond
// Id, CompanyCodeId, LoanNumber and Name, and its child arrays conditions, annuity headers, repayment plan entries and
// object assignments. collections.ts places them in the Loans collection.
import { bool, date, dec, entry, refTo, str, type ChildSpec, type Field } from './fields.ts';
import { child } from './master-collections.ts';

export const LOAN_FIELDS = (): Field[] => [
  entry('LoanTypeId', 'LoanType'),
  entry('CollateralSecurityId', 'CollateralSecurity'),
  refTo('LenderId', 'persons'),
  refTo('BorrowerId', 'persons'),
  date('ContractDate'),
  date('DateOfFullPayment'),
  bool('HasSpecialRepaymentOption', { nullable: true }),
  date('CurrentDate', { col: 'current_day' }),
  date('MinTermFrom'),
  ...['NominalAsPerLandRegister', 'NominalCapital', 'ResidualDebt', 'CalculationCapital', 'AnnuityMix'].map((w) =>
    dec(w),
  ),
  dec('DebtDiscountPercent'),
  dec('BuildingSavingSum'),
  str('FileNumber'),
  str('ContingentNumber'),
  str('OwnReference'),
  date('RepaymentBlackoutPeriod'),
  date('EndOfInterestFixing'),
  date('LastEndedInterestEntry'),
  bool('UseVirtualIban', { nullable: true }),
  str('VirtualIban'),
  str('FormerVirtualIban'),
  bool('CollectiveNoRealBankAccount', { nullable: true }),
  str('CollectiveIban'),
  str('CollectiveBic'),
  str('CollectiveAccountHolder'),
  refTo('BankAccountId', 'person_bank_accounts'),
  entry('SubsidiesLoanId', 'SubsidiesLoan'),
  entry('CancellationPossibilityId', 'CancellationPossibility'),
  refTo('PrecursorLoanId', 'loans', { sameLedger: true }),
];

export const LOAN_CHILDREN = (): ChildSpec[] => [
  child('Conditions', 'loan_conditions', 'loan_id', [
    date('TermFrom'),
    date('TermTo'),
    dec('Amount'),
    dec('Percentage'),
    date('FirstMaturity'),
    date('NextMaturity'),
    date('FixedMaturity'),
    date('AmortizationSettingOff'),
    entry('LoanTermsTypeId', 'LoanTermsType'),
    entry('MaturityDateTypeId', 'MaturityDateType'),
    entry('PeriodOfPerformanceFromId', 'PeriodOfPerformance'),
    entry('PeriodOfPerformanceToId', 'PeriodOfPerformance'),
    entry('RoundingTypeId', 'RoundingType'),
    entry('LoanBaseId', 'LoanBase'),
    entry('ChangeReasonCostItemId', 'ChangeReasonCostItem'),
    entry('MaturityPeriodId', 'MaturityPeriod'),
  ]),
  child('AnnuityHeaders', 'loan_annuity_headers', 'loan_id', [
    dec('AnnuityPerMaturity'),
    date('TermFrom'),
    date('TermTo'),
  ]),
  child('RepaymentPlan', 'loan_repayment_plan_entries', 'loan_id', [
    date('Maturity'),
    ...['RestDebt', 'CalculationCapital', 'AnnuityAmount', 'Amortization', 'Interest'].map((w) => dec(w)),
    ...['AdministrativeCost', 'GuaranteeFee', 'NonStandardAmortization', 'Validation'].map((w) => dec(w)),
    bool('IsPastPeriod', { nullable: true }),
    dec('PaymentAmount'),
    dec('ResidualDebtNextPeriod'),
  ]),
  child('ObjectAssignments', 'loan_object_assignments', 'loan_id', [
    refTo('EconomicUnitId', 'economic_units', { required: true, sameLedger: true }),
    dec('NominalAmount'),
    entry('ObjectAllocationTypeId', 'ObjectAllocationType'),
  ]),
];
