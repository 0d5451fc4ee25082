// POST /oauth2/token (also /service/oauth2/token): RFC 6749 password grant (4.3) and refresh (6). Every error,
// including the framework's (wrong content type, body too large, rate limit), is an RFC 6749 section 5.2 answer
// with Cache-Control: no-store and Pragma: no-cache; error_description holds only the characters 5.2 allows.
import formbody from '@fastify/formbody';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyReply } from 'fastify';
import type { Transaction } from 'kysely';
import type { App } from '../app-types.ts';
import type { DB } from '../db/schema.ts';
import { dummyHash, verifyPassword } from './secrets.ts';
import { issueTokens, purgeExpiredTokens, refreshTokens } from './tokens.ts';
import { findLoginUser } from './users.ts';
import {
  addressKeys,
  onePerName,
  purgeThrottle,
  recordFailure,
  recordSuccess,
  reserveAttempt,
  retryAfter,
  throttleKeys,
  userKeyOf,
} from './login-throttle.ts';
import { textProblem } from '../http/input-rules.ts';
import { ApiError, databaseTrouble, errorHandler } from '../http/errors.ts';
import { API_PREFIXES } from '../api.ts';

const TokenResponse = Type.Object(
  {
    access_token: Type.String({ description: 'Send as Authorization: Bearer <access_token>' }),
    token_type: Type.Literal('bearer'),
    expires_in: Type.Integer({ description: 'Seconds until the access token expires' }),
    refresh_token: Type.String({ description: 'For grant_type=refresh_token (single use)' }),
  },
  { title: 'TokenResponse', description: 'Tokens issued.' },
);
const OAuthError = Type.Object(
  {
    error: Type.String({
      description:
        'RFC 6749 5.2: invalid_request, invalid_grant or unsupported_grant_type (400 and 413); invalid_grant (429: too ' +
        'many failed logins for the user name) or invalid_request (429: too many requests from the address); ' +
        'temporarily_unavailable (503: the database did not take the request; retry after Retry-After seconds)',
    }),
    error_description: Type.Optional(Type.String()),
  },
  { title: 'OAuthError' },
);
const RETRY_AFTER = { type: 'string', description: 'Seconds to wait before trying again.' };
/** The form fields (OpenAPI only: the handler checks them itself, answering OAuth errors). */
const TokenRequest = Type.Object(
  {
    grant_type: Type.Union([Type.Literal('password'), Type.Literal('refresh_token')]),
    username: Type.Optional(Type.String({ description: 'grant_type=password: the user name' })),
    password: Type.Optional(Type.String({ description: 'grant_type=password: the password', format: 'password' })),
    refresh_token: Type.Optional(Type.String({ description: 'grant_type=refresh_token: the last refresh token' })),
  },
  { title: 'TokenRequest', examples: [{ grant_type: 'password', username: 'demo', password: 'secret' }] },
);
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** RFC 6749 5.2: error_description is %x20-21 / %x23-5B / %x5D-7E; anything else (client text) becomes '?'. */
export const describeSafely = (text: string) => text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '?').slice(0, 500);

function oauthError(
  reply: FastifyReply,
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
) {
  return reply
    .code(status)
    .headers({ ...NO_STORE, ...headers })
    .send({ error, error_description: describeSafely(description) });
}

const INVALID_LOGIN = 'The user name or password is incorrect.';

/** A write of the login path in its own transaction: on SQLite its lock is then waited for on timers
 *  (src/db/sqlite-dialect.ts), so a login while an import holds the lock does not stop the event loop. */
