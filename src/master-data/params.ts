// Query parameters of the master-data endpoints, each defined once as the clients spell it (vendor-master-data.md);
// an endpoint lists the ones it accepts. Date filters accept a date or a date-time (T or space, optional fraction
// and zone) and compare on its calendar date.
import { Type, type TSchema } from '@sinclair/typebox';
import { ApiKeyParam, INT32_MAX, Int32, OneOf, ShowNullValues } from '../http/schemas.ts';

const int = (description: string) => Int32({ description });
// exact matches: no length limit of their own (a stored value of any length can be asked for; the URL is bounded)
const text = (description: string) => Type.String({ minLength: 1, description });
const flag = (description: string) => Type.Boolean({ default: false, description });
/** A date, or a date-time whose time and zone are real ones (hours 00-23, minutes and seconds 00-59). */
const CLIENT_DATE =
  '^\\d{4}-\\d{2}-\\d{2}([T ]([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?(Z|[+-]([01]\\d|2[0-3])(:?[0-5]\\d)?)?)?$';
const day = (description: string) =>
  Type.String({
    pattern: CLIENT_DATE,
    format: 'calendar-day',
    description: `${description} (YYYY-MM-DD, or a date-time with T or a space; compared on its calendar date)`,
    'x-message':
      'The value {value} is not a valid date for {key}: expected YYYY-MM-DD or a date-time such as 2024-05-01T12:00:00Z or 2024-05-01 12:34:56.789012.',
  });

export const PARAMS = {
  licenseAgreementId: int('Only records of the license agreement with this Id'),
  licenseAgreementIdNum: text('Only records of the license agreement with this IdNum (exact match)'),
  licenseAgreementActiveOn: day('Only records of license agreements active on this day'),
  useUnitId: int('Only records of the use unit with this Id'),
  useUnitNumber: text('Only records of the use unit with this number (exact match)'),
  economicUnitId: int('Only records of the economic unit with this Id'),
  economicUnitIdNum: text('Only records of the economic unit with this IdNum (exact match)'),
  buildingId: int('Only use units of the building with this Id'),
  buildingLandId: int('Only records of the building or land parcel with this Id'),
  buildingLandIdNum: text('Only records of the building or land parcel with this IdNum (exact match)'),
  buildingLandType: OneOf(['Building', 'Land'], 'Only buildings (Building) or only land parcels (Land)'),
  managementId: int('Only records of the management with this Id'),
  managementIdNum: text('Only records of the management with this IdNum (exact match)'),
  ownerId: int('Only records of the owner with this Id'),
  ownerNumber: text('Only records of the owner with this number (exact match)'),
  personId: int('Only records of the person with this Id'),
  personIdNum: text('Only records of the person with this IdNum (exact match)'),
  contractualUseActiveOn: day('Only contractors whose contractual use is active on this day'),
  paymentModeActiveOn: day('Only payment modes active on this day'),
  contractPositionsActiveOn: day('Only contract positions active on this day'),
  departmentId: int('Only the department with this Id'),
  departmentName: text('Only departments with this name (exact match)'),
  includeBanking: flag('Fill Banking'),
  includeCompanyCode: flag('Fill CompanyCode'),
  includeUseUnitTypes: flag('Fill UseUnitTypes'),
  includeBillingUnits: flag('Fill BillingUnits'),
  includeAddress: flag('Fill Addresses'),
  includeCommunication: flag('Fill Communications'),
  includeBankaccount: flag('Fill the bank accounts'),
  includeMainAddress: flag('Fill DefaultAddress'),
  includeMainCommunication: flag('Fill the First…Communication objects of the person'),
  includeMainBankaccount: flag('Fill DefaultBankaccount'),
  includePersonAddresses: flag('Fill Person.Addresses'),
  includePersonCommunications: flag('Fill Person.Communications'),
  includePersonBankAccounts: flag('Fill Person.BankAccounts'),
  includeCompanyCodes: flag('Fill CompanyCodes'),
  includeContractPositionTypeDetails: flag('Fill the detail flags of ContractPositionType'),
  loanId: int('Only the loan with this Id'),
  loanIdNum: text('Only the loan with this IdNum (loan number, exact match)'),
  loanTypeId: int('Only loans of the loan type with this Id (LoanType.Id)'),
  companyCodeId: int('Only records of the ledger (company code) with this Id'),
  lenderId: int('Only loans of the lender with this Id (Lender.Id, a person)'),
  lenderNumber: text('Only loans of the lender with this number (Lender.LenderNumber, exact match)'),
  borrowerId: int('Only loans of the borrower with this Id (Borrower.Id, a person)'),
  borrowerNumber: text('Only loans of the borrower with this number (Borrower.BorrowerNumber, exact match)'),
  includeObjectAssignment: flag('Fill ObjectAssignments'),
  includeCondition: flag('Fill Conditions and AnnuityHeader'),
  includeRepaymentPlan: flag('Fill RepaymentPlan'),
  includeAdditionalField: flag(
    'Fill AdditionalFields (Loans; the records of BuildingLands and EconomicUnits have none)',
  ),
  includeMarketingTags: flag('Accepted for clients that send it; the record has no marketing tags'),
};

