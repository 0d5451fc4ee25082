// The twelve assign/remove writes (one named command each): one transaction that locks the project, checks
// every id (all errors in one 400, nothing stored on any error), changes the assignments and records the event.
import { inTransaction, type Writer } from '../db/write-queue.ts';
import { ErrorCollector } from '../http/errors.ts';
import { bodyErrors } from '../http/validation.ts';
import { ID_LIST_CHECKS, type ArrayField } from './schemas.ts';
import { KINDS } from './fields.ts';
import {
  assignedAmong,
  checkAssignable,
  checkRemovable,
  deleteAssignments,
  distinct,
  insertAssignments,
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

function assignmentCommand(name: ArrayField, mode: 'assign' | 'remove'): AssignmentCommand {
  const kind = KINDS[name];
  return (db, input) =>
    inTransaction(db, async (trx) => {
      const project = await lockProject(trx, input.projectId, input.scope, 'projectId');
      const errors = new ErrorCollector();
      const ids = idList(name, input.ids, errors);
      let changed: number;
      if (mode === 'assign') {
        const isAssigned = (k: ArrayField, wanted: number[]) => assignedAmong(trx, project.id, KINDS[k], wanted);
        const valid = await checkAssignable(trx, kind, ids, project.company_code_id, isAssigned, errors);
        errors.throwIfAny();
        changed = await insertAssignments(trx, project.id, kind, valid);
      } else {
        await checkRemovable(trx, project.id, kind, ids, errors);
        errors.throwIfAny();
        changed = await deleteAssignments(trx, project.id, kind, ids);
      }
      if (changed === 0) return project;
      const row = await trx
        .updateTable('projects')
        .set({ updated_at: timestamp(input.now) })
        .where('id', '=', project.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordProjectEvent(trx, row, 'updated', input);
      return row;
    });
}

export const assignEconomicUnits = assignmentCommand('EconomicUnit', 'assign');
export const assignBuildings = assignmentCommand('Building', 'assign');
export const assignLands = assignmentCommand('Land', 'assign');
export const assignUseUnits = assignmentCommand('UseUnit', 'assign');
export const assignBudgets = assignmentCommand('Budget', 'assign');
export const assignLoans = assignmentCommand('Loan', 'assign');
export const removeEconomicUnits = assignmentCommand('EconomicUnit', 'remove');
export const removeBuildings = assignmentCommand('Building', 'remove');
export const removeLands = assignmentCommand('Land', 'remove');
export const removeUseUnits = assignmentCommand('UseUnit', 'remove');
export const removeBudgets = assignmentCommand('Budget', 'remove');
export const removeLoans = assignmentCommand('Loan', 'remove');

/** The command behind each endpoint, by its operation name (AssignEconomicUnit, RemoveLoan, ...). */
export const ASSIGNMENT_COMMANDS: Array<{
  operation: string;
  name: ArrayField;
  mode: 'assign' | 'remove';
  run: AssignmentCommand;
}> = [
  { operation: 'AssignEconomicUnit', name: 'EconomicUnit', mode: 'assign', run: assignEconomicUnits },
  { operation: 'AssignBuilding', name: 'Building', mode: 'assign', run: assignBuildings },
  { operation: 'AssignLand', name: 'Land', mode: 'assign', run: assignLands },
  { operation: 'AssignUseUnit', name: 'UseUnit', mode: 'assign', run: assignUseUnits },
  { operation: 'AssignBudget', name: 'Budget', mode: 'assign', run: assignBudgets },
  { operation: 'AssignLoan', name: 'Loan', mode: 'assign', run: assignLoans },
  { operation: 'RemoveEconomicUnit', name: 'EconomicUnit', mode: 'remove', run: removeEconomicUnits },
  { operation: 'RemoveBuilding', name: 'Building', mode: 'remove', run: removeBuildings },
  { operation: 'RemoveLand', name: 'Land', mode: 'remove', run: removeLands },
  { operation: 'RemoveUseUnit', name: 'UseUnit', mode: 'remove', run: removeUseUnits },
  { operation: 'RemoveBudget', name: 'Budget', mode: 'remove', run: removeBudgets },
  { operation: 'RemoveLoan', name: 'Loan', mode: 'remove', run: removeLoans },
];
