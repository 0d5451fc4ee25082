// Rows of one query arranged by a key column, in query order: child rows by their parent (groupBy) and 1:1 detail
// rows by their owner (indexBy). Shared by every area that loads the children of a page in one query per kind.

/** Rows grouped by the value of `key`, each group in query order. */
export function groupBy<R, K extends keyof R>(rows: Iterable<R>, key: K): Map<R[K], R[]> {
  const out = new Map<R[K], R[]>();
  for (const row of rows) {
    const list = out.get(row[key]);
    if (list) list.push(row);
    else out.set(row[key], [row]);
  }
  return out;
}

/** Rows by the value of `key`, which is unique among them. */
export function indexBy<R, K extends keyof R>(rows: Iterable<R>, key: K): Map<R[K], R> {
  const out = new Map<R[K], R>();
  for (const row of rows) out.set(row[key], row);
  return out;
}
