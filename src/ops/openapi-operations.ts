// The per-route part of the OpenAPI document, derived centrally from each route's path, method and config, so a
// new route gets it without writing anything: operationId (`Controller_Method`), tag per controller and version,
// security (bearer token, plus the apiKey query scheme where config.auth uses it; `[]` on public routes), every
// error status with its own description and example, success descriptions, and names for the record schemas
// (hoisted into components.schemas by openapi-components.ts). The route schemas themselves are never changed:
// this works on shallow copies, so they stay the validators and serializers.
import type { RouteOptions } from 'fastify';
import { OptionalKind } from '@sinclair/typebox';
import { ErrorMapSchema } from '../http/schemas.ts';
import { UNLIMITED } from '../pipeline/04-rate-limit.ts';
import { MEDIA_TYPES } from '../pipeline/09-media-type.ts';

/** Marks a request body that may be absent (see transformRoute; read by transformDocument). */
export const OPTIONAL_BODY = 'x-optional-body';

declare module 'fastify' {
  interface FastifySchema {
    /** Documents an application/x-www-form-urlencoded body that the handler checks itself (OpenAPI only). */
    formBody?: unknown;
  }
}

/** The interface version whose names are unsuffixed; older versions get `V1_0` in ids, tags and schema names. */
export const CURRENT_VERSION = '1.2';

type Schema = Record<string, unknown>;

export interface RouteFacts {
  /** e.g. RunningCostDistributionRead; for paths outside /service the first segment (Health, OAuth2). */
  controller: string;
  /** e.g. '1.2', or undefined outside the versioned interface. */
  version?: string;
  /** The static path segments after the controller, e.g. ['Project', 'AssignBuilding']. */
  segments: string[];
  /** The path parameters in order. */
  params: string[];
}

const pascal = (word: string) =>
  word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

export function routeFacts(url: string): RouteFacts {
  const parts = url.split('/').filter(Boolean);
  const params = parts.filter((p) => p.startsWith(':') || p.startsWith('{')).map((p) => p.replace(/^[:{]|}$/g, ''));
  const fixed = parts.filter((p) => !p.startsWith(':') && !p.startsWith('{'));
  const versionAt = fixed.findIndex((p) => /^v\d+(\.\d+)*$/.test(p));
  if (versionAt >= 0 && fixed[versionAt + 1]) {
    return {
      controller: fixed[versionAt + 1]!,
      version: fixed[versionAt]!.slice(1),
      segments: fixed.slice(versionAt + 2),
      params,
    };
  }
  return { controller: pascal(fixed[0] ?? 'Root'), segments: fixed.slice(1), params };
}

/** `V1_0` for an older interface version, '' for the current one and unversioned paths. */
export const versionSuffix = (version?: string) =>
  version && version !== CURRENT_VERSION ? `V${version.replace(/\./g, '_')}` : '';

const VERBS: Record<string, string> = { GET: 'Get', POST: 'Post', PUT: 'Put', PATCH: 'Patch', DELETE: 'Delete' };

/** `Controller_Method`, e.g. RunningCostDistributionRead_GetAllocationGroupBases, AccountancyProjectEdit_PutProjectById. */
export function operationId(method: string, url: string): string {
  const facts = routeFacts(url);
  const verb = VERBS[method] ?? pascal(method.toLowerCase());
  const by = facts.params.length ? `By${facts.params.map(pascal).join('And')}` : '';
  const last = facts.segments.at(-1);
  // A trailing action after a parameter (Project/{projectId}/AssignBuilding) reads better without "By".
  const trailing = last !== undefined && !url.endsWith('}') && !/\/:[^/]+$/.test(url);
  const name =
    trailing && by
      ? `${verb}${facts.segments.map(pascal).join('')}`
      : `${verb}${facts.segments.map(pascal).join('')}${by}`;
  return `${facts.controller}${versionSuffix(facts.version)}_${name}`;
}

/** One tag per controller and version, e.g. "RentAccounting v1.0"; outside /service the route's own tag. */
export function tagOf(url: string, declared?: readonly string[]): string[] {
  const facts = routeFacts(url);
  if (facts.version) return [`${facts.controller} v${facts.version}`];
  return declared?.length ? [...declared] : [facts.controller];
}

/** AllocationGroupBases -> AllocationGroupBase (the record name of a list endpoint). */
export function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

const errorExample = (key: string, message: string) => ({ [key]: [message] });

/** An error answer: the ErrorMap (with its own description) and the status's description and example. */
function errorResponse(
  status: number,
  description: string,
  example: Record<string, string[]>,
  headers?: Record<string, Schema>,
): Schema {
  const { examples: _ignored, ...map } = ErrorMapSchema as Schema;
  return {
    ...map,
    title: 'ErrorMap',
    'x-response-description': description,
    examples: [example],
    ...(headers ? { headers } : {}),
  };
}

const RETRY_AFTER: Schema = { type: 'string', description: 'Seconds to wait before trying again.' };

