// Reads of projects and their assignments, always within the caller's ledgers.
import { sql, type Selectable } from 'kysely';
import { isPostgres, type Executor } from '../db/database.ts';
import type { ProjectsTable } from './tables.ts';
import { inScope, ledgerCondition, type LedgerScope } from '../auth/ledger-scope.ts';
import { fixedQuery } from '../db/fixed-query.ts';
import { notFound } from '../http/errors.ts';
import { KIND_ORDER } from './fields.ts';
import type { ArrayField } from './schemas.ts';

export type ProjectRow = Selectable<ProjectsTable>;
export type Assignments = Record<ArrayField, number[]>;

const emptyAssignments = (): Assignments => ({
  EconomicUnit: [],
  Building: [],
  Land: [],
  UseUnit: [],
  Budget: [],
  Loan: [],
});

/** The project with this id if it is in the caller's ledgers. */
export async function findProject(db: Executor, id: number, scope: LedgerScope): Promise<ProjectRow | undefined> {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => ledgerCondition(eb.ref('projects.company_code_id'), scope))
    .executeTakeFirst();
}

const projectForWrite = fixedQuery<{ id: number }, ProjectRow>(['id'], (db, { id }) =>
  db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', id)
    .$if(isPostgres(db), (q) => q.forUpdate()),
);

/**
 * The first statement of every write transaction on an existing project: loads it and, on PostgreSQL, locks its
 * row until the transaction ends, so concurrent writes on one project run one after the other (SQLite serializes
 * writers anyway). Unknown or outside the caller's ledgers: 404 keyed by the path parameter.
 */
export async function lockProject(db: Executor, id: number, scope: LedgerScope, key: string): Promise<ProjectRow> {
  // The ledger scope is checked on the row (the same answer as a condition in the query, which would make its text
  // depend on the scope): outside the caller's ledgers is a 404 like an unknown id.
  const row = await projectForWrite.first(db, { id });
  if (!row || !inScope(scope, row.company_code_id)) throw notFound(key, `Project ${id} does not exist.`);
  return row;
}

/** One page of projects in the caller's ledgers, ordered by id. */
export async function listProjects(
  db: Executor,
  scope: LedgerScope,
  page: { limit: number; offset: number },
): Promise<ProjectRow[]> {
  return db
    .selectFrom('projects')
    .selectAll()
    .where((eb) => ledgerCondition(eb.ref('projects.company_code_id'), scope))
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The assigned ids of the given projects, per kind and ascending: one query per kind for all of them. */
export async function assignmentsOf(db: Executor, projectIds: number[]): Promise<Map<number, Assignments>> {
  const out = new Map<number, Assignments>(projectIds.map((id) => [id, emptyAssignments()]));
  if (projectIds.length === 0) return out;
  for (const kind of KIND_ORDER) {
    const rows = await db
      .selectFrom(kind.table)
      .select(['project_id', `${kind.column} as entity_id`])
      .where('project_id', 'in', projectIds)
      .orderBy('project_id')
      .orderBy(kind.column)
      .execute();
    for (const row of rows as Array<{ project_id: number; entity_id: number }>)
      out.get(row.project_id)?.[kind.name].push(row.entity_id);
  }
  return out;
}

const projectByCode = fixedQuery<{ ledger: number; code: string; exceptId: number }, { id: number }>(
  ['ledger', 'code', 'exceptId'],
  (db, a) => {
    const query = db
      .selectFrom('projects')
      .select('id')
      .where('company_code_id', '=', a.ledger)
      .where('code', '=', a.code)
      .where('id', '<>', a.exceptId);
    // PostgreSQL's unique index is on the code's digest (migration 2026112901: codes of any length), so the lookup
    // names the digest too, or it reads every project
    return isPostgres(db) ? query.where(sql<string>`md5(code)`, '=', sql<string>`md5(${a.code})`) : query;
  },
);

/** The id of another project of the ledger that uses this code, if any. */
export async function projectWithCode(
  db: Executor,
  companyCodeId: number,
  code: string,
  exceptId?: number,
): Promise<number | undefined> {
  // Project ids start at 1: 0 excepts none.
  const row = await projectByCode.first(db, { ledger: companyCodeId, code, exceptId: exceptId ?? 0 });
  return row?.id;
}
