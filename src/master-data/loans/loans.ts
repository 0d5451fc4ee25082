// Loans/Loan (v1.2) with its include flags, and Loans/Loan/{loanId}/RepaymentPlan and OnlineRepaymentPlan: loans
// ledger-scoped by their ledger; lender and borrower are persons (Id = the person's Id, number = its IdNum). One
// query for the page, one per included child kind, one for the catalogue entries. Every key is kept (WowiPy needs
// every key of these records, vendor-master-data.md §2.8).
import { sql, type SqlBool } from 'kysely';
import { ledgerCondition } from '../../auth/ledger-scope.ts';
import { PERMISSIONS } from '../../auth/permissions.ts';
import { groupBy } from '../../db/group.ts';
import { dec } from '../../http/present.ts';
import { windowed } from '../../rent-accounting/contracts.ts';
import type { Item, MasterRoute, ReadContext } from '../engine.ts';
import type { ParamName } from '../params.ts';
import { companyCode, Entries, flag, idsOf } from '../present.ts';
import type { LoanConditionsTable, LoanRepaymentPlanEntriesTable } from './tables.ts';
import { Loan, OnlineRepaymentPlanEntry, RepaymentPlanEntry } from './shapes.ts';

const LOAN_CATALOGUES = ['loan_type_id', 'collateral_security_id', 'subsidies_loan_id'] as const;
const CONDITION_CATALOGUES = [
  ...['loan_terms_type_id', 'maturity_date_type_id', 'period_of_performance_from_id'],
  ...['period_of_performance_to_id', 'rounding_type_id', 'loan_base_id', 'change_reason_cost_item_id'],
  'maturity_period_id',
] as const;

/** `column in (catalogue entries of kind with vendor id)`: filters by the Id clients see. */
const ofKind = (column: string, kind: string, kindId: number) =>
  sql<SqlBool>`${sql.ref(column)} in (select id from catalog_entries where kind = ${kind} and kind_id = ${kindId})`;
const personNumbered = (column: string, idNum: string) =>
  sql<SqlBool>`${sql.ref(column)} in (select id from persons where id_num = ${idNum})`;

async function loanRows(ctx: ReadContext) {
  const { q } = ctx;
  let qb = ctx.db
    .selectFrom('loans as l')
    .innerJoin('company_codes as cc', 'cc.id', 'l.company_code_id')
    .leftJoin('persons as lp', 'lp.id', 'l.lender_id')
    .leftJoin('persons as bp', 'bp.id', 'l.borrower_id')
    .leftJoin('person_bank_accounts as ba', 'ba.id', 'l.bank_account_id')
    .leftJoin('loans as pl', 'pl.id', 'l.precursor_loan_id')
    .selectAll('l')
    .select(['cc.name as company_code_name', 'cc.code as company_code_code'])
    .select(['lp.id_num as lender_number', 'lp.name as lender_name', 'bp.id_num as borrower_number'])
    .select(['bp.name as borrower_name', 'ba.iban as account_iban', 'ba.bic as account_bic'])
    .select(['pl.loan_number as precursor_number'])
    .select((eb) => [
      eb
        .selectFrom('loans as fl')
        .select('fl.id')
        .whereRef('fl.precursor_loan_id', '=', 'l.id')
        .orderBy('fl.id')
        .limit(1)
        .as('follower_id'),
      eb
        .selectFrom('loans as fl')
        .select('fl.loan_number')
        .whereRef('fl.precursor_loan_id', '=', 'l.id')
        .orderBy('fl.id')
        .limit(1)
        .as('follower_number'),
    ])
    .where((eb) => ledgerCondition(eb.ref('l.company_code_id'), ctx.scope));
  if (q.loanId !== undefined) qb = qb.where('l.id', '=', Number(q.loanId));
  if (q.loanIdNum !== undefined) qb = qb.where('l.loan_number', '=', String(q.loanIdNum));
  if (q.loanTypeId !== undefined) qb = qb.where(ofKind('l.loan_type_id', 'LoanType', Number(q.loanTypeId)));
  if (q.companyCodeId !== undefined) qb = qb.where('l.company_code_id', '=', Number(q.companyCodeId));
  if (q.lenderId !== undefined) qb = qb.where('l.lender_id', '=', Number(q.lenderId));
  if (q.lenderNumber !== undefined) qb = qb.where(personNumbered('l.lender_id', String(q.lenderNumber)));
  if (q.borrowerId !== undefined) qb = qb.where('l.borrower_id', '=', Number(q.borrowerId));
  if (q.borrowerNumber !== undefined) qb = qb.where(personNumbered('l.borrower_id', String(q.borrowerNumber)));
  return windowed(qb, 'l.id', ctx.window).execute();
}

