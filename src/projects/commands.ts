// The project writes: create, change, delete. Each is one transaction doing its validation (every error in one
// 400), its change and its outbox event; callable without HTTP.
import type { Updateable } from 'kysely';
import type { ProjectsTable } from './tables.ts';
import { inTransaction, type Writer } from '../db/write-queue.ts';
import type { Executor } from '../db/database.ts';
import type { LedgerScope } from '../auth/ledger-scope.ts';
import { ApiError, ErrorCollector, badRequest } from '../http/errors.ts';
import { recordEvents, type EventAction } from '../events/outbox.ts';
import { ProjectChangeBody, ProjectCreateBody, SCALAR_FIELDS, type ArrayField, type ProjectBody } from './schemas.ts';
import { COLUMN, KIND_ORDER, toColumnValue } from './fields.ts';
import { checkFields, checkShape, int32Items } from './rules.ts';
import { checkAssignable, distinct, idKeys, insertAssignments } from './assignments.ts';
import { lockProject, type ProjectRow } from './queries.ts';
import { fixedQuery } from '../db/fixed-query.ts';

/** Who writes and when: the caller's ledgers (API key within the user's grant), the user, the server clock. */
export interface WriteContext {
  scope: LedgerScope;
  userId: number | null;
  now: Date;
}

export interface CreateProjectInput extends WriteContext {
  /** The request body as parsed JSON; checked here. */
  body: unknown;
}

export interface ChangeProjectInput extends WriteContext {
  id: number;
  body: unknown;
}

export interface DeleteProjectInput extends WriteContext {
  id: number;
}

/** Date-time text as stored: ISO 8601 UTC without milliseconds. */
export const timestamp = (now: Date) => now.toISOString().replace(/\.\d{3}Z$/, 'Z');

export async function recordProjectEvent(
  db: Executor,
  row: ProjectRow,
  action: EventAction,
  ctx: WriteContext,
): Promise<void> {
  await recordEvents(
    db,
    [{ entityType: 'Project', entityId: row.id, action, companyCodeId: row.company_code_id, userId: ctx.userId }],
    ctx.now,
  );
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Runs a statement that may collide with the (company_code_id, code) index (concurrent writers): a 400 on Code. */
async function guardCode<T>(code: unknown, ledger: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err))
      throw badRequest('Code', `The code '${String(code)}' is already used by another project in ledger ${ledger}.`);
    throw err;
  }
}

/** The columns a body sets (present properties only; 0 for a cost object stored as null). */
function columnsOf(body: ProjectBody): Updateable<ProjectsTable> {
  const row: Record<string, unknown> = {};
  for (const field of SCALAR_FIELDS)
    if (Object.hasOwn(body, field)) row[COLUMN[field]] = toColumnValue(field, body[field]);
  return row;
}

type NewProject = Omit<ProjectRow, 'id'>;
/** Every column of a new project, in table order (a property the body leaves out is stored as null). */
const NEW_PROJECT_COLUMNS = [
  ...SCALAR_FIELDS.map((f) => COLUMN[f]),
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof NewProject>;

/** The insert of a create: every column given, so its text (and prepared statement) is the same for every body. */
const insertProject = fixedQuery<NewProject, { id: number }>(NEW_PROJECT_COLUMNS, (db, row) =>
  db.insertInto('projects').values(row).returning('id'),
);

/** POST .../Project: the project and the assignments of its six arrays, all or nothing. */
export async function createProject(db: Writer, input: CreateProjectInput): Promise<ProjectRow> {
  return inTransaction(db, async (trx) => {
    const errors = new ErrorCollector();
    const body = checkShape(ProjectCreateBody, input.body, errors, false);
    if (!body) throw new ApiError(400, 'bad_request', errors.errors);
    const ledger = await checkFields(trx, { body, errors, scope: input.scope });
    // Without a usable ledger (its error is reported) the arrays are not judged: an id of a ledger the caller cannot
    // see must get the same answer as an unknown id (decisions §2), and there is no project ledger to judge them in.
    if (ledger === null) errors.throwIfAny();

    // The arrays in dependency order: a prerequisite counts when it is (validly) in the same body.
    const planned = new Map<ArrayField, Set<number>>();
    for (const kind of KIND_ORDER) {
      const ids = distinct(int32Items(body[kind.name]));
      const isPlanned = async (k: ArrayField, wanted: number[]) =>
        new Set(wanted.filter((id) => planned.get(k)?.has(id)));
      const keys = idKeys(kind.name, body[kind.name]);
      planned.set(kind.name, new Set(await checkAssignable(trx, kind, ids, ledger, isPlanned, errors, keys)));
    }
    errors.throwIfAny();

    const stamp = timestamp(input.now);
    const given = columnsOf(body) as Partial<NewProject>;
    const values = Object.fromEntries(NEW_PROJECT_COLUMNS.map((c) => [c, given[c] ?? null])) as NewProject;
    Object.assign(values, { created_at: stamp, updated_at: stamp });
    // The stored row is the values and the new id: nothing to read back.
    const { id } = (await guardCode(body.Code, ledger as number, () => insertProject.first(trx, values)))!;
    const row: ProjectRow = { id, ...values };
    for (const kind of KIND_ORDER) await insertAssignments(trx, row.id, kind, [...(planned.get(kind.name) ?? [])]);
    await recordProjectEvent(trx, row, 'created', input);
    return row;
  });
}

/** PUT .../Project/{id}: changes the properties present in the body. */
export async function changeProject(db: Writer, input: ChangeProjectInput): Promise<ProjectRow> {
  return inTransaction(db, async (trx) => {
    const current = await lockProject(trx, input.id, input.scope, 'id');
    const errors = new ErrorCollector();
    const body = checkShape(ProjectChangeBody, input.body, errors, true);
    if (!body) throw new ApiError(400, 'bad_request', errors.errors);
    const ledger = await checkFields(trx, { body, errors, scope: input.scope, current });
    errors.throwIfAny();

    const wanted = columnsOf(body) as Record<string, unknown>;
    const changed = Object.keys(wanted).filter((column) => wanted[column] !== current[column as keyof ProjectRow]);
    if (changed.length === 0) return current;
    const row = await guardCode(body.Code ?? current.code, ledger as number, () =>
      trx
        .updateTable('projects')
        .set({ ...wanted, updated_at: timestamp(input.now) })
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    await recordProjectEvent(trx, row, 'updated', input);
    return row;
  });
}

/** DELETE .../Project/{id}: the project and its assignments (never the assigned entities). */
export async function deleteProject(db: Writer, input: DeleteProjectInput): Promise<ProjectRow> {
  return inTransaction(db, async (trx) => {
    const row = await lockProject(trx, input.id, input.scope, 'id');
    await trx.deleteFrom('projects').where('id', '=', row.id).execute();
    await recordProjectEvent(trx, row, 'deleted', input);
    return row;
  });
}