/** Statuses a route may declare itself, with their generic description and example. */
const OTHER_STATUSES: Record<string, [string, Record<string, string[]>]> = {
  410: [
    'Gone: the endpoint has been withdrawn (it announced this in its Sunset and Link headers); use its successor.',
    errorExample('$', 'AllocationGroups was withdrawn on 2026-12-31; use AllocationGroupBases instead.'),
  ],
  404: [
    'Not found: a record the request refers to does not exist in the ledgers the caller may see.',
    errorExample('$', 'No record with this id in your ledgers.'),
  ],
  503: ['Not ready: the database cannot be reached.', errorExample('$', 'unavailable')],
};

/** The error statuses a route can answer, from its config (auth), its parameters and whether it takes a body. */
function errorResponses(route: RouteOptions, schema: Schema, facts: RouteFacts): Record<string, unknown> {
  const auth = route.config?.auth;
  const hasBody = schema.body !== undefined;
  const query = (schema.querystring as { properties?: Schema } | undefined)?.properties ?? {};
  const out: Record<string, unknown> = {};
  if (auth || hasBody || Object.keys(query).length || facts.params.length) {
    out[400] = errorResponse(
      400,
      'Invalid request: each offending query parameter, path parameter or body property (or $ for the body as a whole) is listed with its messages.',
      'limit' in query
        ? errorExample('limit', "The value '101' is not valid for limit: must be <= 100.")
        : facts.params[0]
          ? errorExample(facts.params[0], `The value 'abc' is not valid for ${facts.params[0]}: must be integer.`)
          : errorExample('$', 'The request body is not valid JSON.'),
    );
  }
  if (auth) {
    out[401] = {
      type: 'null',
      description:
        'Missing, invalid or expired bearer token' +
        (auth.apiKey === 'required' ? ', or a missing or unknown apiKey' : ', or an unknown apiKey') +
        ' (no body; see the WWW-Authenticate header). Log in again at POST /oauth2/token.',
      headers: {
        'WWW-Authenticate': {
          type: 'string',
          description: 'Bearer, with error="invalid_token" when a token was sent and is not accepted (RFC 6750).',
        },
      },
    };
    out[403] = errorResponse(
      403,
      'The user lacks a permission this endpoint needs (ask an administrator to grant it).',
      errorExample('$', `This endpoint needs the permission(s) ${auth.permissions.map((p) => `'${p}'`).join(', ')}.`),
    );
  }
  if (facts.params.length) {
    out[404] = errorResponse(
      404,
      'No record with this id in the ledgers the caller may see.',
      errorExample(facts.params[0]!, `No record with ${facts.params[0]} 999999 in your ledgers.`),
    );
  }
  if (hasBody) {
    out[413] = errorResponse(
      413,
      'The request body is larger than the configured limit (BODY_LIMIT_BYTES).',
      errorExample('$', 'The request body is larger than the limit of 1048576 bytes.'),
    );
  }
  if (!UNLIMITED.test(route.url))
    out[429] = errorResponse(
      429,
      'Too many requests from this address; wait the seconds given in Retry-After.',
      errorExample('$', 'Too many requests: the limit is 600 per minute; retry in 42 s.'),
      {
        'Retry-After': RETRY_AFTER,
        'X-RateLimit-Limit': { type: 'string', description: 'Requests allowed per window (RATE_LIMIT_PER_MINUTE).' },
        'X-RateLimit-Remaining': { type: 'string', description: 'Requests left in the window.' },
        'X-RateLimit-Reset': { type: 'string', description: 'Seconds until the window starts again.' },
      },
    );
  out[500] = errorResponse(
    500,
    'Unexpected server error (logged with the request id of the x-request-id header).',
    errorExample('$', 'Internal server error. The incident has been logged.'),
  );
  return out;
}

function successDescription(method: string, status: string, array: boolean, facts: RouteFacts): string {
  const record = singular(facts.segments.filter((s) => !/^(Assign|Remove)/.test(s)).at(-1) ?? facts.controller);
  if (status === '204') return 'Done (no content).';
  const action = /^(Assign|Remove)(.*)$/.exec(facts.segments.at(-1) ?? '');
  if (action) return `${action[1] === 'Assign' ? 'Assigned' : 'Removed'} (${action[2]} ids): the ${record}.`;
  if (status === '201') return `Created: the new ${record}.`;
  if (array) return `A page of ${record} records, ordered by Id (an empty array when nothing matches).`;
  if (method === 'DELETE') return `Deleted: the ${record} as it was.`;
  if (method === 'GET') return `The ${record}.`;
  return `Done: the ${record}.`;
}

/** A route's own response schema with the generic description when it has none. */
const describe = (own: Schema, generic: Schema): Schema => ({
  ...own,
  description: own.description ?? generic['x-response-description'] ?? generic.description,
});

