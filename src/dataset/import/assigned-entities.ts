// The other way a file can break a project's assignments (decisions §4): a record of an assigned entity that moves it
// to another ledger than its stored project's, or (buildings, land, use units) to another economic unit or building
// which that project does not have. Such records are noted as their batches are written (one query per batch) and
// checked when the whole file is in (a Projects record later in the file may assign the new prerequisite). A project
// that is itself in the file is checked as a whole by its record (project-rules.ts), so it is left out here.
import { KIND_ORDER, KINDS, type AssignmentKind } from '../../projects/fields.ts';
import { notInLedger, prerequisiteMissing } from '../../projects/assignments.ts';
import { inChunks, placeholders, q, type BulkWriter } from '../../db/bulk.ts';
import type { CollectionSpec } from '../format/fields.ts';
import type { ImportProblem } from './lookup.ts';
import type { Parsed } from './record.ts';

interface Noted {
  spec: CollectionSpec;
  kind: AssignmentKind;
  p: Parsed;
  projectId: number;
}

const KIND_OF_TABLE = new Map(KIND_ORDER.map((k) => [k.entities as string, k]));

export class AssignedEntities {
  private noted: Noted[] = [];

  /** A written batch: remembers its records that are assigned to a project. */
  async written(bulk: BulkWriter, spec: CollectionSpec, batch: Parsed[]): Promise<void> {
    const kind = KIND_OF_TABLE.get(spec.table);
    if (!kind || batch.length === 0) return;
    const byId = new Map(batch.map((p) => [p.id, p]));
    await inChunks([...byId.keys()], 5000, async (slice) => {
      const rows = await bulk.run<Record<string, unknown>>(
        `select project_id, ${q(kind.column)} as entity from ${q(kind.table)} where ${q(kind.column)} in (${placeholders(slice.length)})`,
        slice,
      );
      for (const r of rows) {
        const p = byId.get(Number(r.entity));
        if (p) this.noted.push({ spec, kind, p, projectId: Number(r.project_id) });
      }
    });
  }

  /** A batch of Projects records: checked as a whole by their records. */
  projects(ids: number[]): void {
    if (this.noted.length === 0) return;
    const checked = new Set(ids);
    this.noted = this.noted.filter((n) => !checked.has(n.projectId));
  }

  /** Reports the noted records now in another ledger than their project, or whose prerequisite the project lacks. */
  async check(bulk: BulkWriter, problem: (p: ImportProblem) => void): Promise<void> {
    const projectLedgers = await columnOf(bulk, 'projects', 'company_code_id', [
      ...new Set(this.noted.map((n) => n.projectId)),
    ]);
    for (const kind of new Set(this.noted.map((n) => n.kind))) {
      const noted = this.noted.filter((n) => n.kind === kind);
      const ledgers = await columnOf(bulk, kind.entities, 'company_code_id', [...new Set(noted.map((n) => n.p.id))]);
      for (const { spec, p, projectId } of noted) {
        const ledger = projectLedgers.get(projectId);
        if (ledger === undefined || ledgers.get(p.id) === ledger) continue;
        problem({
          collection: spec.name,
          position: p.position,
          line: p.line,
          id: p.id,
          path: spec.ledgerFrom?.field ?? 'CompanyCodeId',
          message: `project ${projectId}: ${notInLedger(kind, p.id, ledger)}`,
        });
      }
      for (const need of kind.needs) {
        // One statement per need, so one snapshot: the noted assignments that still exist and whose prerequisite the
        // project lacks. Read in two steps (PostgreSQL, read committed), a project the API created and deleted (or
        // whose assignments it removed in order) meanwhile looked like one that breaks the order.
        const prerequisite = KINDS[need.kind];
        const byPair = new Map(noted.map((n) => [`${n.projectId}:${n.p.id}`, n]));
        const projects = [...new Set(noted.map((n) => n.projectId))];
        const entities = [...new Set(noted.map((n) => n.p.id))];
        await inChunks(projects, 2000, async (someProjects) => {
          await inChunks(entities, 2000, async (someEntities) => {
            const rows = await bulk.run<Record<string, unknown>>(
              `select a.project_id as project_id, a.${q(kind.column)} as id, e.${q(need.via)} as parent ` +
                `from ${q(kind.table)} a join ${q(kind.entities)} e on e.id = a.${q(kind.column)} ` +
                `where a.project_id in (${placeholders(someProjects.length)}) ` +
                `and a.${q(kind.column)} in (${placeholders(someEntities.length)}) and e.${q(need.via)} is not null ` +
                `and not exists (select 1 from ${q(prerequisite.table)} pr where pr.project_id = a.project_id ` +
                `and pr.${q(prerequisite.column)} = e.${q(need.via)})`,
              [...someProjects, ...someEntities],
            );
            for (const r of rows) {
              const n = byPair.get(`${Number(r.project_id)}:${Number(r.id)}`);
              if (!n) continue;
              problem({
                collection: n.spec.name,
                position: n.p.position,
                line: n.p.line,
                id: n.p.id,
                path: n.spec.fields.find((f) => f.column === need.via)?.wire ?? need.via,
                message: `project ${n.projectId}: ${prerequisiteMissing(kind, n.p.id, need.kind, Number(r.parent))}`,
              });
            }
          });
        });
      }
    }
  }
}

/** The non-null values of `column` of the rows `ids` of `table`, by id. */
async function columnOf(bulk: BulkWriter, table: string, column: string, ids: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  await inChunks(ids, 5000, async (slice) => {
    const rows = await bulk.run<Record<string, unknown>>(
      `select id, ${q(column)} as v from ${q(table)} where id in (${placeholders(slice.length)})`,
      slice,
    );
    for (const r of rows) if (r.v !== null && r.v !== undefined) out.set(Number(r.id), Number(r.v));
  });
  return out;
}
