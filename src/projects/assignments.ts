// The assignment rules of a project (decisions.md section 4): which ids may be assigned or removed, checked
// against the database, and the changes themselves. Used by the create command and the assign/remove commands.
import { sql, type Kysely } from 'kysely';
import type { Executor } from '../db/database.ts';
import { fixedQueries, fixedQuery } from '../db/fixed-query.ts';
import type { ErrorCollector } from '../http/errors.ts';
import { KINDS, dependentsOf, type AssignmentKind } from './fields.ts';
import type { ArrayField } from './schemas.ts';

/** Ids per statement, well below SQLite's bound-parameter limit. */
const CHUNK = 1000;

function chunks(ids: number[]): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(ids.slice(i, i + CHUNK));
  return out;
}

/** The distinct ids of a list, ascending. */
export function distinct(ids: readonly number[] | null | undefined): number[] {
  return [...new Set(ids ?? [])].sort((a, b) => a - b);
}

/**
 * The error key of each id of a body array: its path, e.g. `Building[2]` (an id given twice: its first place), for
 * ids that do not exist, are of another ledger or are not assigned (decisions §3). Order violations (a missing
 * prerequisite, a dependent still assigned) are keyed by the array itself (decisions §4).
 */
export type IdKeys = (id: number) => string;

export function idKeys(name: string, raw: unknown): IdKeys {
  const first = new Map<unknown, number>();
  if (Array.isArray(raw)) raw.forEach((v, i) => first.has(v) || first.set(v, i));
  return (id) => (first.has(id) ? `${name}[${String(first.get(id))}]` : name);
}

interface Entity {
  id: number;
  company_code_id: number;
  economic_unit_id?: number;
  building_id?: number | null;
}

async function loadEntities(db: Executor, kind: AssignmentKind, ids: number[]): Promise<Map<number, Entity>> {
  const columns = ['id' as const, 'company_code_id' as const, ...kind.needs.map((n) => n.via)];
  const found = new Map<number, Entity>();
  for (const part of chunks(ids)) {
    const rows = (await db.selectFrom(kind.entities).select(columns).where('id', 'in', part).execute()) as Entity[];
    for (const row of rows) found.set(row.id, row);
  }
  return found;
}

/** Answers which of `ids` are assigned (or, during a create, about to be) as `kind`. */
export type AssignedLookup = (kind: ArrayField, ids: number[]) => Promise<Set<number>>;

/** The ids of `kind` among `ids` that are assigned to the project in the database. */
export async function assignedAmong(
  db: Executor,
  projectId: number,
  kind: AssignmentKind,
  ids: number[],
): Promise<Set<number>> {
  const found = new Set<number>();
  for (const part of chunks(ids)) {
    const rows = await db
      .selectFrom(kind.table)
      .select(kind.column)
      .where('project_id', '=', projectId)
      .where(kind.column, 'in', part)
      .execute();
    for (const row of rows) found.add(row[kind.column]);
  }
  return found;
}

/** decisions §4: the entity must exist in the project's ledger (`ledger`; null: the ledger itself is invalid). */
export const notInLedger = (kind: AssignmentKind, id: number, ledger: number | null): string =>
  `The ${kind.label} ${id} does not exist${ledger === null ? '' : ` in ledger ${ledger}, the project's ledger`}.`;

/** decisions §4: the message of an order violation, `id` of `kind` assigned without its prerequisite `parent`. */
export const prerequisiteMissing = (kind: AssignmentKind, id: number, need: ArrayField, parent: number): string =>
  `The ${kind.label} ${id} needs its ${KINDS[need].label} ${parent} assigned to the project first.`;

/**
 * Checks ids for assignment as `kind` to a project of ledger `ledger` (null: the ledger itself is invalid, only
 * existence can be checked): each must exist in that ledger and have its prerequisites assigned. Every violation
 * goes to `errors` under the array name; returns the ids that passed.
 */
export async function checkAssignable(
  db: Executor,
  kind: AssignmentKind,
  ids: number[],
  ledger: number | null,
  isAssigned: AssignedLookup,
  errors: ErrorCollector,
  keyOf: IdKeys = () => kind.name,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const entities = await loadEntities(db, kind, ids);
  const known: Entity[] = [];
  for (const id of ids) {
    const entity = entities.get(id);
    if (!entity || (ledger !== null && entity.company_code_id !== ledger)) {
      errors.add(keyOf(id), notInLedger(kind, id, ledger));
    } else known.push(entity);
  }
  const blocked = new Set<number>();
  for (const need of kind.needs) {
    const wanted = distinct(known.map((e) => e[need.via]).filter((v): v is number => typeof v === 'number'));
    const present = await isAssigned(need.kind, wanted);
    for (const entity of known) {
      const parent = entity[need.via];
      if (typeof parent === 'number' && !present.has(parent)) {
        blocked.add(entity.id);
        // decisions §4: order violations are keyed by the array
        errors.add(kind.name, prerequisiteMissing(kind, entity.id, need.kind, parent));
      }
    }
  }
  return known.filter((e) => !blocked.has(e.id)).map((e) => e.id);
}

/**
 * Checks ids for removal as `kind` from the project: each must be assigned, and nothing assigned may still
 * depend on it (a building's use units, an economic unit's buildings, land and use units).
 */
