// The child rows of an entity as one comparable text, so that a record whose child arrays alone change (a project's
// assignments, a use unit's or loan's entries) counts as changed: its event is `updated` (decisions §5).
import { inChunks, placeholders, q, type BulkWriter } from '../../db/bulk.ts';
import { rowColumns, type ChildSpec } from '../format/fields.ts';
import type { Parsed } from './record.ts';
import { shown } from './shown.ts';

/** One row as text: values as strings (the dialects return numbers, decimals and flags in different types). */
const rowText = (row: Record<string, unknown>, columns: string[]): string =>
  JSON.stringify(columns.map((c) => (row[c] === null || row[c] === undefined ? null : shown(row[c]))));

/** The key of a set of rows per child table: independent of the order of the rows. */
function keyOf(byTable: Map<string, string[]>, specs: ChildSpec[]): string {
  return JSON.stringify(specs.map((c) => (byTable.get(c.table) ?? []).sort()));
}

/** The children key of a parsed record (the rows the import will store); `specs`: every child table it can own. */
export function parsedChildrenKey(specs: ChildSpec[], p: Parsed): string {
  const byTable = new Map<string, string[]>();
  for (const c of p.children)
    byTable.set(
      c.spec.table,
      c.rows.map((r) => rowText(r, rowColumns(c.spec))),
    );
  return keyOf(byTable, specs);
}

/** The children keys of stored records (every id gets one; no rows = the key of empty arrays). */
export async function storedChildrenKeys(
  bulk: BulkWriter,
  specs: ChildSpec[],
  ids: number[],
): Promise<Map<number, string>> {
  const rows = new Map<number, Map<string, string[]>>(ids.map((id) => [id, new Map()]));
  for (const c of specs) {
    const columns = rowColumns(c);
    await inChunks(ids, 5000, async (slice) => {
      const found = await bulk.run(
        `select ${[c.parentColumn, ...columns].map(q).join(',')} from ${q(c.table)} where ${q(c.parentColumn)} in (${placeholders(slice.length)})`,
        slice,
      );
      for (const r of found) {
        const byTable = rows.get(Number(r[c.parentColumn]));
        if (!byTable) continue;
        let list = byTable.get(c.table);
        if (!list) byTable.set(c.table, (list = []));
        list.push(rowText(r, columns));
      }
    });
  }
  return new Map([...rows].map(([id, byTable]) => [id, keyOf(byTable, specs)]));
}
