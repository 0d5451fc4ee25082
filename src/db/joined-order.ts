// Read models join the stored texts of a window of ids in the database (SQLite `group_concat`, which follows the
// order its input arrives in but does not promise it). The statement also returns the ids in the order it joined
// them; only if they are not ascending does the caller run it again with the ORDER BY that sorts in the database.
// Used by src/running-cost/read-model.ts and src/rent-accounting/read-model.ts.

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
