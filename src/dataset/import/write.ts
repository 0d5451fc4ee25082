// Writes one checked batch: upserts the records, replaces the child rows of records that existed, writes the
// contract-agreement detail rows, and returns the events (created/updated) of the entities that carry webhooks
// (updated: a stored value or child row changed).
import type { DomainEvent } from '../../events/outbox.ts';
import { inChunks, placeholders, q, type BulkWriter } from '../../db/bulk.ts';
import { rowColumns, type ChildSpec, type CollectionSpec } from '../format/fields.ts';
import type { Parsed } from './record.ts';
import { parsedChildrenKey, storedChildrenKeys } from './children-key.ts';

export const mainColumns = (spec: CollectionSpec): string[] => [
  ...spec.fields.map((f) => f.column),
  ...(spec.ledgerFrom ? ['company_code_id'] : []),
];

/** Every child table a record of this collection can own (of every kind). */
export function childSpecs(spec: CollectionSpec): ChildSpec[] {
  const all = [...spec.children, ...Object.values(spec.kinds ?? {}).flatMap((k) => k.children)];
  return [...new Map(all.map((c) => [c.table, c])).values()];
}

export interface Written {
  /** The events (created/updated) of the entities that carry webhooks. */
  events: DomainEvent[];
  /** Records that existed in another ledger than the one the batch gives them (ledger-moves.ts checks their links). */
  moved: number;
}

/** `empty`: the collection's tables that held no row when it started (empty-tables.ts): none of its records exists. */
export async function writeBatch(
  bulk: BulkWriter,
  spec: CollectionSpec,
  batch: Parsed[],
  empty: ReadonlySet<string>,
): Promise<Written> {
  if (batch.length === 0) return { events: [], moved: 0 };
  const columns = mainColumns(spec);
  const ownsRows = spec.children.length > 0 || spec.kinds !== undefined;
  const hasLedger = columns.includes('company_code_id');
  const existing = new Map<number, Record<string, unknown>>();
  if ((spec.entity || ownsRows || hasLedger) && !empty.has(spec.table)) {
    const base = spec.entity ? columns : spec.kinds ? ['id', 'kind'] : ['id'];
    const cols = hasLedger && !base.includes('company_code_id') ? [...base, 'company_code_id'] : base;
    await inChunks(
      batch.map((p) => p.id),
      5000,
      async (ids) => {
        for (const r of await bulk.run(
          `select ${cols.map(q).join(',')} from ${q(spec.table)} where id in (${placeholders(ids.length)})`,
          ids,
        )) {
          existing.set(Number(r.id), r);
        }
      },
    );
  }
  // an entity whose child arrays alone change is changed too: its stored children, read before they are replaced
  const owned = childSpecs(spec);
  const storedChildren =
    spec.entity && ownsRows && existing.size > 0
      ? await storedChildrenKeys(bulk, owned, [...existing.keys()])
      : undefined;
  await bulk.insertObjects(
    spec.table,
    columns,
    batch.map((p) => p.row),
    { update: ['id'] },
  );

  if (existing.size > 0 && ownsRows) {
    const ids = [...existing.keys()];
    const tables = owned.map((c): OwnedTable => [c.table, c.parentColumn]);
    if (spec.kinds) {
      // a record whose kind changed loses the detail row of its old kind
      const changed = batch
        .filter((p) => existing.has(p.id) && existing.get(p.id)?.kind !== p.kindName)
        .map((p) => p.id);
      const details = new Set(Object.values(spec.kinds).flatMap((k) => (k.detail ? [k.detail.table] : [])));
      if (changed.length) for (const t of details) tables.push([t, 'contract_agreement_id']);
      await deleteOwned(
        bulk,
        tables.filter(([t]) => !details.has(t)),
        ids,
      );
      await deleteOwned(
        bulk,
        tables.filter(([t]) => details.has(t)),
        changed,
      );
    } else await deleteOwned(bulk, tables, ids);
  }

  // detail rows, grouped by table and kind (two kinds share a table with different columns)
  const details = new Map<string, { table: string; columns: string[]; rows: unknown[][] }>();
  for (const p of batch) {
    if (!p.detail) continue;
    const key = `${p.detail.table}|${p.kindName}`;
    let d = details.get(key);
    if (!d)
      details.set(
        key,
        (d = { table: p.detail.table, columns: ['contract_agreement_id', ...Object.keys(p.detail.row)], rows: [] }),
      );
    d.rows.push([p.id, ...Object.values(p.detail.row)]);
  }
  for (const d of details.values())
    await bulk.insert(d.table, d.columns, d.rows, { update: ['contract_agreement_id'] });

  // each child row gets its parent's id as its own column (it is its record's row from here on)
  const children = new Map<string, { spec: ChildSpec; columns: string[]; rows: Array<Record<string, unknown>> }>();
  for (const p of batch) {
    for (const c of p.children) {
      if (c.rows.length === 0) continue;
      let g = children.get(c.spec.table);
      if (!g) {
        children.set(
          c.spec.table,
          (g = { spec: c.spec, columns: [c.spec.parentColumn, ...rowColumns(c.spec)], rows: [] }),
        );
      }
      for (const r of c.rows) {
        r[c.spec.parentColumn] = p.id;
        g.rows.push(r);
      }
    }
  }
  for (const g of children.values())
    await bulk.insertObjects(g.spec.table, g.columns, g.rows, g.spec.key.includes('id') ? { update: ['id'] } : 'none');

  let moved = 0;
  if (hasLedger)
    for (const p of batch) {
      const before = existing.get(p.id);
      if (before && (before.company_code_id ?? null) !== (p.row.company_code_id ?? null)) moved++;
    }
  if (!spec.entity) return { events: [], moved };
  const events: DomainEvent[] = [];
  for (const p of batch) {
    const before = existing.get(p.id);
    const changed =
      !before ||
      columns.some((c) => (before[c] ?? null) !== (p.row[c] ?? null)) ||
      (storedChildren !== undefined && storedChildren.get(p.id) !== parsedChildrenKey(owned, p));
    if (changed)
      events.push({
        entityType: spec.entity,
        entityId: p.id,
        action: before ? 'updated' : 'created',
        companyCodeId: p.row.company_code_id as number,
      });
  }
  return { events, moved };
}

/** A table of rows that belong to a record, and the column naming the record. */
type OwnedTable = [table: string, column: string];

async function deleteOwned(bulk: BulkWriter, tables: OwnedTable[], ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  for (const [table, column] of tables) {
    await inChunks(ids, 5000, (slice) =>
      bulk
        .run(`delete from ${q(table)} where ${q(column)} in (${placeholders(slice.length)})`, slice)
        .then(() => undefined),
    );
  }
}
