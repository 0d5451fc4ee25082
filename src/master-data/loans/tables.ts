// Loans (migration 2026112402_loans, vendor-master-data.md §2.8): the columns added to `loans` and the child tables
// conditions, annuity headers, repayment plan entries and object assignments. Lender and borrower are persons;
// catalogue references (`*_id` marked cat) are catalog_entries ids of the loan kinds (catalog-kinds.ts).
import type { DateText, Decimal, Flag } from '../../db/values.ts';

type Ref = number | null;

/** Columns of `loans` beyond id, ledger, number and name. */
export interface LoanColumns {
  /** cat LoanType */
  loan_type_id: Ref;
  /** cat CollateralSecurity */
  collateral_security_id: Ref;
  /** persons.id */
  lender_id: Ref;
  /** persons.id */
  borrower_id: Ref;
  contract_date: DateText | null;
  date_of_full_payment: DateText | null;
  has_special_repayment_option: Flag | null;
  /** CurrentDate (the day the balances refer to) */
  current_day: DateText | null;
  min_term_from: DateText | null;
  nominal_as_per_land_register: Decimal | null;
  nominal_capital: Decimal | null;
  residual_debt: Decimal | null;
  calculation_capital: Decimal | null;
  annuity_mix: Decimal | null;
  debt_discount_percent: Decimal | null;
  building_saving_sum: Decimal | null;
  file_number: string | null;
  contingent_number: string | null;
  own_reference: string | null;
  repayment_blackout_period: DateText | null;
  end_of_interest_fixing: DateText | null;
  last_ended_interest_entry: DateText | null;
  use_virtual_iban: Flag | null;
  virtual_iban: string | null;
  former_virtual_iban: string | null;
  collective_no_real_bank_account: Flag | null;
  collective_iban: string | null;
  collective_bic: string | null;
  collective_account_holder: string | null;
  /** person_bank_accounts.id (checked by the importer: accounts are replaced with their person) */
  bank_account_id: Ref;
  /** cat SubsidiesLoan */
  subsidies_loan_id: Ref;
  /** cat CancellationPossibility */
  cancellation_possibility_id: Ref;
  /** The loan this one follows; FollowerLoan is read back from it (each fact once). */
  precursor_loan_id: Ref;
}

export interface LoanConditionsTable {
  id: number;
  loan_id: number;
  term_from: DateText | null;
  term_to: DateText | null;
  amount: Decimal | null;
  percentage: Decimal | null;
  first_maturity: DateText | null;
  next_maturity: DateText | null;
  fixed_maturity: DateText | null;
  amortization_setting_off: DateText | null;
  loan_terms_type_id: Ref;
  maturity_date_type_id: Ref;
  period_of_performance_from_id: Ref;
  period_of_performance_to_id: Ref;
  rounding_type_id: Ref;
  loan_base_id: Ref;
  change_reason_cost_item_id: Ref;
  maturity_period_id: Ref;
}

export interface LoanAnnuityHeadersTable {
  id: number;
  loan_id: number;
  annuity_per_maturity: Decimal | null;
  term_from: DateText | null;
  term_to: DateText | null;
}

export interface LoanRepaymentPlanEntriesTable {
  id: number;
  loan_id: number;
  maturity: DateText | null;
  rest_debt: Decimal | null;
  calculation_capital: Decimal | null;
  annuity_amount: Decimal | null;
  amortization: Decimal | null;
  interest: Decimal | null;
  administrative_cost: Decimal | null;
  guarantee_fee: Decimal | null;
  non_standard_amortization: Decimal | null;
  validation: Decimal | null;
  is_past_period: Flag | null;
  payment_amount: Decimal | null;
  residual_debt_next_period: Decimal | null;
}

export interface LoanObjectAssignmentsTable {
  id: number;
  loan_id: number;
  economic_unit_id: number;
  nominal_amount: Decimal | null;
  /** cat ObjectAllocationType */
  object_allocation_type_id: Ref;
}

export interface LoanTables {
  loan_conditions: LoanConditionsTable;
  loan_annuity_headers: LoanAnnuityHeadersTable;
  loan_repayment_plan_entries: LoanRepaymentPlanEntriesTable;
  loan_object_assignments: LoanObjectAssignmentsTable;
}
