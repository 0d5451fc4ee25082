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
