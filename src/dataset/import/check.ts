// Checks one parsed record against the rows it references: existence, catalogue kind, ledger, sameAs; fills the
// ledger of child rows from the parent. References to later records of the same collection are deferred (Pending).
import type { CollectionSpec } from '../format/fields.ts';
import { collectionOf, type Found } from './lookup.ts';
import { shown } from './shown.ts';
import type { Parsed } from './record.ts';

export interface Pending {
  position: number;
  line?: number;
  id: number;
  path: string;
  column: string;
  target: number;
  ledger: unknown;
}

export function checkRecord(
  spec: CollectionSpec,
  p: Parsed,
  found: Found,
  inBatch: Map<number, Record<string, unknown>>,
  pending: Pending[],
  report: (path: string, message: string) => void,
): boolean {
  let ok = true;
  const fail = (path: string, message: string) => {
    report(path, message);
    ok = false;
  };
  const target = (table: string, id: number) =>
    (table === spec.table ? inBatch.get(id) : undefined) ?? found.get(table)?.get(id);
  let ledger = p.row.company_code_id;
  if (spec.ledgerFrom) {
    const field = spec.fields.find((f) => f.wire === spec.ledgerFrom?.field);
    const parentId = p.row[field?.column as string] as number;
    const parent = target(spec.ledgerFrom.table, parentId);
    ledger = parent?.company_code_id;
    p.row.company_code_id = ledger;
    if (parent && p.givenLedger !== undefined && p.givenLedger !== ledger) {
      fail(
        'CompanyCodeId',
        `${p.givenLedger} does not match ledger ${String(ledger)} of its ${collectionOf(spec.ledgerFrom.table)} ${parentId}`,
      );
    }
  }
  const deferred: Pending[] = [];
  for (const r of p.refs) {
    const row = target(r.ref.table, r.id);
    const what = `${collectionOf(r.ref.table)} ${r.id}`;
    if (!row) {
      if (r.ref.table === spec.table && r.column && spec.fields.some((f) => f.column === r.column)) {
        deferred.push({
          position: p.position,
          line: p.line,
          id: p.id,
          path: r.path,
          column: r.column,
          target: r.id,
          ledger,
        });
        p.row[r.column] = null;
      } else
        fail(
          r.path,
          `unknown reference: no ${collectionOf(r.ref.table)} with Id ${r.id}${r.ref.catalog ? ` (kind ${r.ref.catalog})` : ''}`,
        );
      continue;
    }
    if (r.ref.catalog && row.kind !== r.ref.catalog)
      fail(r.path, `${collectionOf(r.ref.table)} ${r.id} is of kind ${String(row.kind)}, expected ${r.ref.catalog}`);
    if (
      r.ref.sameLedger &&
      row.company_code_id !== null &&
      row.company_code_id !== undefined &&
      ledger !== undefined &&
      row.company_code_id !== ledger
    ) {
      fail(r.path, `${what} is in ledger ${shown(row.company_code_id)}, this record in ledger ${shown(ledger)}`);
    }
    if (r.ref.sameAs) {
      const other = spec.fields.find((f) => f.wire === r.ref.sameAs?.field);
      const expected = other ? p.row[other.column] : undefined;
      if (row[r.ref.sameAs.column] !== expected) {
        fail(
          r.path,
          `${what} belongs to ${r.ref.sameAs.field.replace(/Id$/, '')} ${String(row[r.ref.sameAs.column])}, not ${String(expected)}`,
        );
      }
    }
  }
  if (ok) pending.push(...deferred);
  return ok;
}

/**
 * The records of a batch to write, less those that reference a record of the same batch that is not written (it has a
 * problem of its own) and is not stored either: such a reference gets the problem it has when the record is in an
 * earlier batch. Written, it would break a foreign key, and the database's refusal would stop the import before the
 * rest of the file is read and its problems listed.
 */
export function withoutDanglingReferences(
  spec: CollectionSpec,
  written: Parsed[],
  inBatch: Map<number, Record<string, unknown>>,
  found: Found,
  report: (p: Parsed, path: string, message: string) => void,
): Parsed[] {
  let kept = written;
  for (;;) {
    const ids = new Set(kept.map((p) => p.id));
    const stored = found.get(spec.table);
    const dangling = (p: Parsed) =>
      p.refs.filter((r) => r.ref.table === spec.table && inBatch.has(r.id) && !ids.has(r.id) && !stored?.has(r.id));
    const dropped = kept.filter((p) => dangling(p).length > 0);
    if (dropped.length === 0) return kept;
    for (const p of dropped)
      for (const r of dangling(p))
        report(p, r.path, `unknown reference: no ${collectionOf(spec.table)} with Id ${r.id}`);
    const drop = new Set(dropped);
    kept = kept.filter((p) => !drop.has(p));
  }
}
