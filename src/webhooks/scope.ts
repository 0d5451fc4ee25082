// The ledgers a webhook delivers for, and who may see it: one place for both rules (docs/webhooks.md, "Which events a
// webhook gets" and "Who sees a webhook"). A webhook delivers for its key's ledgers narrowed by the grant of the user
// who registered it (the key's alone when the operator's CLI registered it). A caller (user U with key K) sees a
// webhook only if it belongs to K and every ledger it delivers for is within the caller's scope (K ∩ U's grant);
// any other webhook is treated as if it did not exist (decisions.md §2).
import type { Executor } from '../db/database.ts';
import { inScope, intersect, type LedgerScope } from '../auth/ledger-scope.ts';

/** Who asks: the key and the caller's scope (the key's ledgers within the user's grant). Operators pass none. */
export interface WebhookAccess {
  apiKeyId: number;
  scope: LedgerScope;
}

/** What a webhook's delivery scope depends on (selected by `withScopeColumns`). */
export interface ScopeSource {
  id: number;
  api_key_id: number;
  owner_user_id: number | null;
  key_all: number;
  user_all: number | null;
}

/** Whether every ledger of `inner` is within `outer`. */
export function within(inner: LedgerScope, outer: LedgerScope): boolean {
  if (outer.all) return true;
  return !inner.all && inner.ids.every((id) => inScope(outer, id));
}

/** Each webhook's delivery scope: its key's ledgers intersected with its owner's grant (no owner: the key's alone). */
export async function deliveryScopes(db: Executor, rows: ScopeSource[]): Promise<Map<number, LedgerScope>> {
  const scopes = new Map<number, LedgerScope>();
  if (rows.length === 0) return scopes;
  const keyIds = [...new Set(rows.filter((r) => r.key_all !== 1).map((r) => r.api_key_id))];
  const keyLedgers = keyIds.length
    ? await db
        .selectFrom('api_key_ledgers')
        .select(['api_key_id', 'company_code_id'])
        .where('api_key_id', 'in', keyIds)
        .execute()
    : [];
  const owners = [
    ...new Set(rows.filter((r) => r.owner_user_id !== null && r.user_all !== 1).map((r) => r.owner_user_id as number)),
  ];
  const userLedgers = owners.length
    ? await db
        .selectFrom('user_ledgers')
        .select(['user_id', 'company_code_id'])
        .where('user_id', 'in', owners)
        .execute()
    : [];
  for (const r of rows) {
    const keyScope: LedgerScope =
      r.key_all === 1
        ? { all: true }
        : { all: false, ids: keyLedgers.filter((l) => l.api_key_id === r.api_key_id).map((l) => l.company_code_id) };
    const userScope: LedgerScope =
      r.owner_user_id === null || r.user_all === 1
        ? { all: true }
        : { all: false, ids: userLedgers.filter((l) => l.user_id === r.owner_user_id).map((l) => l.company_code_id) };
    scopes.set(r.id, intersect(keyScope, userScope));
  }
  return scopes;
}

/** The webhooks of `rows` that `access` may see (all of them for the operator), in their order. */
export async function visibleTo<T extends ScopeSource>(db: Executor, rows: T[], access?: WebhookAccess): Promise<T[]> {
  if (!access) return rows;
  const own = rows.filter((r) => r.api_key_id === access.apiKeyId);
  if (access.scope.all) return own;
  const scopes = await deliveryScopes(db, own);
  return own.filter((r) => within(scopes.get(r.id)!, access.scope));
}
