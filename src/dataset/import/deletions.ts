// The Deletions collection: `{ "Collection": "UseUnits", "Id": 5 }` removes that record (its own child rows go with
// it). A record still referenced by another one is a problem naming the referencing collection and field.
import type { DomainEvent } from '../../events/outbox.ts';
import { inChunks, placeholders, q, type BulkWriter } from '../../db/bulk.ts';
import { COLLECTIONS, DELETIONS } from '../format/collections.ts';
import type { CollectionSpec, Field } from '../format/fields.ts';
import type { ImportProblem } from './lookup.ts';
import { childSpecs } from './write.ts';

export interface Deletion {
  position: number;
  line?: number;
  spec: CollectionSpec;
  id: number;
}

export interface Referrer {
  table: string;
  column: string;
  where: string;
  /** The field's name in the file. */
  field: string;
  /** The column naming the record the referencing row is (id) or belongs to (its parent's id). */
  owner: string;
}

/** Every column that references `table`, outside the rows owned by the referenced record itself. */
export function referrers(table: string): Referrer[] {
  const out: Referrer[] = [];
  const add = (t: string, fields: Field[], where: string, owner: string) => {
    for (const f of fields)
      if (f.ref?.table === table) out.push({ table: t, column: f.column, where, field: f.wire, owner });
  };
  for (const c of COLLECTIONS) {
    add(c.table, c.fields, c.name, 'id');
    for (const child of childSpecs(c)) add(child.table, child.fields, `${c.name}.${child.wire}`, child.parentColumn);
    for (const [kind, k] of Object.entries(c.kinds ?? {}))
      if (k.detail) add(k.detail.table, k.detail.fields, `${c.name} (${kind})`, 'contract_agreement_id');
  }
  return out;
}

export async function applyDeletions(
  bulk: BulkWriter,
  items: Deletion[],
  problem: (p: ImportProblem) => void,
): Promise<DomainEvent[]> {
  const events: DomainEvent[] = [];
  // dependents first: reverse dependency order of the collections
  const byCollection = [...new Set(items.map((d) => d.spec))].sort(
    (a, b) => COLLECTIONS.indexOf(b) - COLLECTIONS.indexOf(a),
  );
  for (const spec of byCollection) {
    const group = items.filter((d) => d.spec === spec);
    const report = (d: Deletion, message: string) =>
      problem({
        collection: DELETIONS,
        position: d.position,
        line: d.line,
        id: d.id,
        path: '',
        message: `${spec.name} ${d.id}: ${message}`,
      });
    const ids = [...new Set(group.map((d) => d.id))];
    const found = new Map<number, Record<string, unknown>>();
    const ledger =
      spec.fields.some((f) => f.column === 'company_code_id') || spec.ledgerFrom ? ', company_code_id' : '';
    await inChunks(ids, 5000, async (slice) => {
      for (const r of await bulk.run(
        `select id${ledger} from ${q(spec.table)} where id in (${placeholders(slice.length)})`,
        slice,
      ))
        found.set(Number(r.id), r);
    });
    const blocked = new Set<number>();
    for (const r of referrers(spec.table)) {
      await inChunks(ids, 5000, async (slice) => {
        const rows = await bulk.run<{ ref: number }>(
          `select distinct ${q(r.column)} as ref from ${q(r.table)} where ${q(r.column)} in (${placeholders(slice.length)})`,
          slice,
        );
        for (const row of rows) {
          const id = Number(row.ref);
          blocked.add(id);
          for (const d of group.filter((g) => g.id === id)) report(d, `still referenced by ${r.where} (${r.column})`);
        }
      });
    }
    // the record's own child rows go with it: one that another record references blocks the deletion too
    for (const child of childSpecs(spec).filter((c) => c.key.includes('id')))
      for (const r of referrers(child.table)) {
        await inChunks(ids, 5000, async (slice) => {
          const rows = await bulk.run<{ ref: number }>(
            `select distinct c.${q(child.parentColumn)} as ref from ${q(child.table)} c join ${q(r.table)} r on r.${q(r.column)} = c.id where c.${q(child.parentColumn)} in (${placeholders(slice.length)})`,
            slice,
          );
          for (const row of rows) {
            const id = Number(row.ref);
            blocked.add(id);
            for (const d of group.filter((g) => g.id === id))
              report(d, `its ${child.wire} are still referenced by ${r.where} (${r.column})`);
          }
        });
      }
    for (const d of group) if (!found.has(d.id)) report(d, 'does not exist');
    const deletable = ids.filter((id) => found.has(id) && !blocked.has(id));
    await inChunks(deletable, 5000, async (slice) => {
      await bulk.run(`delete from ${q(spec.table)} where id in (${placeholders(slice.length)})`, slice);
    });
    if (spec.entity) {
      for (const id of deletable)
        events.push({
          entityType: spec.entity,
          entityId: id,
          action: 'deleted',
          companyCodeId: (found.get(id)?.company_code_id as number | undefined) ?? null,
        });
    }
  }
  return events;
}
