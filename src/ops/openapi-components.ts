// The whole-document part of the OpenAPI document (@fastify/swagger `transformObject`): named component schemas,
// examples, tag descriptions, and no internal keys. Every object schema that carries a title (record types named
// by openapi-operations.ts, shared pieces titled in src/http/schemas.ts) is hoisted into components.schemas and
// referenced; the object schemas nested in it are named after their property (Owner, UseUnits -> UseUnit) and
// hoisted too, so generated clients get `components['schemas']['AllocationGroupBase']`.
import { OPTIONAL_BODY, singular } from './openapi-operations.ts';
import { readFileSync } from 'node:fs';

type Schema = Record<string, unknown>;
type Doc = Record<string, unknown> & {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas?: Record<string, Schema>; [key: string]: unknown };
  tags?: { name: string; description?: string }[];
};

const CONTROLLERS: Record<string, string> = {
  RunningCostDistributionRead:
    'Running-cost distribution (read): distribution periods, allocation groups and allocation group bases.',
  AccountancyProjectEdit: 'Accounting projects (write and read-back): create, change, delete, assign and remove.',
  RentAccounting: 'Rent accounting (read): price indices and the contract agreements of rental contracts.',
  Operations: 'Liveness and readiness probes for load balancers and orchestrators (public).',
  'OAuth 2.0': 'Log in: the token endpoint (password and refresh_token grants, form-encoded, public).',
};

/** Example values per component schema, taken from the demo data by scripts/openapi-examples.ts. */
const examples = JSON.parse(readFileSync(new URL('./openapi-examples.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>;

const isObject = (s: Schema) => s.type === 'object' && typeof s.properties === 'object';
const canonical = (s: unknown): string =>
  JSON.stringify(s, (key, value: unknown) =>
    key === 'description' || key === 'example'
      ? undefined
      : value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
        : value,
  );

/** The value null alone, as OpenAPI 3.0 writes it (it has no type "null"). */
const NULL_OBJECT: Schema = { type: 'object', nullable: true, enum: [null] };

class Registry {
  readonly schemas: Record<string, Schema> = {};
  private readonly shapes = new Map<string, string>();

  /** Registers an object schema under its name (or a longer one on a clash) and returns the reference to use. */
  hoist(schema: Schema, name: string, parent = ''): Schema {
    const { nullable, title: _title, ...body } = schema;
    const properties: Record<string, Schema> = {};
    for (const [key, value] of Object.entries((body.properties ?? {}) as Record<string, Schema>)) {
      properties[key] = this.walk(value, key, name);
    }
    const component: Schema = body.properties ? { ...body, properties } : body;
    const shape = canonical(component);
    let ref = this.shapes.get(`${name}\u0000${shape}`);
    if (!ref) {
      ref = name;
      for (let n = 1; this.schemas[ref] && canonical(this.schemas[ref]) !== shape; n++) {
        ref = n === 1 && parent ? `${parent}${name}` : `${name}${n + 1}`;
      }
      const registered = (this.schemas[ref] ??= component);
      if (examples[ref] !== undefined) registered.example = examples[ref];
      this.shapes.set(`${name}\u0000${shape}`, ref);
    }
    const pointer = { $ref: `#/components/schemas/${ref}` };
    // OpenAPI 3.0.3: `nullable` only widens the `type` beside it, so a nullable reference is "the record or null"
    return nullable ? { anyOf: [pointer, NULL_OBJECT] } : pointer;
  }

  /** A schema inside a named one: object properties are named after the property. */
  walk(schema: Schema, key: string, parent: string): Schema {
    if (isObject(schema)) return this.hoist(schema, (schema.title as string | undefined) ?? singular(key), parent);
    if (schema.type === 'array' && schema.items && isObject(schema.items as Schema)) {
      const items = schema.items as Schema;
      return { ...schema, items: this.hoist(items, (items.title as string | undefined) ?? singular(key), parent) };
    }
    return schema;
  }

  /** A top-level schema of a body or response: hoisted when titled. */
  top(schema: Schema): Schema {
    if (schema.type === 'object' && typeof schema.title === 'string') return this.hoist(schema, schema.title);
    if (schema.type === 'array' && schema.items && isObject(schema.items as Schema))
      return this.walk(schema, 'item', '');
    return schema;
  }
}

const isInteger = (s: Schema) => s.type === 'integer' || (Array.isArray(s.type) && s.type.includes('integer'));

/**
 * Drops internal keys (x-message and other extensions of the route schemas) from schemas, and gives every integer the
 * format int32 (interface.md, Notation: "int = integer int32").
 */
function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (!value || typeof value !== 'object') return value;
  const out = Object.fromEntries(
    Object.entries(value as Schema)
      .filter(([key]) => !key.startsWith('x-'))
      .map(([key, v]) => [key, clean(v)]),
  );
  if (isInteger(out) && out.format === undefined) out.format = 'int32';
  return out;
}

function exampleOf(schema: Schema, registry: Registry): unknown {
  const ref = (schema.$ref ?? (schema.allOf as Schema[] | undefined)?.[0]?.$ref) as string | undefined;
  if (ref) return registry.schemas[ref.split('/').at(-1)!]?.example;
  if (schema.type === 'array' && schema.items) {
    const item = exampleOf(schema.items as Schema, registry);
    return item === undefined ? undefined : [item];
  }
  return undefined;
}

function media(container: Schema | undefined, registry: Registry) {
  const content = container?.content as Record<string, Schema> | undefined;
  for (const entry of Object.values(content ?? {})) {
    if (!entry.schema) continue;
    entry.schema = registry.top(clean(entry.schema) as Schema);
    const example = exampleOf(entry.schema as Schema, registry);
    if (entry.example === undefined && example !== undefined) entry.example = example;
  }
}

/** A request body marked OPTIONAL_BODY by transformRoute: not required (the marker itself leaves the document). */
function optionalBody(requestBody: Schema | undefined) {
  let optional = false;
  for (const entry of Object.values((requestBody?.content ?? {}) as Record<string, Schema>)) {
    const schema = entry.schema as Schema | undefined;
    if (schema?.[OPTIONAL_BODY] !== true) continue;
    optional = true;
    delete schema[OPTIONAL_BODY];
  }
  if (optional && requestBody) requestBody.required = false;
}

export function transformDocument({ openapiObject }: { openapiObject: Partial<Doc> }): Doc {
  const doc = openapiObject as Doc;
  const registry = new Registry();
  const used = new Set<string>();
  for (const operations of Object.values(doc.paths)) {
    for (const operation of Object.values(operations)) {
      operation.description ??= operation.summary;
      for (const tag of (operation.tags as string[] | undefined) ?? []) used.add(tag);
      optionalBody(operation.requestBody as Schema | undefined);
      media(operation.requestBody as Schema | undefined, registry);
      for (const response of Object.values((operation.responses ?? {}) as Record<string, Schema>)) {
        media(response, registry);
      }
      if (operation.parameters) operation.parameters = clean(operation.parameters);
    }
  }
  doc.components.schemas = { ...doc.components.schemas, ...registry.schemas };
  doc.tags = [...used].sort().map((name) => {
    const [controller, version] = name.split(' v');
    const text = CONTROLLERS[controller!] ?? CONTROLLERS[name] ?? `The ${controller} controller.`;
    return { name, description: version ? `${text} Interface version ${version}.` : text };
  });
  return doc;
}
