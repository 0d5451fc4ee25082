// Pure row builders (no database access): the defaults of the insert factories, shared with the demo-data generator,
// which resolves parents itself and writes the rows in bulk. `n` numbers the row within its parent.
import type { ContractAgreementKind } from '../../rent-accounting/tables.ts';
import type { New, Overrides } from './core.ts';

type Ledger = { company_code_id: number };
type Unit = { id: number; company_code_id: number; number: string | null };

/** ValidTo of an open-ended contract agreement (the interface always lists ValidTo; license agreements use null). */
export const OPEN_END = '2099-12-31';
/** TurnoverTo of the last, open-ended step of a turnover rent (the interface always lists TurnoverTo). */
export const OPEN_TURNOVER = '999999999.99';

export const buildOwner = (id: number, n: number, o: Overrides<'owners'> & Ledger): New<'owners'> => ({
  id,
  owner_number: `O-${n}`,
  ...o,
});

export function buildEconomicUnit(
  id: number,
  n: number,
  o: Overrides<'economic_units'> & Ledger,
): New<'economic_units'> {
  const number = String(100 + n).padStart(5, '0');
  return { id, number, name: `Estate ${number}`, ...o };
}

export const buildBuilding = (id: number, n: number, eu: Unit, o: Overrides<'buildings'> = {}): New<'buildings'> => ({
  id,
  number: `${eu.number ?? eu.id}.${String(n).padStart(3, '0')}`,
  name: `Building ${n}`,
  ...o,
  economic_unit_id: eu.id,
  company_code_id: eu.company_code_id,
});

export const buildLand = (id: number, n: number, eu: Unit, o: Overrides<'lands'> = {}): New<'lands'> => ({
  id,
  number: `${eu.number ?? eu.id}.${String(900 + n).padStart(3, '0')}`,
  name: `Parcel ${n}`,
  ...o,
  economic_unit_id: eu.id,
  company_code_id: eu.company_code_id,
});

/**
 * A use unit numbered below its building in the vendor's dotted hierarchy (`00101.001.003`), or below `<unit>.000`
 * without one. Buildings are `EEEEE.BBB` (land parcels `EEEEE.9NN`: buildings and land share one number space).
 */
export function buildUseUnit(
  id: number,
  n: number,
  eu: Unit,
  building: { id: number; number: string | null } | null,
  o: Overrides<'use_units'> = {},
): New<'use_units'> {
  const number = `${building?.number ?? `${eu.number ?? eu.id}.000`}.${String(n).padStart(3, '0')}`;
  return {
    id,
    use_unit_number: number,
    name: `Flat ${n}`,
    ...o,
    building_id: building?.id ?? null,
    economic_unit_id: eu.id,
    company_code_id: eu.company_code_id,
  };
}

export const buildBudget = (id: number, n: number, o: Overrides<'budgets'> & Ledger): New<'budgets'> => ({
  id,
  name: `Budget ${n}`,
  ...o,
});

export const buildLoan = (id: number, n: number, o: Overrides<'loans'> & Ledger): New<'loans'> => ({
  id,
  loan_number: `L-${n}`,
  name: `Loan ${n}`,
  ...o,
});

/** A cost centre ('CC'), cost unit ('CU') or cost type ('CT'). */
export const buildCostObject = (
  prefix: 'CC' | 'CU' | 'CT',
  id: number,
  n: number,
  o: Overrides<'cost_centers'> = {},
): New<'cost_centers'> => ({
  id,
  company_code_id: null,
  code: `${prefix}${n}`,
  name: `${{ CC: 'Cost centre', CU: 'Cost unit', CT: 'Cost type' }[prefix]} ${n}`,
  ...o,
});

export const buildPriceIndex = (id: number, n: number, o: Overrides<'price_indices'> = {}): New<'price_indices'> => ({
  id,
  code: `VPI${n}`,
  note: `Consumer price index ${n} (2020 = 100)`,
  ...o,
});

export const buildPriceIndexValue = (
  id: number,
  n: number,
  priceIndexId: number,
  o: Overrides<'price_index_values'> = {},
): New<'price_index_values'> => ({
  id,
  index_value: (100 + n * 1.5).toFixed(1),
  reference_date: `${2019 + n}-01-01`,
  ...o,
  price_index_id: priceIndexId,
});

export const buildLicenseAgreement = (
  id: number,
  n: number,
  useUnit: { id: number; use_unit_number: string; company_code_id: number },
  o: Overrides<'license_agreements'> = {},
): New<'license_agreements'> => ({
  id,
  id_num: `${useUnit.use_unit_number}.${String(n).padStart(2, '0')}`,
  valid_from: '2020-01-01',
  valid_to: null,
  ...o,
  use_unit_id: useUnit.id,
  company_code_id: useUnit.company_code_id,
});

export const buildContractAgreement = (
  id: number,
  kind: ContractAgreementKind,
  license: { id: number; company_code_id: number },
  o: Overrides<'contract_agreements'> = {},
): New<'contract_agreements'> => ({
  id,
  valid_from: '2024-01-01',
  valid_to: '2034-12-31',
  input_date: '2023-12-15',
  first_debit: '2024-01-01',
  ...o,
  kind,
  license_agreement_id: license.id,
  company_code_id: license.company_code_id,
});

export const buildDistributionPeriod = (
  id: number,
  year: number,
  regularId: number,
  o: Overrides<'distribution_periods'> = {},
): New<'distribution_periods'> => ({
  id,
  code: `DP${year}`,
  first_calender_year: year,
  is_bookable: 1,
  is_computable: 1,
  ...o,
  regular_distribution_period_id: regularId,
});
