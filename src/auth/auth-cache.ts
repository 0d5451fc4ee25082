// Verified access tokens and API keys, remembered per server process for as long as nothing in users, grants,
// tokens or keys has changed (the database's auth version, which any process's commit moves on). A disabled user,
// a new password, a revoked key or a rotated-away token family is therefore seen on the very next request.
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-types.ts';
import { versionsFor } from '../db/versions.ts';
import { verifyAccessToken, type Principal } from './tokens.ts';
import { resolveApiKey, type ResolvedApiKey } from './api-keys.ts';

const MAX_ENTRIES = 10_000;

class VersionedMap<T> {
  private readonly entries = new Map<string, { version: string; value: T }>();

  get(key: string, version: string): T | undefined {
    const e = this.entries.get(key);
    return e && e.version === version ? e.value : undefined;
  }

  set(key: string, version: string, value: T): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { version, value });
  }
}

/**
 * Entries are keyed by the token or key text itself, not by its digest: hashing on every request cost more than the
 * rest of a cached check. The texts stay in this process's memory only (as they do in each request), never stored.
 */
export class AuthCache {
  private readonly principals = new VersionedMap<Principal>();
  private readonly keys = new VersionedMap<ResolvedApiKey>();

  constructor(private readonly app: App) {}

  /** The user behind a valid access token, or undefined (unknown, expired, revoked, disabled user). */
  async principal(request: FastifyRequest, token: string): Promise<Principal | undefined> {
    const now = this.app.now();
    const { auth } = await versionsFor(this.app.database, request);
    const cached = this.principals.get(token, auth);
    if (cached) return cached.expiresAt > now.toISOString() ? cached : undefined;
    const principal = await verifyAccessToken(this.app.db, token, now);
    if (principal) this.principals.set(token, auth, principal);
    return principal;
  }

  /** The key's ledgers, or undefined for an unknown or revoked key. */
  async apiKey(request: FastifyRequest, key: string): Promise<ResolvedApiKey | undefined> {
    const { auth } = await versionsFor(this.app.database, request);
    const cached = this.keys.get(key, auth);
    if (cached) return cached;
    const resolved = await resolveApiKey(this.app.db, key);
    if (resolved) this.keys.set(key, auth, resolved);
    return resolved;
  }
}
