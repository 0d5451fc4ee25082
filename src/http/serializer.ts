// Compiled JSON serializers per response shape, with null omission compiled in: one function per (schema, omit
// nulls or not) that walks the presented value once and writes the JSON text, in the schema's property order, with
// the coercions of fast-json-stringify (which Fastify uses for response schemas) — so the answer is the same as
// `stripNulls` followed by Fastify's serializer, without the extra pass over every object.
// A decimal given as text (exact, as stored) is written as it is when it is a valid JSON number.
// Schemas with parts this compiler does not know (anyOf, $ref, open objects, …) compile to undefined: the caller
// keeps the generic path for them.

export type Serialize = (value: unknown) => string;

type Schema = Record<string, unknown>;

/** Keywords that do not change the JSON text (annotations and validation-only keywords). */
const IGNORED = new Set([
  'type',
  'properties',
  'items',
  'additionalProperties',
  'required',
  'format',
  'description',
  'title',
  'examples',
  'example',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'pattern',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'enum',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$id',
]);

// eslint-disable-next-line no-control-regex
const STR_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The runtime helpers the generated code calls (same results as fast-json-stringify's). */
const helpers = {
  str(v: unknown): string {
    if (typeof v === 'string') return STR_ESCAPE.test(v) ? JSON.stringify(v) : `"${v}"`;
    if (v === null) return '""';
    if (v instanceof Date) return `"${v.toISOString()}"`;
    if (v instanceof RegExp) return helpers.str(v.source);
    // as fast-json-stringify: any other value as its string form
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    return helpers.str(String(v));
  },
  num(v: unknown): string {
    const n = Number(v);
    if (typeof v === 'string' && Number.isFinite(n) && JSON_NUMBER.test(v)) return v;
    if (Number.isNaN(n)) throw new Error(`The value "${String(v)}" cannot be converted to a number.`);
    return Number.isFinite(n) ? `${n}` : 'null';
  },
  int(v: unknown): string {
    if (Number.isInteger(v)) return `${v as number}`;
    if (typeof v === 'bigint') return v.toString();
    const n = Math.trunc(v as number);
    if (!Number.isFinite(n)) throw new Error(`The value "${String(v)}" cannot be converted to an integer.`);
    return `${n}`;
  },
  required(key: string): never {
    throw new Error(`"${key}" is required!`);
  },
};

class Unsupported extends Error {}

interface Compiler {
  omitNulls: boolean;
  counter: number;
}

/** The schema's one non-null type and whether null is allowed. */
function typeOf(schema: Schema): { type: string; nullable: boolean } {
  for (const key of Object.keys(schema)) if (!IGNORED.has(key) && !key.startsWith('x-')) throw new Unsupported(key);
  const t = schema.type;
  const types = Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
  const nonNull = types.filter((x) => x !== 'null');
  const type = nonNull[0];
  if (nonNull.length !== 1 || type === undefined) throw new Unsupported(`type ${JSON.stringify(t)}`);
  return { type, nullable: types.includes('null') };
}

/** Code appending the JSON of the value in variable `v` (never undefined) to `json`. */
function valueCode(c: Compiler, schema: Schema, v: string): string {
  const { type, nullable } = typeOf(schema);
  const ifNull = nullable ? `if (${v} === null) json += 'null'; else ` : '';
  switch (type) {
    case 'string':
      return `${ifNull}json += (typeof ${v} === 'string' && !STR_ESCAPE.test(${v})) ? '"' + ${v} + '"' : h.str(${v});`;
    case 'number':
      return `${ifNull}json += typeof ${v} === 'number' && Number.isFinite(${v}) ? '' + ${v} : h.num(${v});`;
    case 'integer':
      return `${ifNull}json += Number.isInteger(${v}) ? '' + ${v} : h.int(${v});`;
    case 'boolean':
      return `${ifNull}json += ${v} ? 'true' : 'false';`;
    case 'array': {
      const items = schema.items as Schema | undefined;
      if (!items || Array.isArray(items)) throw new Unsupported('items');
      const i = `i${++c.counter}`;
      const e = `e${c.counter}`;
      return `${ifNull}{ json += '['; for (let ${i} = 0; ${i} < ${v}.length; ${i}++) { if (${i} > 0) json += ',';
        const ${e} = ${v}[${i}]; ${valueCode(c, items, e)} } json += ']'; }`;
    }
    case 'object':
      return `${ifNull}{ ${objectCode(c, schema, v)} }`;
    default:
      throw new Unsupported(`type ${type}`);
  }
}

function objectCode(c: Compiler, schema: Schema, o: string): string {
  if (schema.additionalProperties !== false) throw new Unsupported('additionalProperties');
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const sep = `s${++c.counter}`;
  let code = `let ${sep} = '{';`;
  for (const [key, sub] of Object.entries(properties)) {
    const p = `p${++c.counter}`;
    const present = c.omitNulls ? `${p} !== undefined && ${p} !== null` : `${p} !== undefined`;
    code += `const ${p} = ${o}[${JSON.stringify(key)}];
      if (${present}) { json += ${sep} + ${JSON.stringify(`${JSON.stringify(key)}:`)}; ${sep} = ','; ${valueCode(c, sub, p)} }`;
    if (required.has(key)) code += ` else h.required(${JSON.stringify(key)});`;
  }
  return `${code} json += ${sep} === '{' ? '{}' : '}';`;
}

/** A serializer for values of `schema`, or undefined when the schema has parts this compiler does not handle. */
export function compileSerializer(schema: unknown, omitNulls: boolean): Serialize | undefined {
  try {
    const c: Compiler = { omitNulls, counter: 0 };
    const body = `let json = ''; ${valueCode(c, schema as Schema, 'value')} return json;`;
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    const make = new Function('h', 'STR_ESCAPE', `return function serialize(value) { ${body} };`) as (
      h: typeof helpers,
      re: RegExp,
    ) => Serialize;
    return make(helpers, STR_ESCAPE);
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
}

/** Both serializers of a shape: nulls left out (the default) and kept (showNullValues=true). */
export interface Serializers {
  omit: Serialize;
  keep: Serialize;
}

export function compileSerializers(schema: unknown): Serializers | undefined {
  const omit = compileSerializer(schema, true);
  const keep = compileSerializer(schema, false);
  return omit && keep ? { omit, keep } : undefined;
}
