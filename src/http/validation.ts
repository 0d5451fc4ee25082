// Request validation: one Ajv for query strings and path parameters (coerces strings to the schema's types)
// and one for bodies (no coercion, no silent removal of unknown properties). Errors become the 400 error map.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler, FastifySchema } from 'fastify';
import type { ErrorMap } from './errors.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    verbose: true, // errors carry the offending value
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

const queryAjv = makeAjv(true);
const bodyAjv = makeAjv(false);

/** Names of the boolean properties of a query schema. */
function booleanParameters(schema: object): string[] {
  const props = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(props)
    .filter(([, p]) => p.type === 'boolean')
    .map(([k]) => k);
}

export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return bodyAjv.compile<unknown>(schema as object);
  const validate = queryAjv.compile<unknown>(schema as object);
  const booleans = booleanParameters(schema);
  if (httpPart !== 'querystring' || booleans.length === 0) return validate;
  // Clients of the vendor interface (.NET) send True/False: booleans are read case-insensitively.
  const wrapped = (data: Record<string, unknown>) => {
    for (const name of booleans) {
      const v = data?.[name];
      if (typeof v === 'string' && /^(true|false)$/i.test(v)) data[name] = v.toLowerCase();
    }
    const ok = validate(data);
    wrapped.errors = validate.errors;
    return ok;
  };
  wrapped.errors = null as ValidateFunction['errors'];
  return wrapped;
};

/** '/Building/2/Id' -> 'Building[2].Id'; for query and params the path is the parameter name. */
function keyOf(instancePath: string, extra?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  let key = '';
  for (const p of parts) key += /^\d+$/.test(p) ? `[${p}]` : key ? `.${p}` : p;
  return key || '$';
}

function show(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return `'${String(value)}'`;
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string'))
    return `'${value.join(',')}'`;
  const s = JSON.stringify(value);
  return s === undefined ? String(value) : s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
};

function message(e: ErrorObject, key: string): string {
  const v = show(e.data);
  switch (e.keyword) {
    case 'required':
      return `${key} is required.`;
    case 'additionalProperties':
      return `Unknown property '${key}' (property names are case-sensitive).`;
    case 'type': {
      const types = String(e.params.type)
        .split(',')
        .filter((t) => t !== 'null');
      return `The value ${v} is not valid for ${key}: expected ${types.map((t) => TYPE_WORDS[t] ?? t).join(' or ')}.`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `The value ${v} is not valid for ${key}: must be ${e.params.comparison} ${e.params.limit}.`;
    case 'format':
    case 'pattern':
      return (
        (e.parentSchema as { 'x-message'?: string } | undefined)?.['x-message']
          ?.replace('{value}', v)
          .replace('{key}', key) ?? `The value ${v} is not valid for ${key}: ${e.message}.`
      );
    case 'enum':
      return `The value ${v} is not valid for ${key}: must be one of ${(e.params.allowedValues as unknown[]).map((a) => String(a)).join(', ')}.`;
    case 'maxLength':
    case 'minLength':
    case 'maxItems':
    case 'minItems':
      return `The value ${v} is not valid for ${key}: ${e.message}.`;
    default:
      return `The value ${v} is not valid for ${key}: ${e.message ?? e.keyword}.`;
  }
}

export function validationErrorMap(errors: ErrorObject[] | Array<Partial<ErrorObject>>): ErrorMap {
  const map: ErrorMap = {};
  for (const raw of errors as ErrorObject[]) {
    if (raw.keyword === 'if' || raw.keyword === 'anyOf') continue;
    const extra =
      raw.keyword === 'required'
        ? String(raw.params.missingProperty)
        : raw.keyword === 'additionalProperties'
          ? String(raw.params.additionalProperty)
          : undefined;
    const key = keyOf(raw.instancePath ?? '', extra);
    const msg = message(raw, key);
    const list = (map[key] ??= []);
    if (!list.includes(msg)) list.push(msg);
  }
  if (Object.keys(map).length === 0) map.$ = ['The request is not valid.'];
  return map;
}

const bodyValidators = new WeakMap<object, ValidateFunction>();

/**
 * Validates a value against a body schema exactly as a route does (same Ajv, same messages) and returns the
 * error map, or null when the value is valid. For commands that collect schema and rule errors in one 400.
 */
export function bodyErrors(schema: object, value: unknown): ErrorMap | null {
  let validate = bodyValidators.get(schema);
  if (!validate) {
    validate = bodyAjv.compile(schema);
    bodyValidators.set(schema, validate);
  }
  return validate(value) ? null : validationErrorMap(validate.errors ?? []);
}
