// Request validation: one Ajv for query strings and path parameters (coerces strings to the schema's types)
// and one for bodies (no coercion, no silent removal of unknown properties). Errors become the 400 error map.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler, FastifySchema } from 'fastify';
import type { ErrorMap } from './errors.ts';
import { realDate } from '../db/values.ts';
import { MAX_PROBLEMS, STRICT_INTEGER, STRICT_NUMBER, messagesAt, moreMessage, textProblem } from './input-rules.ts';

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
  // A real day from 0001-01-01 on (ajv-formats' date also takes year 0000, which no .NET client can send)
  ajv.addFormat('date', { type: 'string', validate: realDate });
  // Master-data date filters: a date or date-time (its pattern checks the form) whose calendar day is a real one
  ajv.addFormat('calendar-day', {
    type: 'string',
    validate: (text: string) => !/^\d{4}-\d{2}-\d{2}/.test(text) || realDate(text.slice(0, 10)),
  });
  return ajv;
}

const queryAjv = makeAjv(true);
const bodyAjv = makeAjv(false);

type PropertySchema = { type?: unknown; items?: { type?: unknown }; 'x-ignored'?: boolean };

/** What the wrapper needs of a query or params schema, computed once per schema. */
interface Declared {
  /** The scalar type of each property (the item type for arrays). */
  types: Map<string, string>;
  /** Properties that take one value: sent twice is a 400 saying so. */
  single: Set<string>;
  /** Properties accepted and ignored whatever their value (`x-ignored`): removed before validation. */
  ignored: string[];
  /** Every declared property: the values of other names are ignored, never checked (decisions §3). */
  names: Set<string>;
}

function declared(schema: object): Declared {
  const props = (schema as { properties?: Record<string, PropertySchema> }).properties ?? {};
  const types = new Map<string, string>();
  const single = new Set<string>();
  const ignored: string[] = [];
  for (const [name, p] of Object.entries(props)) {
    if (p['x-ignored']) ignored.push(name);
    if (p.type !== 'array') single.add(name);
    const type = p.type === 'array' ? p.items?.type : p.type;
    const first: unknown = Array.isArray(type) ? type.find((t) => t !== 'null') : type;
    if (typeof first === 'string') types.set(name, first);
  }
  return { types, single, ignored, names: new Set(Object.keys(props)) };
}

const STRICT: Record<string, RegExp> = { integer: STRICT_INTEGER, number: STRICT_NUMBER };

/**
 * What the query string and path must satisfy before Ajv coerces them: text without control characters or lone
 * surrogates, numbers in plain decimal form (Ajv alone would take '0x10', '1e1', ' 1'), booleans in any case
 * (clients of the vendor interface (.NET) send True/False). Problems are Ajv-shaped errors for the error map.
 */
function precheck(data: Record<string, unknown>, { types, single, ignored, names }: Declared): ErrorObject[] {
  for (const name of ignored) delete data[name];
  const problems: ErrorObject[] = [];
  for (const name of Object.keys(data)) {
    if (!names.has(name)) continue; // an unknown parameter is ignored, whatever its value
    const raw = data[name];
    if (Array.isArray(raw) && single.has(name)) {
      problems.push({ ...ajvError(name, raw, ''), keyword: 'repeated' });
      continue;
    }
    const values = Array.isArray(raw) ? raw : [raw];
    const type = types.get(name);
    for (const v of values) {
      if (typeof v !== 'string') continue;
      const text = textProblem(v, 'query');
      const strict = type ? STRICT[type] : undefined;
      if (text) problems.push(ajvError(name, v, `${text}`));
      else if (strict && !strict.test(v))
        problems.push({ ...ajvError(name, v, ''), keyword: 'type', params: { type } });
    }
    if (type === 'boolean' && typeof raw === 'string' && /^(true|false)$/i.test(raw)) data[name] = raw.toLowerCase();
  }
  return problems;
}

