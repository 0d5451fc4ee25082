// The set of ledgers (company codes) a request may see, and how queries apply it.
import { sql, type Expression, type SqlBool } from 'kysely';

export type LedgerScope = { all: true } | { all: false; ids: number[] };

export const ALL_LEDGERS: LedgerScope = { all: true };

/** Intersection of two scopes (API key and user grant). */
export function intersect(a: LedgerScope, b: LedgerScope): LedgerScope {
  if (a.all) return b;
  if (b.all) return a;
  const set = new Set(b.ids);
  return { all: false, ids: a.ids.filter((id) => set.has(id)) };
}

export function inScope(scope: LedgerScope, companyCodeId: number | null | undefined): boolean {
  if (scope.all) return true;
  return companyCodeId != null && scope.ids.includes(companyCodeId);
}

/**
 * A WHERE condition for a query: `column IN (visible ledgers)`, or true for all ledgers.
 * Usage: `.where((eb) => ledgerCondition(eb.ref('economic_units.company_code_id'), scope))`
 */
export function ledgerCondition(column: Expression<number | null>, scope: LedgerScope): Expression<SqlBool> {
  if (scope.all) return sql<SqlBool>`1 = 1`;
  if (scope.ids.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${column} in (${sql.join(scope.ids)})`;
}

/**
 * A scope as values of a fixed query (src/db/fixed-query.ts): `allLedgers`, or each visible ledger as s0, s1, ...,
 * so that the query's shape holds how many ledgers there are and the statement's parameters hold which.
 */
export function scopeValues(scope: LedgerScope): Record<string, unknown> {
  if (scope.all) return { allLedgers: true };
  const v: Record<string, unknown> = {};
  scope.ids.forEach((id, i) => (v[`s${i}`] = id));
  return v;
}

/** The scope of values made by `scopeValues` (inside a fixed query's build: the values are its placeholders). */
export function scopeOf(v: Record<string, unknown>): LedgerScope {
  if (v.allLedgers !== undefined) return ALL_LEDGERS;
  return { all: false, ids: Object.keys(v).flatMap((k) => (/^s\d+$/.test(k) ? [v[k] as number] : [])) };
}