/** The child rows of the page's loans that the include flags ask for (empty lists otherwise). */
async function children(ctx: ReadContext, ids: number[]) {
  const { q, db } = ctx;
  const none = ids.length === 0;
  const conditions =
    none || q.includeCondition !== true
      ? []
      : await db.selectFrom('loan_conditions').selectAll().where('loan_id', 'in', ids).orderBy('id').execute();
  const headers =
    none || q.includeCondition !== true
      ? []
      : await db.selectFrom('loan_annuity_headers').selectAll().where('loan_id', 'in', ids).orderBy('id').execute();
  const plan =
    none || q.includeRepaymentPlan !== true
      ? []
      : await db
          .selectFrom('loan_repayment_plan_entries')
          .selectAll()
          .where('loan_id', 'in', ids)
          .orderBy('id')
          .execute();
  const assignments =
    none || q.includeObjectAssignment !== true
      ? []
      : await db
          .selectFrom('loan_object_assignments as a')
          .innerJoin('economic_units as eu', 'eu.id', 'a.economic_unit_id')
          .selectAll('a')
          .select(['eu.number', 'eu.name', 'eu.location'])
          .where('a.loan_id', 'in', ids)
          .orderBy('a.id')
          .execute();
  return {
    conditions: groupBy(conditions, 'loan_id'),
    headers: groupBy(headers, 'loan_id'),
    plan: groupBy(plan, 'loan_id'),
    assignments: groupBy(assignments, 'loan_id'),
    catalogue: [...idsOf(conditions, CONDITION_CATALOGUES), ...idsOf(assignments, ['object_allocation_type_id'])],
  };
}

function condition(c: LoanConditionsTable, e: Entries): Item {
  return {
    ...{ Id: c.id, TermFrom: c.term_from, TermTo: c.term_to, Amount: dec(c.amount), Percentage: dec(c.percentage) },
    ...{ FirstMaturity: c.first_maturity, NextMaturity: c.next_maturity, FixedMaturity: c.fixed_maturity },
    AmortizationSettingOff: c.amortization_setting_off,
    LoanTermsType: e.idCode(c.loan_terms_type_id),
    MaturityDateType: e.idCode(c.maturity_date_type_id),
    PeriodOfPerformanceFrom: e.idCode(c.period_of_performance_from_id),
    PeriodOfPerformanceTo: e.idCode(c.period_of_performance_to_id),
    RoundingType: e.idCode(c.rounding_type_id),
    LoanBase: e.idCode(c.loan_base_id),
    ChangeReasonCostItem: e.idCode(c.change_reason_cost_item_id),
    MaturityPeriod: e.idCode(c.maturity_period_id),
  };
}

export const repaymentPlanEntry = (p: LoanRepaymentPlanEntriesTable): Item => ({
  ...{ Id: p.id, Maturity: p.maturity, RestDebt: dec(p.rest_debt), CalculationCapital: dec(p.calculation_capital) },
  ...{ AnnuityAmount: dec(p.annuity_amount), Amortization: dec(p.amortization), Interest: dec(p.interest) },
  ...{ AdministrativeCost: dec(p.administrative_cost), GuaranteeFee: dec(p.guarantee_fee) },
  ...{ NonStandardAmortization: dec(p.non_standard_amortization), Validation: dec(p.validation) },
  ...{ IsPastPeriod: flag(p.is_past_period) ?? false, PaymentAmount: dec(p.payment_amount) },
  ResidualDebtNextPeriod: dec(p.residual_debt_next_period),
});

/** An annuity header's conditions: the loan's conditions that start within the header's term. */
const within = (c: LoanConditionsTable, from: string | null, to: string | null) =>
  c.term_from !== null && (from === null || c.term_from >= from) && (to === null || c.term_from <= to);

type LoanRow = Awaited<ReturnType<typeof loanRows>>[number];