function ajvError(name: string, value: unknown, message: string): ErrorObject {
  return {
    keyword: 'text',
    instancePath: `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    schemaPath: '',
    params: {},
    message,
    data: value,
  };
}

/** The query's or path's values as sent (text), before Ajv coerces them in place: messages quote what was sent. */
function sentValues(data: Record<string, unknown>): Record<string, unknown> {
  const sent: Record<string, unknown> = {};
  for (const name of Object.keys(data)) {
    const value = data[name];
    sent[name] = Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  return sent;
}

/** The sent text at an error's path (`/offset`, `/ids/2`), if it was text. */
function sentValue(sent: Record<string, unknown>, instancePath: string): string | string[] | undefined {
  const [name = '', index] = instancePath
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const value = Object.hasOwn(sent, name) ? sent[name] : undefined;
  const at: unknown =
    index === undefined ? value : Array.isArray(value) ? (value[Number(index)] as unknown) : undefined;
  if (typeof at === 'string') return at;
  return Array.isArray(at) && at.every((v) => typeof v === 'string') ? at : undefined;
}

export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return bodyAjv.compile<unknown>(schema as object);
  const validate = queryAjv.compile<unknown>(schema as object);
  if (httpPart !== 'querystring' && httpPart !== 'params') return validate;
  const schemaFacts = declared(schema);
  const wrapped = (data: Record<string, unknown>) => {
    const isObject = data !== null && typeof data === 'object';
    const problems = isObject ? precheck(data, schemaFacts) : [];
    const sent = isObject ? sentValues(data) : undefined;
    const ok = validate(data);
    const named = new Set(problems.map((p) => p.instancePath));
    const rest = (validate.errors ?? []).filter((e) => !named.has(e.instancePath));
    wrapped.errors = problems.length || !ok ? [...problems, ...rest] : null;
    if (wrapped.errors && sent) for (const e of rest) e.data = sentValue(sent, e.instancePath) ?? e.data;
    return wrapped.errors === null;
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

const PREVIEW = 80;

/** JSON text of a value, cut at PREVIEW characters: time and stack bounded however large or deep the value is. */
function preview(value: unknown): string {
  let out = '';
  const put = (v: unknown, depth: number): void => {
    if (out.length > PREVIEW) return;
    if (depth > 4 && v !== null && typeof v === 'object') {
      out += Array.isArray(v) ? '[...]' : '{...}';
    } else if (Array.isArray(v)) {
      out += '[';
      for (let i = 0; i < v.length && out.length <= PREVIEW; i++) {
        if (i) out += ',';
        put(v[i], depth + 1);
      }
      out += ']';
    } else if (v !== null && typeof v === 'object') {
      out += '{';
      let first = true;
      for (const k in v) {
        if (out.length > PREVIEW) break;
        out += `${first ? '' : ','}${JSON.stringify(k.slice(0, PREVIEW))}:`;
        first = false;
        put((v as Record<string, unknown>)[k], depth + 1);
      }
      out += '}';
    } else out += JSON.stringify(typeof v === 'string' ? v.slice(0, PREVIEW + 1) : v) ?? String(v);
  };
  put(value, 0);
  return out.length > PREVIEW ? `${out.slice(0, PREVIEW - 3)}...` : out;
}

function show(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > PREVIEW ? `${value.slice(0, PREVIEW - 3)}...` : value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return `'${String(value)}'`;
  return preview(value);
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
  switch (e.keyword) {
    case 'required':
      return `${key} is required.`;
    case 'additionalProperties':
      return `Unknown property '${key}' (property names are case-sensitive).`;
    case 'repeated': {
      const values = e.data as unknown[];
      const shown = values.slice(0, 5).map(show).join(', ');
      return `${key} is given more than once (${shown}${values.length > 5 ? `, ... ${values.length} values` : ''}); give it once.`;
    }
  }
  const v = show(e.data);
  switch (e.keyword) {
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
      if (e.params.format === 'calendar-day')
        return `The value ${v} is not a valid date for ${key}: no such calendar day.`;
    // falls through
    case 'pattern':
      return (
        (e.parentSchema as { 'x-message'?: string } | undefined)?.['x-message']
          ?.replace('{value}', () => v)
          .replace('{key}', () => key) ?? `The value ${v} is not valid for ${key}: ${e.message}.`
      );
    case 'enum':
      return `The value ${v} is not valid for ${key}: must be one of ${(e.params.allowedValues as unknown[]).map((a) => String(a)).join(', ')}.`;
    case 'text':
      return `The value of ${key} ${e.message}.`;
    case 'maxLength':
    case 'minLength':
    case 'maxItems':
    case 'minItems':
      return `The value ${v} is not valid for ${key}: ${e.message}.`;
    default:
      return `The value ${v} is not valid for ${key}: ${e.message ?? e.keyword}.`;
  }
}

/**
 * The error map of Ajv's errors, in time linear in their number (values are shown cut short). Complete, so that
 * commands can merge it with their own problems, except for unknown properties past the first MAX_PROBLEMS
 * problems: those are only counted, in one "... and N more" message. Bounded where it is sent (boundErrorMap).
 */
export function validationErrorMap(errors: ErrorObject[] | Array<Partial<ErrorObject>>): ErrorMap {
  const map: ErrorMap = {};
  let listed = 0;
  let skipped = 0;
  for (const raw of errors as ErrorObject[]) {
    if (raw.keyword === 'if' || raw.keyword === 'anyOf') continue;
    if (raw.keyword === 'additionalProperties' && listed >= MAX_PROBLEMS) {
      skipped++;
      continue;
    }
    const extra =
      raw.keyword === 'required'
        ? String(raw.params.missingProperty)
        : raw.keyword === 'additionalProperties'
          ? String(raw.params.additionalProperty)
          : undefined;
    const key = keyOf(raw.instancePath ?? '', extra);
    const msg = message(raw, key);
    const list = messagesAt(map, key);
    if (!list.includes(msg)) {
      list.push(msg);
      listed++;
    }
  }
  if (skipped) messagesAt(map, '$').push(moreMessage(skipped));
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