const inWriteTransaction = <T>(app: App, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> =>
  app.db.transaction().execute(work);
const FORM = 'The token request must be sent as application/x-www-form-urlencoded.';

export default async function tokenRoutes(app: App) {
  await app.register(formbody);
  const throttle = {
    userFree: app.config.loginMaxFailures,
    addressFree: app.config.loginAddressMaxFailures,
    maxWait: app.config.loginLockSeconds,
  };
  const settings = { accessTtl: app.config.accessTokenTtl, refreshTtl: app.config.refreshTokenTtl };
  let lastPurge = 0;

  // Client errors before the handler (content type, body size, rate limit) in the same RFC 6749 shape. Anything else
  // is not the client's fault: the API's own answers (503 with Retry-After for a database out of reach or busy, 500
  // for a bug), never an invalid_request a client would not retry.
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // Fastify's errors carry statusCode, ours (the JSON body parser's, for a client that sends JSON) status
    const given = err instanceof ApiError ? err.status : err.statusCode;
    if (!(given !== undefined && given >= 400 && given < 500)) {
      // a database that may take the request again: RFC 6749's temporarily_unavailable, with Retry-After
      const trouble = databaseTrouble(err, request);
      if (trouble)
        return oauthError(reply, 503, 'temporarily_unavailable', trouble.message, {
          'retry-after': trouble.retryAfter,
        });
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return errorHandler(err, request, reply);
    }
    const status = given === 413 || given === 429 ? given : 400;
    if (status === 429) return oauthError(reply, 429, 'invalid_request', 'Too many requests; try again later.');
    const description =
      err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
        ? FORM
        : status === 413
          ? 'The request body is too large.'
          : 'The token request is malformed.';
    return oauthError(reply, status, 'invalid_request', description);
  });

  for (const url of ['/oauth2/token', ...API_PREFIXES.map((prefix) => `${prefix}/oauth2/token`)]) {
    app.post(url, {
      schema: {
        tags: ['OAuth 2.0'],
        summary: 'Token endpoint (RFC 6749 password and refresh_token grants, application/x-www-form-urlencoded)',
        description: 'Log in with grant_type=password (username, password) or renew with grant_type=refresh_token.',
        hide: url !== '/oauth2/token',
        formBody: TokenRequest,
        response: {
          200: TokenResponse,
          400: {
            ...OAuthError,
            description: 'invalid_request, invalid_grant or unsupported_grant_type (RFC 6749 5.2)',
          },
          413: {
            ...OAuthError,
            description: 'The form body is larger than the body limit.',
            examples: [{ error: 'invalid_request', error_description: 'The request body is too large.' }],
          },
          429: {
            ...OAuthError,
            description:
              'Too many failed logins for this user name, or requests from this address; wait Retry-After seconds.',
            examples: [{ error: 'invalid_grant', error_description: 'Too many failed logins; try again later.' }],
            headers: { 'Retry-After': RETRY_AFTER },
          },
          503: {
            ...OAuthError,
            description: 'The database did not take the request; retry after Retry-After seconds.',
            examples: [
              {
                error: 'temporarily_unavailable',
                error_description:
                  'The database is busy with another writer (an import, say) and did not take this request; nothing was changed: retry in 5 s.',
              },
            ],
            headers: { 'Retry-After': RETRY_AFTER },
          },
        },
      },
      handler: async (request, reply) => {
        if (
          !String(request.headers['content-type'] ?? '')
            .toLowerCase()
            .startsWith('application/x-www-form-urlencoded')
        ) {
          return oauthError(reply, 400, 'invalid_request', FORM);
        }
        const body = (request.body ?? {}) as Record<string, unknown>;
        const repeated = Object.keys(body).filter((k) => Array.isArray(body[k]));
        if (repeated.length)
          return oauthError(reply, 400, 'invalid_request', `Parameter(s) sent more than once: ${repeated.join(', ')}.`);
        const p = body as Record<string, string | undefined>;
        for (const [name, value] of Object.entries(p)) {
          const problem = typeof value === 'string' ? textProblem(value, 'query') : undefined;
          if (problem) return oauthError(reply, 400, 'invalid_request', `The parameter ${name} ${problem}.`);
        }
        if (!p.grant_type) return oauthError(reply, 400, 'invalid_request', 'The parameter grant_type is missing.');
        const now = app.now();

        if (p.grant_type === 'password') {
          const missing = ['username', 'password'].filter((k) => !p[k]);
          if (missing.length)
            return oauthError(reply, 400, 'invalid_request', `Missing parameter(s): ${missing.join(', ')}.`);
          const name = p.username!;
          const keys = throttleKeys(name, request.ip, throttle);
          const refused = (wait: number) =>
            oauthError(reply, 429, 'invalid_grant', 'Too many failed logins; try again later.', {
              'retry-after': String(wait),
            });
          // a wait that runs is read without the write lock and without queueing
          const running = await retryAfter(app.db, keys, now);
          if (running > 0) return refused(running);
          // One attempt per user name at a time in this process: an attempt is counted on its user name before the
          // password is checked, so correct logins sent at once would otherwise count against each other
          const queued = onePerName(userKeyOf(keys), async () => {
            const at = app.now();
            const wait =
              (await retryAfter(app.db, keys, at)) ||
              (await inWriteTransaction(app, (trx) => reserveAttempt(trx, keys, at, throttle.maxWait)));
            if (wait > 0) return refused(wait);
            const user = await findLoginUser(app.db, name);
            const ok = await verifyPassword(p.password!, user?.password_hash ?? (await dummyHash()));
            if (!user || !ok || user.disabled === 1) {
              await inWriteTransaction(app, (trx) => recordFailure(trx, addressKeys(keys), at, throttle.maxWait));
              return oauthError(reply, 400, 'invalid_grant', INVALID_LOGIN);
            }
            const everybody = at.getTime() - lastPurge >= 60_000;
            if (everybody) lastPurge = at.getTime();
            const tokens = await inWriteTransaction(app, async (trx) => {
              await recordSuccess(trx, keys);
              if (everybody) await purgeThrottle(trx, at);
              await purgeExpiredTokens(trx, user.id, at, everybody);
              return issueTokens(trx, user.id, settings, at);
            });
            return reply.headers(NO_STORE).send(tokens);
          });
          return (
            queued ??
            oauthError(reply, 429, 'invalid_request', 'Too many logins for this user name at once; try again later.', {
              'retry-after': '1',
            })
          );
        }

        if (p.grant_type === 'refresh_token') {
          if (!p.refresh_token)
            return oauthError(reply, 400, 'invalid_request', 'The parameter refresh_token is missing.');
          const outcome = await refreshTokens(app.db, p.refresh_token, settings, now);
          if (!outcome.ok) return oauthError(reply, 400, 'invalid_grant', outcome.reason);
          return reply.headers(NO_STORE).send(outcome.tokens);
        }

        return oauthError(
          reply,
          400,
          'unsupported_grant_type',
          `The grant type '${p.grant_type}' is not supported; use password or refresh_token.`,
        );
      },
    });
  }
}
