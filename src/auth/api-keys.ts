// API keys: identify a client application and scope its ledgers. Stored only as SHA-256 digests.
import type { Executor } from '../db/database.ts';
import { CommandError, atomically, checkLedgers } from './users.ts';
import { randomSecret, sameDigest, sha256 } from './secrets.ts';
import type { LedgerScope } from './ledger-scope.ts';

export interface NewApiKey {
  name: string;
  ledgers: number[] | 'all';
}

export async function createApiKey(db: Executor, input: NewApiKey, now = new Date()): Promise<string> {
  if (!/^[A-Za-z0-9._-]([A-Za-z0-9._ -]{0,98}[A-Za-z0-9._-])?$/.test(input.name))
    throw new CommandError(
      `invalid key name '${input.name}'; choose 1 to 100 of letters, digits, space, . _ - (no space first or last)`,
    );
  if (input.ledgers !== 'all' && input.ledgers.length === 0)
    throw new CommandError('an API key needs at least one ledger, or all ledgers');
  return atomically(db, async (db) => {
    if (input.ledgers !== 'all') await checkLedgers(db, input.ledgers);
    const exists = await db.selectFrom('api_keys').select('id').where('name', '=', input.name).executeTakeFirst();
    if (exists)
      throw new CommandError(
        `an API key named '${input.name}' already exists; choose another --name (see them with 'wohnapi apikey list')`,
      );
    const key = randomSecret('wk_');
    const { id } = await db
      .insertInto('api_keys')
      .values({
        name: input.name,
        key_hash: sha256(key),
        all_ledgers: input.ledgers === 'all' ? 1 : 0,
        created_at: now.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (input.ledgers !== 'all') {
      const ids = [...new Set(input.ledgers)];
      await db
        .insertInto('api_key_ledgers')
        .values(ids.map((c) => ({ api_key_id: id, company_code_id: c })))
        .execute();
    }
    return key;
  });
}

export interface ApiKeySummary {
  name: string;
  ledgers: number[] | 'all';
  createdAt: string;
  revoked: boolean;
}

export async function listApiKeys(db: Executor): Promise<ApiKeySummary[]> {
  const keys = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'all_ledgers', 'created_at', 'revoked_at'])
    .orderBy('name')
    .execute();
  const ledgers = await db.selectFrom('api_key_ledgers').selectAll().orderBy('company_code_id').execute();
  return keys.map((k) => ({
    name: k.name,
    ledgers: k.all_ledgers === 1 ? 'all' : ledgers.filter((l) => l.api_key_id === k.id).map((l) => l.company_code_id),
    createdAt: k.created_at,
    revoked: k.revoked_at !== null,
  }));
}

export async function revokeApiKey(db: Executor, name: string, now = new Date()): Promise<void> {
  const res = await db
    .updateTable('api_keys')
    .set({ revoked_at: now.toISOString() })
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0)
    throw new CommandError(`no active API key named '${name}'; see the keys with 'wohnapi apikey list'`);
}

export interface ResolvedApiKey {
  id: number;
  name: string;
  scope: LedgerScope;
}

/** The key's identity and ledger scope, or undefined for an unknown or revoked key. */
export async function resolveApiKey(db: Executor, key: string): Promise<ResolvedApiKey | undefined> {
  const digest = sha256(key);
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'key_hash', 'all_ledgers'])
    .where('key_hash', '=', digest)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row || !sameDigest(row.key_hash, digest)) return undefined;
  if (row.all_ledgers === 1) return { id: row.id, name: row.name, scope: { all: true } };
  const ids = await db
    .selectFrom('api_key_ledgers')
    .select('company_code_id')
    .where('api_key_id', '=', row.id)
    .execute();
  return { id: row.id, name: row.name, scope: { all: false, ids: ids.map((r) => r.company_code_id) } };
}
