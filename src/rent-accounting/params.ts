// Query parameters of the rent-accounting endpoints: paging per version and the filters (decisions §3), each
// defined once with its OpenAPI description; an endpoint lists the filters it accepts.
import { Type, type TSchema } from '@sinclair/typebox';
import { ApiKeyParam, DateString, Int32, INT32_MAX, PagingQuery, ShowNullValues } from '../http/schemas.ts';

export const FILTERS = {
  contractAgreementId: Int32({ description: 'Only the contract agreement with this Id' }),
  licenseAgreementId: Int32({ description: 'Only contract agreements of the license agreement with this Id' }),
  licenseAgreementIdNum: Type.String({
    minLength: 1,
    description: 'Only contract agreements of the license agreement with this IdNum (exact match)',
  }),
  useUnitId: Int32({ description: 'Only records of the use unit with this Id' }),
  useUnitNumber: Type.String({
    minLength: 1,
    description: 'Only records of the use unit with this UseUnitNumber (exact match)',
  }),
  economicUnitId: Int32({ description: 'Only records of use units of the economic unit with this Id' }),
  activeOn: DateString({
    description:
      'Only records whose ValidFrom..ValidTo contains this date (YYYY-MM-DD, both ends inclusive; no ValidTo = open-ended)',
  }),
  priceIndexId: Int32({
    description: 'Only the price index (PriceIndex) or the values of the price index (PriceIndexValue) with this Id',
  }),
  priceIndexCode: Type.String({
    minLength: 1,
    description: 'Only the price index with this Code (exact match)',
  }),
  referenceDateFrom: DateString({
    description: 'Only values whose ReferenceDate is on or after this date (YYYY-MM-DD)',
  }),
  referenceDateTo: DateString({
    description: 'Only values whose ReferenceDate is on or before this date (YYYY-MM-DD)',
  }),
};

export type FilterName = keyof typeof FILTERS;

/** Values of every filter; an endpoint's handler only receives the ones its schema declares. */
export interface Filters {
  contractAgreementId?: number;
  licenseAgreementId?: number;
  licenseAgreementIdNum?: string;
  useUnitId?: number;
  useUnitNumber?: string;
  economicUnitId?: number;
  activeOn?: string;
  priceIndexId?: number;
  priceIndexCode?: string;
  referenceDateFrom?: string;
  referenceDateTo?: string;
}

/** The filters of the contract-agreement endpoints (both versions). */
export const CONTRACT_FILTERS: FilterName[] = [
  'contractAgreementId',
  'licenseAgreementId',
  'licenseAgreementIdNum',
  'useUnitId',
  'useUnitNumber',
  'economicUnitId',
  'activeOn',
];

/** Version 1.0: without limit the complete list (streamed); with limit an ordinary page. */
const V10Paging = {
  apiKey: Type.Optional(ApiKeyParam),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      description: 'Page size, 1..100. Absent: the complete list (streamed), starting at offset',
    }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: INT32_MAX, default: 0, description: 'Records to skip (default 0)' }),
  ),
  showNullValues: Type.Optional(ShowNullValues),
};

export type ApiVersion = '1.0' | '1.2';

/** The querystring schema of an endpoint of the given version with the given filters. */
export function querySchema(version: ApiVersion, filters: FilterName[]) {
  const properties: Record<string, TSchema> = { ...(version === '1.0' ? V10Paging : PagingQuery) };
  for (const name of filters) properties[name] = Type.Optional(FILTERS[name]);
  return Type.Object(properties);
}

/** The parsed querystring as handlers see it (defaults applied by validation). */
export interface ListQuery extends Filters {
  limit?: number;
  offset: number;
  showNullValues?: boolean;
  apiKey?: string;
}
