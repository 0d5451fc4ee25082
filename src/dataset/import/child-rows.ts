// Child rows with their own Id (a person's addresses and bank accounts, a loan's conditions, ...) keep their parent
// and their references valid:
// - a record may not take a child row that belongs to another parent: the upsert by Id would move it silently (an
//   address of a contractor's person to another person), so it is a problem on the child's Id;
// - a record that leaves out a stored child row which another record references (a payment mode's or loan's
//   BankAccountId) would leave that reference dangling: such rows are noted per batch (only the referenced ones, so
//   few) and reported when the whole file is in, unless the file dropped the reference (later collections) by then.
import { inChunks, placeholders, q, type BulkWriter } from '../../db/bulk.ts';
import { COLLECTIONS } from '../format/collections.ts';
import type { ChildSpec, CollectionSpec } from '../format/fields.ts';
import { referrers, type Referrer } from './deletions.ts';
import type { ImportProblem } from './lookup.ts';
import type { Parsed } from './record.ts';
import { childSpecs } from './write.ts';

type Report = (p: Parsed, path: string, message: string) => void;

/** The child tables with a global Id of a collection (of every kind). */
const withIds = (spec: CollectionSpec): ChildSpec[] => childSpecs(spec).filter((c) => c.key.includes('id'));

/** Who references the rows of each child table (computed once). */
const REFERRERS = new Map(
  COLLECTIONS.flatMap((c) => withIds(c)).map((c): [string, Referrer[]] => [c.table, referrers(c.table)]),
);

/** Stored rows of `table` with these values in `column`: [id, parent id] pairs. */
async function storedRows(bulk: BulkWriter, c: ChildSpec, column: string, values: number[]) {
  const out: { id: number; parent: number }[] = [];
  await inChunks(values, 5000, async (slice) => {
    const rows = await bulk.run(
      `select id, ${q(c.parentColumn)} as parent from ${q(c.table)} where ${q(column)} in (${placeholders(slice.length)})`,
      slice,
    );
    for (const r of rows) out.push({ id: Number(r.id), parent: Number(r.parent) });
  });
  return out;
}

/** The records of the batch that name a child row of another parent; each such row reported. */
export async function foreignChildren(
  bulk: BulkWriter,
  spec: CollectionSpec,
  batch: Parsed[],
  report: Report,
  empty: ReadonlySet<string>,
): Promise<Set<Parsed>> {
  const out = new Set<Parsed>();
  for (const c of withIds(spec)) {
    if (empty.has(c.table)) continue; // no stored row: none of another parent
    // the record's own array (two contract kinds may share a table under different names)
    const named = new Map<number, { p: Parsed; index: number; wire: string }>();
    for (const p of batch) {
      const own = p.children.find((r) => r.spec.table === c.table);
      own?.rows.forEach((r, index) => named.set(r.id as number, { p, index, wire: own.spec.wire }));
    }
    if (named.size === 0) continue;
    for (const { id, parent } of await storedRows(bulk, c, 'id', [...named.keys()])) {
      const at = named.get(id);
      if (!at || parent === at.p.id) continue;
      report(
        at.p,
        `${at.wire}[${at.index}].Id`,
        `Id ${id} belongs to ${spec.name} Id ${parent} (a child row keeps its parent; give the new row a new Id)`,
      );
      out.add(at.p);
    }
  }
  return out;
}

interface Noted {
  problem: Omit<ImportProblem, 'message'>;
  table: string;
  child: number;
  referrer: Referrer;
  owner: number;
}

/** Left-out child rows that other records reference: noted per batch, reported when the file is in. */
export class LeftOutChildren {
  private noted: Noted[] = [];

  /** Before a batch is written (its records' stored child rows are still there). */
  async beforeWrite(
    bulk: BulkWriter,
    spec: CollectionSpec,
    batch: Parsed[],
    empty: ReadonlySet<string>,
  ): Promise<void> {
    if (batch.length === 0) return;
    for (const c of withIds(spec)) {
      const refs = REFERRERS.get(c.table) ?? [];
      if (refs.length === 0 || empty.has(c.table)) continue; // no stored row: none left out
      const byId = new Map(batch.map((p) => [p.id, p]));
      const kept = new Set(
        batch.flatMap((p) => p.children.find((r) => r.spec.table === c.table)?.rows.map((r) => r.id as number) ?? []),
      );
      const left = new Map<number, Parsed>();
      for (const { id, parent } of await storedRows(bulk, c, c.parentColumn, [...byId.keys()])) {
        const p = byId.get(parent);
        if (p && !kept.has(id)) left.set(id, p);
      }
      if (left.size === 0) continue;
      for (const r of refs)
        for (const hit of await referencing(bulk, r, [...left.keys()])) {
          const p = left.get(hit.ref);
          if (!p) continue;
          const problem = { collection: spec.name, position: p.position, line: p.line, id: p.id, path: c.wire };
          this.noted.push({ problem, table: c.table, child: hit.ref, referrer: r, owner: hit.owner });
        }
    }
  }

  /** Reports the noted rows that are gone and still referenced. */
  async check(bulk: BulkWriter, problem: (p: ImportProblem) => void): Promise<void> {
    if (this.noted.length === 0) return;
    const gone = new Map<string, Set<number>>();
    for (const table of new Set(this.noted.map((n) => n.table))) {
      const ids = [...new Set(this.noted.filter((n) => n.table === table).map((n) => n.child))];
      const present = new Set<number>();
      await inChunks(ids, 5000, async (slice) => {
        const rows = await bulk.run(`select id from ${q(table)} where id in (${placeholders(slice.length)})`, slice);
        for (const r of rows) present.add(Number(r.id));
      });
      gone.set(table, new Set(ids.filter((id) => !present.has(id))));
    }
    const still = new Set<string>();
    for (const r of new Set(this.noted.map((n) => n.referrer))) {
      const ids = [...new Set(this.noted.filter((n) => n.referrer === r).map((n) => n.child))];
      for (const hit of await referencing(bulk, r, ids)) still.add(`${r.table}|${hit.owner}|${hit.ref}`);
    }
    for (const n of this.noted) {
      if (!gone.get(n.table)?.has(n.child) || !still.has(`${n.referrer.table}|${n.owner}|${n.child}`)) continue;
      const where = n.referrer.owner === 'id' ? n.referrer.where : n.referrer.where.replace(/\..*/, '');
      problem({
        ...n.problem,
        message: `the entry with Id ${n.child} is left out but still referenced by ${where} ${n.owner} (${n.referrer.field})`,
      });
    }
  }
}

/** The rows of a referrer that reference these ids: the referenced id and the referencing record. */
async function referencing(bulk: BulkWriter, r: Referrer, ids: number[]) {
  const out: { ref: number; owner: number }[] = [];
  await inChunks(ids, 5000, async (slice) => {
    const rows = await bulk.run(
      `select ${q(r.column)} as ref, ${q(r.owner)} as owner from ${q(r.table)} where ${q(r.column)} in (${placeholders(slice.length)}) order by ${q(r.owner)}`,
      slice,
    );
    for (const row of rows) out.push({ ref: Number(row.ref), owner: Number(row.owner) });
  });
  return out;
}
