// POST /oauth2/token (also /service/oauth2/token): RFC 6749 password grant (4.3) and refresh (6).
import formbody from '@fastify/formbody';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import type { App } from '../app-types.ts';
import { dummyHash, verifyPassword } from './secrets.ts';
import { issueTokens, refreshTokens } from './tokens.ts';
import { findLoginUser } from './users.ts';
import { LoginThrottle } from './login-throttle.ts';
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
  { error: Type.String(), error_description: Type.Optional(Type.String()) },
  { title: 'OAuthError' },
);
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

function oauthError(
  reply: FastifyReply,
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
) {
  return reply
    .code(status)
    .headers({ 'cache-control': 'no-store', pragma: 'no-cache', ...headers })
    .send({ error, error_description: description });
}

const INVALID_LOGIN = 'The user name or password is incorrect.';

export default async function tokenRoutes(app: App) {
  await app.register(formbody);
  const throttle = new LoginThrottle(app.config.loginMaxFailures, app.config.loginLockSeconds);
  const settings = { accessTtl: app.config.accessTokenTtl, refreshTtl: app.config.refreshTokenTtl };

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
          429: { ...OAuthError, description: 'Too many failed logins for this user name; wait Retry-After seconds.' },
        },
      },
      handler: async (request, reply) => {
        if (
          !String(request.headers['content-type'] ?? '')
            .toLowerCase()
            .startsWith('application/x-www-form-urlencoded')
        ) {
          return oauthError(
            reply,
            400,
            'invalid_request',
            'The token request must be sent as application/x-www-form-urlencoded.',
          );
        }
        const body = (request.body ?? {}) as Record<string, unknown>;
        const repeated = Object.keys(body).filter((k) => Array.isArray(body[k]));
        if (repeated.length)
          return oauthError(reply, 400, 'invalid_request', `Parameter(s) sent more than once: ${repeated.join(', ')}.`);
        const p = body as Record<string, string | undefined>;
        if (!p.grant_type) return oauthError(reply, 400, 'invalid_request', 'The parameter grant_type is missing.');
        const now = app.now();

        if (p.grant_type === 'password') {
          const missing = ['username', 'password'].filter((k) => !p[k]);
          if (missing.length)
            return oauthError(reply, 400, 'invalid_request', `Missing parameter(s): ${missing.join(', ')}.`);
          const name = p.username!;
          const wait = throttle.retryAfter(name, now.getTime());
          if (wait > 0)
            return oauthError(
              reply,
              429,
              'too_many_requests',
              'Too many failed logins for this user name; try again later.',
              { 'retry-after': String(wait) },
            );
          const user = await findLoginUser(app.db, name);
          const ok = await verifyPassword(p.password!, user?.password_hash ?? (await dummyHash()));
          if (!user || !ok || user.disabled === 1) {
            throttle.fail(name, now.getTime());
            return oauthError(reply, 400, 'invalid_grant', INVALID_LOGIN);
          }
          throttle.succeed(name);
          return reply
            .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
            .send(await issueTokens(app.db, user.id, settings, now));
        }

        if (p.grant_type === 'refresh_token') {
          if (!p.refresh_token)
            return oauthError(reply, 400, 'invalid_request', 'The parameter refresh_token is missing.');
          const outcome = await refreshTokens(app.db, p.refresh_token, settings, now);
          if (!outcome.ok) return oauthError(reply, 400, 'invalid_grant', outcome.reason);
          return reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).send(outcome.tokens);
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
