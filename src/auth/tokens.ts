// OAuth 2.0 tokens: opaque random strings, stored as SHA-256 digests. Refresh tokens rotate; reusing a
// rotated refresh token revokes its whole family (RFC 6819 5.2.2.3).
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { randomSecret, sameDigest, sha256 } from './secrets.ts';
import type { Permission } from './permissions.ts';
import type { LedgerScope } from './ledger-scope.ts';

export interface TokenSettings {
  accessTtl: number;
  refreshTtl: number;
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
}

export async function issueTokens(
  db: Kysely<DB>,
  userId: number,
  settings: TokenSettings,
  now: Date,
  family: string = crypto.randomUUID(),
): Promise<IssuedTokens> {
  const access = randomSecret();
  const refresh = randomSecret();
  const created = now.toISOString();
  await db
    .insertInto('oauth_tokens')
    .values([
      {
        token_hash: sha256(access),
        kind: 'access',
        user_id: userId,
        family,
        expires_at: new Date(now.getTime() + settings.accessTtl * 1000).toISOString(),
        created_at: created,
      },
      {
        token_hash: sha256(refresh),
        kind: 'refresh',
        user_id: userId,
        family,
        expires_at: new Date(now.getTime() + settings.refreshTtl * 1000).toISOString(),
        created_at: created,
      },
    ])
    .execute();
  return { access_token: access, token_type: 'bearer', expires_in: settings.accessTtl, refresh_token: refresh };
}

/**
 * Deletes expired tokens: the user's own at each login, everybody's at most once a minute per process (the table
 * would otherwise grow by two rows per login forever). A rotated refresh token stays until it expires, so its
 * reuse still revokes its family until then.
 */
export async function purgeExpiredTokens(db: Kysely<DB>, userId: number, now: Date, everybody: boolean) {
  let query = db.deleteFrom('oauth_tokens').where('expires_at', '<=', now.toISOString());
  if (!everybody) query = query.where('user_id', '=', userId);
  await query.execute();
}

export type RefreshOutcome = { ok: true; tokens: IssuedTokens } | { ok: false; reason: string };

export async function refreshTokens(
  db: Kysely<DB>,
  refreshToken: string,
  settings: TokenSettings,
  now: Date,
): Promise<RefreshOutcome> {
  const digest = sha256(refreshToken);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('oauth_tokens')
      .innerJoin('users', 'users.id', 'oauth_tokens.user_id')
      .select([
        'oauth_tokens.id',
        'oauth_tokens.token_hash',
        'oauth_tokens.family',
        'oauth_tokens.expires_at',
        'oauth_tokens.used_at',
        'oauth_tokens.revoked',
        'oauth_tokens.user_id',
        'users.disabled',
      ])
      .where('oauth_tokens.token_hash', '=', digest)
      .where('oauth_tokens.kind', '=', 'refresh')
      .executeTakeFirst();
    if (!row || !sameDigest(row.token_hash, digest)) return { ok: false, reason: 'The refresh token is invalid.' };
    if (row.used_at !== null) {
      // Replay of a rotated token: someone else may hold the family. End it.
      await trx.updateTable('oauth_tokens').set({ revoked: 1 }).where('family', '=', row.family).execute();
      return { ok: false, reason: 'The refresh token was already used; its session has been revoked.' };
    }
    if (row.revoked === 1 || row.disabled === 1 || row.expires_at <= now.toISOString()) {
      return { ok: false, reason: 'The refresh token is expired or revoked.' };
    }
    const claimed = await trx
      .updateTable('oauth_tokens')
      .set({ used_at: now.toISOString() })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) {
      // Another request used it between our read and our claim (PostgreSQL, two refreshes at once): a replay too.
      await trx.updateTable('oauth_tokens').set({ revoked: 1 }).where('family', '=', row.family).execute();
      return { ok: false, reason: 'The refresh token was already used; its session has been revoked.' };
    }
    return {
      ok: true,
      tokens: await issueTokens(trx, row.user_id, settings, now, row.family),
    };
  });
}

export interface Principal {
  userId: number;
  userName: string;
  permissions: Set<Permission>;
  userScope: LedgerScope;
  /** When the access token expires (ISO 8601). */
  expiresAt: string;
}

/** The user behind a valid, unexpired, unrevoked access token of an enabled user; undefined otherwise. */
export async function verifyAccessToken(db: Kysely<DB>, token: string, now: Date): Promise<Principal | undefined> {
  const digest = sha256(token);
  const row = await db
    .selectFrom('oauth_tokens')
    .innerJoin('users', 'users.id', 'oauth_tokens.user_id')
    .select([
      'oauth_tokens.token_hash',
      'oauth_tokens.expires_at',
      'users.id as user_id',
      'users.name',
      'users.all_ledgers',
    ])
    .where('oauth_tokens.token_hash', '=', digest)
    .where('oauth_tokens.kind', '=', 'access')
    .where('oauth_tokens.revoked', '=', 0)
    .where('users.disabled', '=', 0)
    .executeTakeFirst();
  if (!row || !sameDigest(row.token_hash, digest) || row.expires_at <= now.toISOString()) return undefined;
  const perms = await db
    .selectFrom('user_permissions')
    .select('permission')
    .where('user_id', '=', row.user_id)
    .execute();
  let userScope: LedgerScope = { all: true };
  if (row.all_ledgers !== 1) {
    const ledgers = await db
      .selectFrom('user_ledgers')
      .select('company_code_id')
      .where('user_id', '=', row.user_id)
      .execute();
    userScope = { all: false, ids: ledgers.map((l) => l.company_code_id) };
  }
  return {
    userId: row.user_id,
    userName: row.name,
    permissions: new Set(perms.map((p) => p.permission as Permission)),
    userScope,
    expiresAt: row.expires_at,
  };
}
