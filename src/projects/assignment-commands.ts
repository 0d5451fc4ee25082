// The twelve assign/remove writes (derived from the six array fields): one transaction that locks the project, checks
// every id (all errors in one 400, nothing stored on any error), changes the assignments and records the event.
import { inTransaction, type Writer } from '../db/write-queue.ts';
import { fixedQuery } from '../db/fixed-query.ts';
import { ErrorCollector } from '../http/errors.ts';
import { bodyErrors } from '../http/validation.ts';
import { ARRAY_FIELDS, ID_LIST_CHECKS, type ArrayField } from './schemas.ts';
import { KINDS } from './fields.ts';
import {
  assignedAmong,
  checkAssignable,
  checkRemovable,
  deleteAssignments,
  distinct,
  idKeys,
  insertAssignments,
  insertIfAssignable,
} from './assignments.ts';
import { int32Items } from './rules.ts';
import { lockProject, type ProjectRow } from './queries.ts';
import { recordProjectEvent, timestamp, type WriteContext } from './commands.ts';

export interface AssignmentInput extends WriteContext {
  projectId: number;
  /** The request body as parsed JSON: an array of int32 ids; absent, null or [] changes nothing. */
  ids: unknown;
}

export type AssignmentCommand = (db: Writer, input: AssignmentInput) => Promise<ProjectRow>;

/** The distinct valid ids of the body; shape errors keyed by the array name (`Building`, `Building[2]`). */
function idList(name: ArrayField, raw: unknown, errors: ErrorCollector): number[] {
  const map = bodyErrors(ID_LIST_CHECKS[name], { [name]: raw ?? null });
  for (const [key, messages] of Object.entries(map ?? {})) for (const m of messages) errors.add(key, m);
  return distinct(int32Items(raw));
}

/** The project's updated_at after a change of its assignments. */
const touchProject = fixedQuery<{ id: number; updatedAt: string }, never>(['id', 'updatedAt'], (db, a) =>
  db.updateTable('projects').set({ updated_at: a.updatedAt }).where('id', '=', a.id),
);

function assignmentCommand(name: ArrayField, mode: 'assign' | 'remove'): AssignmentCommand {
  const kind = KINDS[name];
  return (db, input) =>
    inTransaction(db, async (trx) => {
      const project = await lockProject(trx, input.projectId, input.scope, 'projectId');
      const errors = new ErrorCollector();
      const ids = idList(name, input.ids, errors);
      let changed: number;
      if (mode === 'assign') {
        // The usual case in one statement; only when it did not store every id are the checks run (for the
        // error messages, or to find that the rest was assigned already). An error rolls the insert back.
        const shapeErrors = Object.keys(errors.errors).length > 0;
        changed = shapeErrors ? 0 : await insertIfAssignable(trx, project.id, kind, ids, project.company_code_id);
        if (shapeErrors || changed < ids.length) {
          const isAssigned = (k: ArrayField, wanted: number[]) => assignedAmong(trx, project.id, KINDS[k], wanted);
          const keys = idKeys(name, input.ids);
          const valid = await checkAssignable(trx, kind, ids, project.company_code_id, isAssigned, errors, keys);
          errors.throwIfAny();
          changed += await insertAssignments(trx, project.id, kind, valid);
        }
      } else {
        await checkRemovable(trx, project.id, kind, ids, errors, idKeys(name, input.ids));
        errors.throwIfAny();
        changed = await deleteAssignments(trx, project.id, kind, ids);
      }
      if (changed === 0) return project;
      // The row after the write is known: the locked row with its new updated_at (no read-back).
      const row = { ...project, updated_at: timestamp(input.now) };
      await touchProject.execute(trx, { id: project.id, updatedAt: row.updated_at });
      await recordProjectEvent(trx, row, 'updated', input);
      return row;
    });
}

/** The twelve commands: assign and remove for each of the six array fields, named by their operation
 *  (AssignEconomicUnit, RemoveLoan, ...), which is also the endpoint's last path segment. */
export const ASSIGNMENT_COMMANDS = (['assign', 'remove'] as const).flatMap((mode) =>
  ARRAY_FIELDS.map((name) => ({
    operation: `${mode === 'assign' ? 'Assign' : 'Remove'}${name}`,
    name,
    mode,
    run: assignmentCommand(name, mode),
  })),
);

/** The command of one operation, e.g. `assignmentCommandOf('AssignBuilding')`. */
export function assignmentCommandOf(operation: `${'Assign' | 'Remove'}${ArrayField}`): AssignmentCommand {
  const found = ASSIGNMENT_COMMANDS.find((c) => c.operation === operation);
  if (!found) throw new Error(`no assignment command ${operation}`);
  return found.run;
}
