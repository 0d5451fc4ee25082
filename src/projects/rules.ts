// The checks of a create or change body (decisions.md section 4), collecting every violation in one error map:
// the shape (schema), then the rules that need the database for the properties whose shape was right.
import type { Executor } from '../db/database.ts';
import { inScope, type LedgerScope } from '../auth/ledger-scope.ts';
import { ErrorCollector } from '../http/errors.ts';
import { bodyErrors } from '../http/validation.ts';
import { INT32_MAX, INT32_MIN } from '../http/schemas.ts';
import { ARRAY_FIELDS, NOT_NULLABLE, SCALAR_FIELDS, type ProjectBody, type ScalarField } from './schemas.ts';
import { COLUMN, COST_FIELDS, COST_LABELS, COST_TABLES } from './fields.ts';
import { hasAssignments } from './assignments.ts';
import { fixedQuery } from '../db/fixed-query.ts';
import { projectWithCode, type ProjectRow } from './queries.ts';
import { codeTaken, lifeTimeViolation } from './value-rules.ts';

const KNOWN = [...SCALAR_FIELDS, ...ARRAY_FIELDS] as string[];
const KNOWN_BY_LOWER = new Map(KNOWN.map((k) => [k.toLowerCase(), k]));

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A clearer message than "unknown property" for the names people get wrong. */
function unknownPropertyMessage(name: string, arraysRefused: boolean): string | undefined {
  if (name === 'Id') return 'Id is assigned by the server and cannot be set.';
  if (arraysRefused && (ARRAY_FIELDS as readonly string[]).includes(name)) {
    return `${name} is not accepted on change: use the Assign${name} and Remove${name} endpoints.`;
  }
  const near = KNOWN_BY_LOWER.get(name.toLowerCase());
  return near ? `Unknown property '${name}' (property names are case-sensitive; did you mean '${near}'?).` : undefined;
}

/**
 * Checks the body against its schema, adding every error to `errors` (keys are property paths). Returns the body
 * when it is a JSON object (some properties may still be invalid), undefined otherwise.
 */
export function checkShape(
  schema: { properties: object },
  body: unknown,
  errors: ErrorCollector,
  arraysRefused: boolean,
): ProjectBody | undefined {
  if (body === undefined) {
    errors.add('$', 'The body is missing: send the project as a JSON object (Content-Type: application/json).');
    return undefined;
  }
  const map = bodyErrors(schema, body) ?? {};
  const allowed = Object.keys(schema.properties);
  const better = new Map<string, string>(); // keys are the body's names: `constructor` is a name like any other
  if (isPlainObject(body)) {
    for (const name of Object.keys(body)) {
      const message = !allowed.includes(name)
        ? unknownPropertyMessage(name, arraysRefused)
        : body[name] === null && (NOT_NULLABLE as string[]).includes(name)
          ? `The value null is not valid for ${name}: it is not nullable.`
          : undefined;
      if (message) better.set(name, message);
    }
  }
  for (const [key, messages] of Object.entries(map)) {
    const message = better.get(key);
    for (const m of message ? [message] : messages) errors.add(key, m);
  }
  return isPlainObject(body) ? body : undefined;
}

/** The int32 items of an id array (items with the wrong type are already reported by the schema check). */
export function int32Items(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is number => Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX);
}

export interface FieldCheck {
  body: ProjectBody;
  errors: ErrorCollector;
  scope: LedgerScope;
  /** The stored project, for a change. */
  current?: ProjectRow;
}

const ledgerById = fixedQuery<{ id: number }, { id: number }>(['id'], (db, { id }) =>
  db.selectFrom('company_codes').select('id').where('id', '=', id),
);

/**
 * Checks the rules of the scalar properties against the database. Returns the project's ledger after the write
 * (null when the given CompanyCodeId is itself invalid).
 */
export async function checkFields(db: Executor, c: FieldCheck): Promise<number | null> {
  const { body, errors, current } = c;
  const present = (f: ScalarField) => Object.hasOwn(body, f);
  const usable = (f: ScalarField) => present(f) && !errors.errors[f];
  /** The value after the write: from the body when present and valid, else the stored one; undefined = unknown. */
  const next = (f: ScalarField): unknown => (present(f) ? (usable(f) ? body[f] : undefined) : current?.[COLUMN[f]]);

  let ledger = (next('CompanyCodeId') as number | undefined) ?? null;
  const ledgerChanges = usable('CompanyCodeId') && ledger !== current?.company_code_id;
  if (ledgerChanges && ledger !== null) {
    const exists = await ledgerById.first(db, { id: ledger });
    if (!exists || !inScope(c.scope, ledger)) {
      errors.add('CompanyCodeId', `The ledger (company code) ${ledger} does not exist.`);
      ledger = null;
    } else if (current && (await hasAssignments(db, current.id))) {
      errors.add(
        'CompanyCodeId',
        `The ledger cannot change from ${current.company_code_id} to ${ledger} while the project has assignments; remove them first.`,
      );
    }
  }

  const code = next('Code');
  if ((present('Code') || ledgerChanges) && typeof code === 'string' && ledger !== null) {
    const other = await projectWithCode(db, ledger, code, current?.id);
    if (other !== undefined) errors.add('Code', codeTaken(code, other, ledger));
  }

  const from = next('ProjectLifeTimeFrom');
  const to = next('ProjectLifeTimeTo');
  const lifeTime = lifeTimeViolation(from, to);
  if ((present('ProjectLifeTimeFrom') || present('ProjectLifeTimeTo')) && lifeTime) {
    const key = present('ProjectLifeTimeTo') ? 'ProjectLifeTimeTo' : 'ProjectLifeTimeFrom';
    errors.add(key, lifeTime);
  }

  // Cost objects are judged in the project's ledger (on a change whose CompanyCodeId is refused, the stored one).
  // A create whose CompanyCodeId is unknown or outside the caller's ledgers (already reported) has none: they are not
  // judged then, so the answer cannot tell another ledger's ids from unknown ones (decisions §2).
  const judgeIn = ledger ?? current?.company_code_id ?? null;
  for (const field of judgeIn === null ? [] : COST_FIELDS) {
    const id = next(field);
    if (!(present(field) || ledgerChanges) || typeof id !== 'number' || id === 0) continue;
    const row = await db
      .selectFrom(COST_TABLES[field])
      .select('company_code_id')
      .where('id', '=', id)
      .executeTakeFirst();
    const visible = row && (row.company_code_id === null || row.company_code_id === judgeIn);
    if (!visible) errors.add(field, `The ${COST_LABELS[field]} ${id} does not exist in ledger ${String(judgeIn)}.`);
  }
  return ledger;
}