function present(
  r: LoanRow,
  e: Entries,
  k: Awaited<ReturnType<typeof children>>,
  q: ReadContext['q'],
  names: boolean,
): Item {
  const conditions = k.conditions.get(r.id) ?? [];
  const type = e.get(r.loan_type_id);
  return {
    ...{ Id: r.id, IdNum: r.loan_number },
    CompanyCode: companyCode(r.company_code_id, r.company_code_name, r.company_code_code),
    // A person's name is person data: shown only to callers who may read persons (decisions §7), else null
    Borrower:
      r.borrower_id === null
        ? null
        : { Id: r.borrower_id, BorrowerNumber: r.borrower_number, Name: names ? r.borrower_name : null },
    Lender:
      r.lender_id === null
        ? null
        : { Id: r.lender_id, LenderNumber: r.lender_number, Name: names ? r.lender_name : null },
    LoanType: type ? { Id: type.kind_id, Code: type.code, ShortCode: type.short_code } : null,
    CollateralSecurity: e.idCode(r.collateral_security_id),
    ...{ ContractDate: r.contract_date, DateOfFullPayment: r.date_of_full_payment },
    HasSpecialRepaymentOption: flag(r.has_special_repayment_option) ?? false,
    ...{ CurrentDate: r.current_day, MinTermFrom: r.min_term_from },
    NominalAsPerLandRegister: dec(r.nominal_as_per_land_register),
    ...{ NominalCapital: dec(r.nominal_capital), ResidualDebt: dec(r.residual_debt) },
    ...{ CalculationCapital: dec(r.calculation_capital), AnnuityMix: dec(r.annuity_mix) },
    ...{ DebtDiscountPercent: dec(r.debt_discount_percent), BuildingSavingSum: dec(r.building_saving_sum) },
    ...{ FileNumber: r.file_number, ContingentNumber: r.contingent_number, OwnReference: r.own_reference },
    ...{ RepaymentBlackoutPeriod: r.repayment_blackout_period, EndOfInterestFixing: r.end_of_interest_fixing },
    LastEndedInterestEntry: r.last_ended_interest_entry,
    Banking:
      q.includeBanking === true
        ? {
            Id: r.id,
            UseVirtualIban: flag(r.use_virtual_iban) ?? false,
            ...{ VirtualIban: r.virtual_iban, FormerVirtualIban: r.former_virtual_iban },
            CollectiveAccount:
              r.collective_iban === null
                ? null
                : {
                    NoRealBankAccount: flag(r.collective_no_real_bank_account) ?? false,
                    ...{ Iban: r.collective_iban, Bic: r.collective_bic, AccountHolder: r.collective_account_holder },
                  },
          }
        : null,
    BankAccount:
      r.bank_account_id === null ? null : { Id: r.bank_account_id, Iban: r.account_iban, Bic: r.account_bic },
    SubsidiesLoan: e.idCode(r.subsidies_loan_id),
    CancellationPossibility: e.idCode(r.cancellation_possibility_id),
    FollowerLoan: r.follower_id === null ? null : { Id: r.follower_id, IdNum: r.follower_number },
    PrecursorLoan: r.precursor_loan_id === null ? null : { Id: r.precursor_loan_id, IdNum: r.precursor_number },
    Conditions: q.includeCondition === true ? conditions.map((c) => condition(c, e)) : null,
    AnnuityHeader:
      q.includeCondition === true
        ? (k.headers.get(r.id) ?? []).map((h) => ({
            ...{ Id: h.id, AnnuityPerMaturity: dec(h.annuity_per_maturity), TermFrom: h.term_from },
            TermTo: h.term_to,
            Conditions: conditions.filter((c) => within(c, h.term_from, h.term_to)).map((c) => condition(c, e)),
          }))
        : null,
    ObjectAssignments:
      q.includeObjectAssignment === true
        ? (k.assignments.get(r.id) ?? []).map((a) => ({
            ...{ Id: a.id, NominalAmount: dec(a.nominal_amount) },
            EconomicUnit: { Id: a.economic_unit_id, IdNum: a.number, Name: a.name, Location: a.location },
            ObjectAllocationType: e.idCode(a.object_allocation_type_id),
          }))
        : null,
    RepaymentPlan: q.includeRepaymentPlan === true ? (k.plan.get(r.id) ?? []).map(repaymentPlanEntry) : null,
    // The vendor's additional fields have no known shape (spec §5.6); we hold none.
    AdditionalFields: q.includeAdditionalField === true ? [] : null,
  };
}

