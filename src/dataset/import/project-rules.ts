// The rules of decisions §4 that an imported project must keep, beyond its references (checked like every record's):
// ProjectLifeTimeTo is not before ProjectLifeTimeFrom, Code is unique within its ledger, and the assignment order (a
// building or land parcel needs its economic unit assigned, a use unit its economic unit and its building). A record's
// assignment lists are the project's assignments after the import, so a prerequisite counts when it is in the same
// record. The rules and their messages are the API's (src/projects); each violation is a problem of the record.
import { KIND_ORDER, KINDS } from '../../projects/fields.ts';
import { prerequisiteMissing } from '../../projects/assignments.ts';
import { codeTaken, lifeTimeViolation } from '../../projects/value-rules.ts';
import { inChunks, placeholders, q, type BulkWriter } from '../../db/bulk.ts';
import type { CollectionSpec } from '../format/fields.ts';
import { lookup } from './lookup.ts';
import type { Parsed } from './record.ts';

type Report = (p: Parsed, path: string, message: string) => void;

/** The assignment kinds with prerequisites, each with the child array of a Projects record that holds it. */
const ordered = (spec: CollectionSpec) =>
  KIND_ORDER.filter((k) => k.needs.length > 0).map((kind) => ({
    kind,
    child: spec.children.find((c) => c.table === kind.table),
  }));

/**
 * Reports the violations of the Projects records of a batch (whose references were found). Returns the records that
 * must not be written: those whose Code the database would refuse (its unique index would end the import).
 */
export async function projectRuleProblems(
  bulk: BulkWriter,
  spec: CollectionSpec,
  batch: Parsed[],
  report: Report,
): Promise<Set<Parsed>> {
  if (spec.table !== 'projects' || batch.length === 0) return new Set();
  for (const p of batch) {
    const violation = lifeTimeViolation(p.row.project_life_time_from, p.row.project_life_time_to);
    if (violation) report(p, 'ProjectLifeTimeTo', violation);
  }
  await assignmentOrder(bulk, spec, batch, report);
  return codeClashes(bulk, batch, report);
}

/** Code unique within its ledger: against the batch itself and the stored projects that the batch does not replace. */
async function codeClashes(bulk: BulkWriter, batch: Parsed[], report: Report): Promise<Set<Parsed>> {
  const key = (ledger: unknown, code: unknown) => `${String(ledger)}\u0000${String(code)}`;
  const withCode = batch.filter((p) => typeof p.row.code === 'string');
  const inBatch = new Set(batch.map((p) => p.id));
  const taken = new Map<string, number>();
  await inChunks([...new Set(withCode.map((p) => p.row.code as string))], 5000, async (slice) => {
    const rows = await bulk.run<{ id: number; company_code_id: number; code: string }>(
      `select id, company_code_id, code from ${q('projects')} where code in (${placeholders(slice.length)})`,
      slice,
    );
    for (const r of rows) if (!inBatch.has(Number(r.id))) taken.set(key(r.company_code_id, r.code), Number(r.id));
  });
  const clashes = new Set<Parsed>();
  for (const p of withCode) {
    const k = key(p.row.company_code_id, p.row.code);
    const other = taken.get(k);
    if (other !== undefined && other !== p.id) {
      report(p, 'Code', codeTaken(p.row.code as string, other, p.row.company_code_id as number));
      clashes.add(p);
    } else taken.set(k, p.id);
  }
  return clashes;
}

/** The assignment order, with one lookup per kind of the entities' prerequisites. */
async function assignmentOrder(bulk: BulkWriter, spec: CollectionSpec, batch: Parsed[], report: Report) {
  /** The ids of an assignment table in a record, in file order. */
  const assigned = (p: Parsed, table: string): number[] => {
    const rows = p.children.find((c) => c.spec.table === table);
    const column = rows?.spec.fields[0]?.column;
    return rows && column ? rows.rows.map((r) => r[column] as number) : [];
  };
  const kinds = ordered(spec);
  const need = new Map<string, { ids: Set<number>; extra: Set<string> }>();
  for (const { kind } of kinds) {
    const ids = new Set(batch.flatMap((p) => assigned(p, kind.table)));
    if (ids.size > 0) need.set(kind.entities, { ids, extra: new Set(kind.needs.map((n) => n.via)) });
  }
  if (need.size === 0) return;
  const found = await lookup(bulk, need);
  for (const p of batch) {
    const sets = new Map<string, Set<number>>();
    const has = (table: string, id: number) => {
      let set = sets.get(table);
      if (!set) sets.set(table, (set = new Set(assigned(p, table))));
      return set.has(id);
    };
    for (const { kind, child } of kinds) {
      assigned(p, kind.table).forEach((id, i) => {
        const entity = found.get(kind.entities)?.get(id);
        if (!entity) return; // an unknown id is a reference problem, reported with the record's references
        for (const n of kind.needs) {
          const parent = entity[n.via];
          if (parent === null || parent === undefined || has(KINDS[n.kind].table, Number(parent))) continue;
          report(p, `${child?.wire ?? kind.name}[${i}]`, prerequisiteMissing(kind, id, n.kind, Number(parent)));
        }
      });
    }
  }
}
