// Schema pieces shared by every area: scalar types, the error map, paging parameters, small reference types.
import {
  Type,
  type Static,
  type TSchema,
  type TObject,
  type TOptional,
  type TProperties,
  type TUnsafe,
} from '@sinclair/typebox';
import { INT32_MAX, INT32_MIN } from './int32.ts';

export { INT32_MAX, INT32_MIN };

export const Int32 = (opts: object = {}) => Type.Integer({ minimum: INT32_MIN, maximum: INT32_MAX, ...opts });
export const Id = (opts: object = {}) => Type.Integer({ minimum: 1, maximum: INT32_MAX, ...opts });
/** One of a list of strings, as a JSON Schema enum (a wrong value's message lists the allowed ones). */
export const OneOf = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description });

export const DATE_PATTERN = '^\\d{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])$';
/** A real calendar date in YYYY-MM-DD form (pattern of the interface plus a calendar check). */
export const DateString = (opts: object = {}) =>
  Type.String({
    pattern: DATE_PATTERN,
    format: 'date',
    'x-message': 'The value {value} is not a valid date for {key}: expected a real date in the form YYYY-MM-DD.',
    ...opts,
  });

/** A nullable schema as a JSON-schema type array (what fast-json-stringify serializes fastest). */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const type = (schema as { type?: string }).type;
  if (!type) return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] });
}

type WireProperties<P extends TProperties> = { [K in keyof P]: TOptional<TUnsafe<Static<P[K]> | null>> };

/**
 * A response object: every property nullable and optional, because null properties are left out unless
 * showNullValues=true (the serializer would otherwise refuse a missing "required" property).
 */
export function WireObject<P extends TProperties>(properties: P, opts: object = {}): TObject<WireProperties<P>> {
  const out: TProperties = {};
  for (const [k, v] of Object.entries(properties)) out[k] = Type.Optional(Nullable(v));
  return Type.Object(out as WireProperties<P>, { additionalProperties: false, ...opts });
}

export const ErrorMapSchema = Type.Record(Type.String(), Type.Array(Type.String()), {
  description:
    'Maps a query parameter, a body property path (e.g. Building[2]) or $ (the body as a whole) to messages.',
  examples: [{ limit: ["The value '101' is not valid for limit: must be <= 100."] }],
});

export const ShowNullValues = Type.Boolean({
  default: false,
  description: 'true: null properties are present as null; false: left out',
});
export const ApiKeyParam = Type.String({
  description: 'API key of the client application; scopes the visible ledgers',
});

/** Query parameters of every paged read endpoint. */
export const PagingQuery = {
  apiKey: Type.Optional(ApiKeyParam),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1..100 (default 20)' }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: INT32_MAX, default: 0, description: 'Records to skip (default 0)' }),
  ),
  showNullValues: Type.Optional(ShowNullValues),
};

export interface PagingValues {
  limit: number;
  offset: number;
  showNullValues?: boolean;
  apiKey?: string;
}

// Small reference types of the interface, defined once.
export const CodeRef = WireObject({ Id: Type.Integer(), Code: Type.String() }, { title: 'CodeRef' });
export const OwnerRef = WireObject({ Id: Type.Integer(), OwnerNumber: Type.String() }, { title: 'OwnerRef' });
export const CompanyCodeRef = WireObject(
  { Id: Type.Integer(), Name: Type.String(), Code: Type.String() },
  { title: 'CompanyCodeRef' },
);
export const UseUnitRef = WireObject({ Id: Type.Integer(), UseUnitNumber: Type.String() }, { title: 'UseUnitRef' });
export const FacilityRef = WireObject({ Id: Type.Integer(), Name: Type.String() }, { title: 'FacilityRef' });
export const GroupRef = WireObject({ Id: Type.Integer(), Name: Type.String() }, { title: 'GroupRef' });
export const Explanation = WireObject(
  { Id: Type.Integer(), Text: Type.String(), Group: GroupRef },
  { title: 'Explanation' },
);
export const OptionTax = WireObject(
  {
    OptionTax: Type.Number({ format: 'decimal' }),
    ValidFrom: Type.String({ format: 'date' }),
    ValidTo: Type.String({ format: 'date' }),
  },
  { title: 'OptionTax' },
);

/** The responses every API route may give besides its success. */
export const errorResponses = {
  400: ErrorMapSchema,
  401: Type.Null({ description: 'Missing or invalid credentials (no body)' }),
  403: ErrorMapSchema,
  404: ErrorMapSchema,
};
