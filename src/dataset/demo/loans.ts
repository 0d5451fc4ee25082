// Loans of the demo (Loans/Loan, docs/master-data.md): per economic unit an annuity loan of a bank of the ledger,
// borrowed by the unit's owner, secured on the unit, with its interest and amortization conditions, one annuity
// header, a quarterly repayment plan around the demo's current date (2026-01-01) and the object assignment; every
// fourth unit's loan follows an older loan (precursor) whose fixed interest period ended. All values derive from the
// loan's number (no random stream), so the other demo tables keep their values. Amounts are computed in cents.
import { germanIban } from '../factories/parties.ts';
import type { Sink } from './catalog.ts';
import type { MasterContext } from './estate.ts';
import { nth } from './random.ts';

export const LOAN_CURRENT_DAY = '2026-01-01';
const QUARTER_ENDS = ['03-31', '06-30', '09-30', '12-31'];

export interface LoanTarget {
  company_code_id: number;
  economicUnit: { id: number; number: string };
  /** Person ids of the ledger's banks and of the unit's owner. */
  lenders: number[];
  borrower: number;
  name: string;
}

const money = (cents: number) => (cents / 100).toFixed(2);

/** The annuity loan and its rows; returns the loan's id. */
function addLoan(
  sink: Sink,
  c: MasterContext,
  t: LoanTarget,
  o: { n: number; suffix: string; year: number; precursor?: number; repaid?: boolean },
): number {
  const g = c.m.byKindId;
  const { n } = o;
  const id = sink.nextId();
  const nominal = (200 + ((n * 37) % 1300)) * 1000_00;
  const rate = 1.2 + ((n * 37) % 330) / 100; // percent per year
  const amortization = 2;
  const annuity = Math.round((nominal * (rate + amortization)) / 400); // per quarter
  const fixedYears = o.repaid ? 10 : 15;
  const start = `${o.year}-${QUARTER_ENDS[n % 4]}`;
  const fixing = `${o.year + fixedYears}-12-31`;
  const kfw = n % 5 === 0;
  const number = `${t.economicUnit.number}.${o.suffix}`;
  // the debt at each quarter end from the start on, until the demo's current date plus a year
  let debt = nominal;
  const plan: { maturity: string; rest: number; interest: number; amortization: number }[] = [];
  for (let year = o.year, q = n % 4; !o.repaid && year <= 2026; q = (q + 1) % 4, year += q === 0 ? 1 : 0) {
    const interest = Math.round((debt * rate) / 400);
    const paid = Math.min(debt, annuity - interest);
    if (year >= 2025)
      plan.push({ maturity: `${year}-${nth(QUARTER_ENDS, q)}`, rest: debt, interest, amortization: paid });
    debt -= paid;
  }
  const current = plan.find((p) => p.maturity >= LOAN_CURRENT_DAY)?.rest ?? (o.repaid ? 0 : debt);
  const past = plan.filter((p) => p.maturity < LOAN_CURRENT_DAY);
  sink.add('loans', {
    id,
    company_code_id: t.company_code_id,
    loan_number: number,
    name: t.name,
    loan_type_id: g('LoanType', kfw ? 3 : 1),
    collateral_security_id: g('CollateralSecurity', o.precursor ? 2 : 1),
    lender_id: nth(t.lenders, n % t.lenders.length),
    borrower_id: t.borrower,
    contract_date: `${o.year}-0${1 + (n % 3)}-15`,
    date_of_full_payment: o.repaid ? fixing : `${o.year + Math.round(50 / (amortization + rate / 2))}-12-31`,
    has_special_repayment_option: n % 3 === 0 ? 1 : 0,
    current_day: LOAN_CURRENT_DAY,
    min_term_from: start,
    nominal_as_per_land_register: money(Math.ceil(nominal / 5000_00) * 5000_00),
    nominal_capital: money(nominal),
    residual_debt: money(current),
    calculation_capital: money(nominal),
    annuity_mix: (rate + amortization).toFixed(2),
    debt_discount_percent: kfw ? '0.00' : '2.50',
    building_saving_sum: '0.00',
    file_number: `AZ ${o.year}/${String(n).padStart(4, '0')}`,
    contingent_number: kfw ? `KfW-${151 + (n % 3)}-${String(n).padStart(5, '0')}` : `K-${o.year}-${n}`,
    own_reference: `WE ${t.economicUnit.number}`,
    repayment_blackout_period: `${o.year + 1}-12-31`,
    end_of_interest_fixing: fixing,
    last_ended_interest_entry: past.at(-1)?.maturity ?? fixing,
    use_virtual_iban: n % 2,
    virtual_iban: germanIban('10050000', 900_000_000 + id),
    former_virtual_iban: o.precursor ? germanIban('10050000', 800_000_000 + id) : null,
    collective_no_real_bank_account: 0,
    collective_iban: germanIban('10050000', 700_000_000 + t.company_code_id),
    collective_bic: 'BELADEBEXXX',
    collective_account_holder: 'Sammelkonto Darlehen',
    bank_account_id: c.people.bankAccountOf(t.borrower),
    subsidies_loan_id: g('SubsidiesLoan', kfw ? 2 : 1),
    cancellation_possibility_id: g('CancellationPossibility', fixedYears > 10 ? 1 : 2),
    precursor_loan_id: o.precursor ?? null,
  });
  const condition = (type: number, percentage: number) => ({
    id: sink.nextId(),
    loan_id: id,
    term_from: start,
    term_to: fixing,
    amount: money(type === 1 ? Math.round((nominal * percentage) / 400) : annuity - Math.round((nominal * rate) / 400)),
    percentage: percentage.toFixed(2),
    first_maturity: start,
    next_maturity: plan.find((p) => p.maturity >= LOAN_CURRENT_DAY)?.maturity ?? fixing,
    fixed_maturity: fixing,
    amortization_setting_off: type === 2 ? `${o.year + 1}-${QUARTER_ENDS[n % 4]}` : start,
    loan_terms_type_id: g('LoanTermsType', type),
    maturity_date_type_id: g('MaturityDateType', 2),
    period_of_performance_from_id: g('PeriodOfPerformance', 1),
    period_of_performance_to_id: g('PeriodOfPerformance', 2),
    rounding_type_id: g('RoundingType', 1),
    loan_base_id: g('LoanBase', type === 1 ? 2 : 1),
    change_reason_cost_item_id: g('ChangeReasonCostItem', o.precursor ? 2 : 1),
    maturity_period_id: g('MaturityPeriod', 2),
  });
  sink.add('loan_conditions', condition(1, rate));
  sink.add('loan_conditions', condition(2, amortization));
  sink.add('loan_annuity_headers', {
    id: sink.nextId(),
    loan_id: id,
    annuity_per_maturity: money(annuity),
    term_from: start,
    term_to: fixing,
  });
  for (const p of plan)
    sink.add('loan_repayment_plan_entries', {
      id: sink.nextId(),
      loan_id: id,
      maturity: p.maturity,
      rest_debt: money(p.rest),
      calculation_capital: money(nominal),
      annuity_amount: money(annuity),
      amortization: money(p.amortization),
      interest: money(p.interest),
      administrative_cost: '0.00',
      guarantee_fee: kfw ? money(Math.round(p.rest / 1000)) : '0.00',
      non_standard_amortization: '0.00',
      validation: money(p.interest + p.amortization),
      is_past_period: p.maturity < LOAN_CURRENT_DAY ? 1 : 0,
      payment_amount: money(p.interest + p.amortization + (kfw ? Math.round(p.rest / 1000) : 0)),
      residual_debt_next_period: money(p.rest - p.amortization),
    });
  sink.add('loan_object_assignments', {
    id: sink.nextId(),
    loan_id: id,
    economic_unit_id: t.economicUnit.id,
    nominal_amount: money(nominal),
    object_allocation_type_id: g('ObjectAllocationType', 1),
  });
  return id;
}

/** The loans of one economic unit (`n`: the ledger-wide loan counter); returns the current loan's id. */
export function generateLoans(sink: Sink, c: MasterContext, t: LoanTarget, n: { loan: number }): number {
  const first = ++n.loan;
  const year = 2008 + (first % 12);
  if (first % 4 !== 0) return addLoan(sink, c, t, { n: first, suffix: '01', year });
  const precursor = addLoan(sink, c, t, { n: first, suffix: '01', year: year - 12, repaid: true });
  return addLoan(sink, c, t, { n: ++n.loan, suffix: '02', year: year - 2, precursor });
}