export async function checkRemovable(
  db: Executor,
  projectId: number,
  kind: AssignmentKind,
  ids: number[],
  errors: ErrorCollector,
  keyOf: IdKeys = () => kind.name,
): Promise<void> {
  if (ids.length === 0) return;
  const assigned = await assignedAmong(db, projectId, kind, ids);
  for (const id of ids)
    if (!assigned.has(id)) errors.add(keyOf(id), `The ${kind.label} ${id} is not assigned to project ${projectId}.`);
  const present = ids.filter((id) => assigned.has(id));
  for (const { kind: dependent, via } of dependentsOf(kind.name)) {
    const holders = new Map<number, number[]>();
    for (const part of chunks(present)) {
      // The two tables and the parent column are chosen at run time from the kinds: Kysely types a join of known
      // tables only, so this one query is written against Kysely<any> (the row type is stated below).
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
      const rows = await (db as Kysely<any>)
        .selectFrom(`${dependent.table} as pa`)
        .innerJoin(`${dependent.entities} as e`, 'e.id', `pa.${dependent.column}`)
        .select(['e.id as id', `e.${via} as parent`])
        .where('pa.project_id', '=', projectId)
        .where(`e.${via}`, 'in', part)
        .orderBy('e.id')
        .execute();
      for (const row of rows as Array<{ id: number; parent: number }>)
        holders.set(row.parent, [...(holders.get(row.parent) ?? []), row.id]);
    }
    for (const id of present) {
      const held = holders.get(id);
      if (held) {
        errors.add(
          kind.name, // the mirror of the assignment order: keyed by the array
          `The ${kind.label} ${id} cannot be removed while its ${dependent.label}${held.length > 1 ? 's' : ''} ${held.join(', ')} ${held.length > 1 ? 'are' : 'is'} assigned to the project; remove ${held.length > 1 ? 'them' : 'it'} first.`,
        );
      }
    }
  }
}

/** Stores assignments; ids already assigned are left alone (no second row). Returns the number of new rows. */
export async function insertAssignments(
  db: Executor,
  projectId: number,
  kind: AssignmentKind,
  ids: number[],
): Promise<number> {
  let inserted = 0;
  for (const part of chunks(ids)) {
    const result = await db
      .insertInto(kind.table)
      .values(part.map((id) => ({ project_id: projectId, [kind.column]: id })))
      .onConflict((oc) => oc.columns(['project_id', kind.column]).doNothing())
      .executeTakeFirst();
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
}

/**
 * The assignment in one statement that checks what it needs (INSERT ... SELECT ... WHERE): stores those of `ids`
 * that exist in the ledger and have their prerequisites assigned to the project, and are not assigned yet.
 * Returns the number of new rows. When it is less than `ids.length`, some ids were already assigned or are not
 * assignable: the caller runs the full checks (checkAssignable) for the error messages.
 */
export async function insertIfAssignable(
  db: Executor,
  projectId: number,
  kind: AssignmentKind,
  ids: number[],
  ledger: number,
): Promise<number> {
  if (ids.length === 0 || ids.length > CHUNK) return 0;
  const args: Record<string, number> = { projectId, ledger };
  ids.forEach((id, i) => (args[`id${i}`] = id));
  const result = await insertIfAssignableQuery({ kind, count: ids.length }).execute(db, args);
  return Number(result.numAffectedRows ?? 0);
}

/** The statement of insertIfAssignable, per kind and number of ids (prepared once per shape; long lists once per
 *  call, as the family keeps a bounded number of shapes). */
const insertIfAssignableQuery = fixedQueries(
  ({ kind, count }: { kind: AssignmentKind; count: number }) => {
    const idNames = Array.from({ length: count }, (_, i) => `id${i}`);
    return fixedQuery<Record<string, number>, never>(['projectId', 'ledger', ...idNames], (_db, a) => {
      const needs = kind.needs.map(
        (n) =>
          sql`and (e.${sql.ref(n.via)} is null or exists (select 1 from ${sql.table(KINDS[n.kind].table)} p
            where p.project_id = ${a.projectId} and p.${sql.ref(KINDS[n.kind].column)} = e.${sql.ref(n.via)}))`,
      );
      return sql`insert into ${sql.table(kind.table)} (project_id, ${sql.ref(kind.column)})
        select cast(${a.projectId} as integer), e.id from ${sql.table(kind.entities)} e
        where e.id in (${sql.join(idNames.map((n) => a[n]))}) and e.company_code_id = ${a.ledger} ${sql.join(needs, sql` `)}
        on conflict (project_id, ${sql.ref(kind.column)}) do nothing`;
    });
  },
  ({ kind, count }) => `${kind.name}:${count}`,
);

/** Deletes assignments; returns the number of rows deleted. */
export async function deleteAssignments(
  db: Executor,
  projectId: number,
  kind: AssignmentKind,
  ids: number[],
): Promise<number> {
  let deleted = 0;
  for (const part of chunks(ids)) {
    const result = await db
      .deleteFrom(kind.table)
      .where('project_id', '=', projectId)
      .where(kind.column, 'in', part)
      .executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}

/** Whether the project has any assignment at all. */
export async function hasAssignments(db: Executor, projectId: number): Promise<boolean> {
  for (const kind of Object.values(KINDS)) {
    const row = await db
      .selectFrom(kind.table)
      .select('project_id')
      .where('project_id', '=', projectId)
      .limit(1)
      .executeTakeFirst();
    if (row) return true;
  }
  return false;
}