const FILTERS: ParamName[] = [
  ...['loanId', 'loanIdNum', 'loanTypeId', 'companyCodeId', 'lenderId', 'lenderNumber'],
  ...['borrowerId', 'borrowerNumber', 'includeBanking', 'includeObjectAssignment', 'includeCondition'],
  ...['includeRepaymentPlan', 'includeAdditionalField'],
] as ParamName[];

export const loansV12: MasterRoute = {
  url: '/v1.2/Loans/Loan',
  tag: 'Loans',
  summary: 'Loans of the ledgers, with conditions, annuity headers, object assignments and repayment plan',
  permissions: [PERMISSIONS.loansRead],
  params: FILTERS,
  listing: 'paged',
  shape: Loan,
  keep: 'all',
  async read(ctx) {
    const rows = await loanRows(ctx);
    const k = await children(
      ctx,
      rows.map((r) => r.id),
    );
    const e = await Entries.load(ctx.db, [
      ...idsOf(rows, [...LOAN_CATALOGUES, 'cancellation_possibility_id']),
      ...k.catalogue,
    ]);
    const names = ctx.permissions.has(PERMISSIONS.personsRead);
    return rows.map((r) => present(r, e, k, ctx.q, names));
  },
};

/** The plan entries of one visible loan, ordered by Id (none for an unknown or invisible loan: the route's 404). */
function planRows(ctx: ReadContext, futureOnly = false) {
  let qb = ctx.db
    .selectFrom('loan_repayment_plan_entries as p')
    .innerJoin('loans as l', 'l.id', 'p.loan_id')
    .selectAll('p')
    .select(['l.current_day', 'l.residual_debt as loan_residual_debt', 'l.nominal_capital'])
    .where('p.loan_id', '=', ctx.id ?? 0)
    .where((eb) => ledgerCondition(eb.ref('l.company_code_id'), ctx.scope));
  if (futureOnly) qb = qb.where(sql<SqlBool>`coalesce(p.is_past_period, 0) = 0`);
  return windowed(qb, 'p.id', ctx.window).execute();
}

const plan = {
  tag: 'Loans',
  permissions: [PERMISSIONS.loansRead],
  params: [],
  listing: 'paged' as const,
  keep: 'all' as const,
  pathId: 'loanId',
  /** The loan exists within the caller's ledgers (an unknown or invisible loan is a 404). */
  async parentVisible(ctx: ReadContext) {
    const row = await ctx.db
      .selectFrom('loans as l')
      .select('l.id')
      .where('l.id', '=', ctx.id ?? 0)
      .where((eb) => ledgerCondition(eb.ref('l.company_code_id'), ctx.scope))
      .executeTakeFirst();
    return row !== undefined;
  },
};

export const repaymentPlanV12: MasterRoute = {
  ...plan,
  url: '/v1.2/Loans/Loan/:loanId/RepaymentPlan',
  summary: "The repayment plan of one loan (404 for an unknown loan or one outside the caller's ledgers)",
  shape: RepaymentPlanEntry,
  async read(ctx) {
    return (await planRows(ctx)).map(repaymentPlanEntry);
  },
};

/** The plan as of the loan's CurrentDate: the periods not yet past, with the loan's balances. */
export const onlineRepaymentPlanV12: MasterRoute = {
  ...plan,
  url: '/v1.2/Loans/Loan/:loanId/OnlineRepaymentPlan',
  summary:
    "The repayment plan of one loan from its current date on (404 for an unknown loan or one outside the caller's ledgers)",
  shape: OnlineRepaymentPlanEntry,
  async read(ctx) {
    return (await planRows(ctx, true)).map((p) => ({
      ...{ CalculationDate: p.current_day, Maturity: p.maturity, RestDebt: dec(p.rest_debt) },
      ...{ CalculationCapital: dec(p.calculation_capital), Interest: dec(p.interest) },
      ...{ Amortization: dec(p.amortization), AdministrativeCost: dec(p.administrative_cost) },
      ...{ GuaranteeFee: dec(p.guarantee_fee), PaymentAmount: dec(p.payment_amount) },
      ...{ CurrentResidualDebt: dec(p.loan_residual_debt), Validation: dec(p.validation) },
      ...{ NonStandardAmortization: dec(p.non_standard_amortization), NominalOrigin: dec(p.nominal_capital) },
      ...{ ResidualDebtNextPeriod: dec(p.residual_debt_next_period), AnnuityByDueDate: dec(p.annuity_amount) },
    }));
  },
};
