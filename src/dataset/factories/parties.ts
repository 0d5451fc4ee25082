// Pure row builders of persons and their child rows, contractors, payment modes and contract positions (no database
// access), shared by the demo-data generator and the tests. Catalogue arguments are catalog_entries row ids.
import type { New } from './core.ts';

type Overrides<T extends keyof NewRows> = Partial<NewRows[T]>;
interface NewRows {
  persons: New<'persons'>;
  person_addresses: New<'person_addresses'>;
  person_communications: New<'person_communications'>;
  person_bank_accounts: New<'person_bank_accounts'>;
  contractors: New<'contractors'>;
  payment_modes: New<'payment_modes'>;
  contract_positions: New<'contract_positions'>;
}

/** The person number of the n-th person (`P000123`). */
export const personNumber = (n: number) => `P${String(n).padStart(6, '0')}`;

export interface NaturalName {
  firstName: string;
  lastName: string;
  genderId: number;
}

export const buildNaturalPerson = (
  id: number,
  n: number,
  name: NaturalName,
  o: Overrides<'persons'> = {},
): New<'persons'> => ({
  id,
  id_num: personNumber(n),
  name: `${name.lastName}, ${name.firstName}`,
  short_name: `${name.lastName.toUpperCase().slice(0, 8)}${n}`,
  is_natural_person: 1,
  valid_from: '2000-01-01',
  first_name: name.firstName,
  last_name: name.lastName,
  gender_id: name.genderId,
  ...o,
});

export const buildLegalPerson = (
  id: number,
  n: number,
  companyName: string,
  o: Overrides<'persons'> = {},
): New<'persons'> => ({
  id,
  id_num: personNumber(n),
  name: companyName,
  short_name: companyName.replace(/[^A-ZÄÖÜ]/g, '').slice(0, 10) || `FIRMA${n}`,
  is_natural_person: 0,
  valid_from: '2000-01-01',
  long_name1: companyName,
  ...o,
});

export const buildAddress = (
  id: number,
  personId: number,
  o: Overrides<'person_addresses'> = {},
): New<'person_addresses'> => ({
  id,
  person_id: personId,
  zip: '10115',
  town: 'Berlin',
  street: 'Hauptstraße',
  house_number: '1',
  valid_from: '2000-01-01',
  main_address: 1,
  ...o,
});

export const buildCommunication = (
  id: number,
  personId: number,
  o: Overrides<'person_communications'> = {},
): New<'person_communications'> => ({ id, person_id: personId, content: `+49 30 ${1000000 + id}`, ...o });

/** A German IBAN with a correct check number (ISO 13616: mod 97) for bank code and account number. */
export function germanIban(bankCode: string, account: number): string {
  const bban = `${bankCode}${String(account).padStart(10, '0')}`;
  const check = 98n - (BigInt(`${bban}131400`) % 97n);
  return `DE${String(check).padStart(2, '0')}${bban}`;
}

export const buildBankAccount = (
  id: number,
  personId: number,
  o: Overrides<'person_bank_accounts'> = {},
): New<'person_bank_accounts'> => ({
  id,
  person_id: personId,
  iban: germanIban('10050000', id),
  bic: 'BELADEBEXXX',
  valid_from: '2010-01-01',
  ...o,
});

type Agreement = { id: number; company_code_id: number; valid_from: string; valid_to?: string | null };

export const buildContractor = (
  id: number,
  agreement: Agreement,
  personId: number,
  o: Overrides<'contractors'> = {},
): New<'contractors'> => ({
  id,
  person_id: personId,
  contractual_use_valid_from: agreement.valid_from,
  contractual_use_valid_to: agreement.valid_to ?? null,
  ...o,
  license_agreement_id: agreement.id,
  company_code_id: agreement.company_code_id,
});

export const buildPaymentMode = (
  id: number,
  agreement: Agreement,
  o: Overrides<'payment_modes'> = {},
): New<'payment_modes'> => ({
  id,
  active_from: agreement.valid_from,
  active_to: agreement.valid_to ?? null,
  ...o,
  license_agreement_id: agreement.id,
  company_code_id: agreement.company_code_id,
});

/** A contract position; `Amount` is the net amount plus VAT at `vatPercent`. */
export function buildContractPosition(
  id: number,
  agreement: Agreement,
  netAmount: string,
  vatPercent: number,
  o: Overrides<'contract_positions'> = {},
): New<'contract_positions'> {
  const cents = Math.round(Number(netAmount) * 100);
  const gross = Math.round((cents * (100 + vatPercent)) / 100);
  return {
    id,
    net_amount: netAmount,
    amount: `${Math.floor(gross / 100)}.${String(gross % 100).padStart(2, '0')}`,
    active_from: agreement.valid_from,
    active_to: agreement.valid_to ?? null,
    ...o,
    license_agreement_id: agreement.id,
    company_code_id: agreement.company_code_id,
  };
}