export type ParamName = keyof typeof PARAMS;
/** The parsed query as readers see it: only the endpoint's own parameters, dates cut to YYYY-MM-DD. */
export type Query = Partial<Record<ParamName, string | number | boolean>>;

const DATE_PARAMS = Object.entries(PARAMS)
  .filter(([, s]) => (s as { pattern?: string }).pattern === CLIENT_DATE)
  .map(([k]) => k);

export type Listing = 'paged' | 'v1.0' | 'catalogue' | 'single';

/** The querystring schema of an endpoint. */
export function querySchema(listing: Listing, names: readonly ParamName[]): TSchema {
  const props: Record<string, TSchema> = {
    apiKey: Type.Optional(ApiKeyParam),
    showNullValues: Type.Optional(
      listing === 'v1.0'
        ? Type.Boolean({
            default: false,
            description: 'Accepted and changes nothing: version 1.0 records carry every key',
          })
        : ShowNullValues,
    ),
  };
  if (listing === 'catalogue') {
    // decisions §7: a catalogue is answered whole and its limit and offset are ignored, whatever their value
    // (`x-ignored`: the validator removes them before it checks the rest, so no value, repeated or not, is refused)
    const ignored = Type.String({
      description: 'Accepted and ignored, whatever its value: a catalogue is answered whole',
      'x-ignored': true,
    });
    props.limit = Type.Optional(ignored);
    props.offset = Type.Optional(ignored);
  }
  if (listing === 'paged' || listing === 'v1.0') {
    const limit = Type.Integer({
      minimum: 1,
      maximum: 100,
      description:
        listing === 'v1.0' ? 'Page size, 1..100. Absent: the complete list' : 'Page size, 1..100 (default 20)',
    });
    props.limit = Type.Optional(listing === 'paged' ? { ...limit, default: 20 } : limit);
    props.offset = Type.Optional(
      Type.Integer({ minimum: 0, maximum: INT32_MAX, default: 0, description: 'Records to skip (default 0)' }),
    );
  }
  for (const name of names) props[name] = Type.Optional(PARAMS[name]);
  return Type.Object(props);
}

/** The endpoint's own parameters; date parameters cut to their calendar date (validated as a real one). */
export function queryOf(names: readonly ParamName[], raw: Record<string, unknown>): Query {
  const out: Query = {};
  for (const name of names) {
    const v = raw[name];
    if (v === undefined) continue;
    out[name] = DATE_PARAMS.includes(name) && typeof v === 'string' ? v.slice(0, 10) : (v as string | number | boolean);
  }
  return out;
}
