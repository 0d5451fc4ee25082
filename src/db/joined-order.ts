// Read models join the stored texts of a window of ids in the database (SQLite `group_concat`, which follows the
// order its input arrives in but does not promise it). The statement also returns the ids in the order it joined
// them; only if they are not ascending does the caller run it again with the ORDER BY that sorts in the database.
// The same statement reads the read model's one state row beside the window (`stateGroupBy`).
// Used by src/running-cost/read-model.ts and src/rent-accounting/read-model.ts.
import { sql } from 'kysely';
import { isPostgres, type Executor } from './database.ts';

/** Whether comma-separated ids (or none) are in ascending order. */
export function idsAscending(ids: string | null): boolean {
  if (ids === null) return true;
  let last = -Infinity;
  let from = 0;
  while (from <= ids.length) {
    let to = ids.indexOf(',', from);
    if (to < 0) to = ids.length;
    const n = Number(ids.slice(from, to));
    if (!(n > last)) return false;
    last = n;
    from = to + 1;
  }
  return true;
}

/**
 * The GROUP BY of a read-model statement that aggregates a window's texts beside its one state row (`s`). SQLite
 * takes the state's columns as they are in an aggregate without GROUP BY (one row is one group), and a GROUP BY would
 * first copy every text into a sorter (~0.2 ms per 200 KB); PostgreSQL needs the columns grouped.
 */
export const stateGroupBy = (db: Executor) => (isPostgres(db) ? sql` group by s.name, s.stale, s.format` : sql``);
