// Row-to-wire functions of the project resource (v1.2).
import { ARRAY_FIELDS, SCALAR_FIELDS } from './schemas.ts';
import { COLUMN, COST_FIELDS } from './fields.ts';
import type { Assignments, ProjectRow } from './queries.ts';

/** What every write endpoint answers: {Id, Code, Name}. */
export function presentProjectRef(row: Pick<ProjectRow, 'id' | 'code' | 'name'>) {
  return { Id: row.id, Code: row.code, Name: row.name };
}

/** The read-back: Id, every body property from its column, the six arrays of assigned ids (ascending). */
export function presentProject(row: ProjectRow, assignments: Assignments): Record<string, unknown> {
  const out: Record<string, unknown> = { Id: row.id };
  for (const field of SCALAR_FIELDS) out[field] = row[COLUMN[field]];
  // The interface types the cost ids as int: "none" (0 in a body, stored as null) reads back as 0.
  for (const field of COST_FIELDS) out[field] ??= 0;
  for (const name of ARRAY_FIELDS) out[name] = assignments[name];
  return out;
}