/** Gives the record schema of a success response its component name (the item of an array). */
function named(schema: Schema, name: string): Schema {
  if (schema.type === 'array' && schema.items && typeof schema.items === 'object') {
    return { ...schema, items: named(schema.items as Schema, name) };
  }
  if (schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'))) {
    return schema.title ? schema : { ...schema, title: name };
  }
  return schema;
}

function withoutApiKey(querystring: unknown): unknown {
  const q = querystring as { properties?: Schema; required?: string[] } | undefined;
  if (!q?.properties || !('apiKey' in q.properties)) return querystring;
  const { apiKey: _key, ...properties } = q.properties;
  const required = q.required?.filter((n) => n !== 'apiKey');
  return { ...q, properties, ...(required ? { required } : {}) };
}

/** The @fastify/swagger `transform`: the document's view of one route. */
export function transformRoute({ schema, url, route }: { schema: unknown; url: string; route: RouteOptions }) {
  const s = (schema ?? {}) as Schema;
  if (s.hide) return { schema: s, url };
  const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
  const facts = routeFacts(url);
  const auth = route.config?.auth;
  const record = `${singular(facts.segments.filter((x) => !/^(Assign|Remove)/.test(x)).at(-1) ?? facts.controller)}${versionSuffix(facts.version)}`;

  const responses: Record<string, unknown> = {};
  const declared = (s.response ?? {}) as Record<string, Schema>;
  for (const [status, response] of Object.entries(declared)) {
    if (!status.startsWith('2')) continue;
    const array = response.type === 'array';
    const name = facts.version
      ? `${record}${method === 'GET' ? '' : 'Ref'}`
      : `${facts.controller}${pascal(facts.segments.join(' '))}`;
    responses[status] = {
      ...named(response, name),
      description: (response.description as string | undefined) ?? successDescription(method, status, array, facts),
      // A create (201 of a POST that is not an assignment) names what it made in Location (decisions §4).
      ...(method === 'POST' && status === '201' && !/^Assign/.test(facts.segments.at(-1) ?? '')
        ? {
            headers: {
              Location: { type: 'string', description: 'The URL of the record made (same prefix and version).' },
            },
          }
        : {}),
    };
  }
  // The generic answers replace the shared error schemas; a route's own error schema (OAuth errors, 410, 503) stays.
  for (const [status, response] of Object.entries(errorResponses(route, s, facts))) {
    const own = declared[status];
    responses[status] =
      own && own !== ErrorMapSchema && own.type !== 'null' ? describe(own, response as Schema) : response;
  }
  for (const [status, response] of Object.entries(declared)) {
    // the shared error schemas declare 404 on every route; only a route with a path parameter answers it (a list
    // filtered by an unknown id answers [], decisions §3)
    if (status === '404' && response === ErrorMapSchema && !facts.params.length) continue;
    const known = OTHER_STATUSES[status];
    if (response === ErrorMapSchema && known) responses[status] ??= errorResponse(Number(status), ...known);
    else responses[status] ??= describe(response, { description: known?.[0] ?? `Status ${status}.` });
  }

  // Headers a route declares for its answers (`responseHeaders`: by status, '*' for every status it lists)
  const headers = (s.responseHeaders ?? {}) as Record<string, Record<string, Schema>>;
  for (const [status, response] of Object.entries(responses)) {
    const own = headers[status] ?? headers['*'];
    if (own)
      responses[status] = {
        ...(response as Schema),
        headers: { ...((response as Schema).headers as Schema | undefined), ...own },
      };
  }

  const out: Schema = {
    ...s,
    operationId: s.operationId ?? operationId(method, url),
    tags: tagOf(url, s.tags as string[] | undefined),
    security: auth ? [{ oauth2: [], apiKey: [] }, ...(auth.apiKey === 'optional' ? [{ oauth2: [] }] : [])] : [],
    response: responses,
  };
  delete out.responseHeaders;
  // An API route answers in each of the interface's media types, by the Accept header (src/pipeline/09-media-type.ts)
  if (auth) out.produces = MEDIA_TYPES;
  if (s.querystring) out.querystring = withoutApiKey(s.querystring);
  if (s.body && typeof s.body === 'object') {
    const action = facts.segments.at(-1) ?? facts.controller;
    const body = s.body as Schema;
    out.body =
      body.type === 'object'
        ? { ...body, title: body.title ?? `${pascal(action)}${VERBS[method] === 'Put' ? 'Change' : 'Create'}` }
        : body;
    // A body the route takes absent too (TypeBox's Optional: the assign and remove id lists) is marked for
    // transformDocument, which makes the requestBody not required (@fastify/swagger always writes true).
    if ((body as Record<symbol, unknown>)[OptionalKind] === 'Optional')
      out.body = { ...(out.body as Schema), [OPTIONAL_BODY]: true };
  }
  if (s.formBody) {
    out.body = s.formBody;
    out.consumes = ['application/x-www-form-urlencoded'];
    delete out.formBody;
  }
  return { schema: out, url };
}
