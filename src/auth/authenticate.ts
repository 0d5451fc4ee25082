// The bearer check, permission check and API-key scoping of every API route (routes declare config.auth); the
// pipeline step src/pipeline/06-authentication.ts runs it for each request.
// Order: 401 (credentials) before 403 (permission) before 400 (validation, which runs after this hook).
import type { FastifyRequest } from 'fastify';
import type { App, RouteAuth } from '../app-types.ts';
import { badRequest, forbidden, unauthorized } from '../http/errors.ts';
import { AuthCache } from './auth-cache.ts';
import { intersect } from './ledger-scope.ts';

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

function queryValue(request: FastifyRequest, name: string): unknown {
  return (request.query as Record<string, unknown> | undefined)?.[name];
}

/** Checks one request against its route's auth settings; sets request.principal, apiKey and scope, or throws. */
export type Authenticator = (app: App, request: FastifyRequest, auth: RouteAuth) => Promise<void>;

const caches = new WeakMap<App, AuthCache>();

export const bearerAuthentication: Authenticator = async (app, request, auth) => {
  let cache = caches.get(app);
  if (!cache) caches.set(app, (cache = new AuthCache(app)));
  // Query names match whatever their case (docs/limits.md): `Access_Token` is refused as `access_token` is. A token
  // was sent, so the challenge says invalid_token (decisions §2).
  if (Object.keys((request.query as object | undefined) ?? {}).some((name) => name.toLowerCase() === 'access_token')) {
    throw unauthorized('invalid_token', 'Tokens in the query string are not accepted; use the Authorization header.');
  }
  const header = request.headers.authorization;
  if (!header) throw unauthorized();
  const token = BEARER.exec(header)?.[1];
  if (token === undefined) throw unauthorized(/^Bearer\b/i.test(header) ? 'invalid_token' : undefined);
  const principal = await cache.principal(request, token);
  if (!principal) throw unauthorized('invalid_token');
  request.principal = principal;

  // Credentials first (token, then API key: both 401), the permission after them (403).
  const key = queryValue(request, 'apiKey');
  if (key === undefined || key === '') {
    if (auth.apiKey === 'required') throw unauthorized('invalid_request', 'The apiKey query parameter is required.');
    request.scope = principal.userScope;
  } else {
    // Sent twice (also in two spellings, step 5b): a malformed request, as for any single-valued parameter
    if (typeof key !== 'string') throw badRequest('apiKey', 'apiKey is given more than once; give it once.');
    const resolved = await cache.apiKey(request, key);
    if (!resolved) throw unauthorized('invalid_request', 'The API key is unknown or revoked.');
    request.apiKey = resolved;
    request.scope = intersect(resolved.scope, principal.userScope);
  }

  const missing = auth.permissions.filter((p) => !principal.permissions.has(p));
  if (missing.length)
    throw forbidden(`This endpoint needs the permission(s) ${missing.map((m) => `'${m}'`).join(', ')}.`);
};
