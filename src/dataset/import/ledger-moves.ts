// The other way a file can break a "same ledger" reference (docs/import-format.md): a record that moves to another
// ledger (its CompanyCodeId changed, or its economic unit's, which the schema's ON UPDATE CASCADE carries to its
// buildings, land and use units) while STORED records that the file leaves alone still reference it, or are
// referenced by it, across ledgers (an allocation group listing a moved use unit, a loan's object assignment of a
// moved economic unit). Reads would then answer another ledger's ids, and the export would not import again. Only
// run when the import moved a record (write.ts counts them): one query per same-ledger reference of the format.
import { COLLECTIONS, LEDGER_TABLES } from '../format/collections.ts';
import type { Field } from '../format/fields.ts';
import { childSpecs } from './write.ts';
import { q, type BulkWriter } from '../../db/bulk.ts';
import { collectionOf, type ImportProblem } from './lookup.ts';
import { shown } from './shown.ts';

interface Relation {
  /** The collection of the record that holds the reference, and the reference's path in it. */
  collection: string;
  path: string;
  /** The referenced table. */
  target: string;
  /** FROM and JOIN clauses giving `r` (the record, with its ledger) and `t` (the referenced row). */
  from: string;
}

const sameLedgerRefs = (fields: Field[]) => fields.filter((f) => f.ref?.sameLedger && LEDGER_TABLES.has(f.ref.table));

function relations(): Relation[] {
  const out: Relation[] = [];
  for (const spec of COLLECTIONS) {
    if (!LEDGER_TABLES.has(spec.table)) continue;
    const record = q(spec.table);
    for (const f of sameLedgerRefs(spec.fields))
      out.push({
        collection: spec.name,
        path: f.wire,
        target: f.ref?.table as string,
        from: `${record} r join ${q(f.ref?.table as string)} t on t.id = r.${q(f.column)}`,
      });
    // a project's assignments are checked by assigned-entities.ts, with the API's messages (its cost objects here)
    if (spec.table === 'projects') continue;
    for (const c of childSpecs(spec))
      for (const f of sameLedgerRefs(c.fields))
        out.push({
          collection: spec.name,
          path: c.scalar ? c.wire : `${c.wire}[].${f.wire}`,
          target: f.ref?.table as string,
          from:
            `${q(c.table)} c join ${record} r on r.id = c.${q(c.parentColumn)} ` +
            `join ${q(f.ref?.table as string)} t on t.id = c.${q(f.column)}`,
        });
  }
  return out;
}

let RELATIONS: Relation[] | undefined;
/** Most problems reported per reference (the import fails on the first anyway; the rest is a sample). */
const SAMPLE = 20;

/** Reports every stored reference between records of two ledgers, after an import that moved records. */
export async function checkLedgerLinks(bulk: BulkWriter, problem: (p: ImportProblem) => void): Promise<void> {
  RELATIONS ??= relations();
  for (const rel of RELATIONS) {
    const rows = await bulk.run<Record<string, unknown>>(
      `select distinct r.id as id, r.company_code_id as ledger, t.id as target, t.company_code_id as target_ledger ` +
        `from ${rel.from} where r.company_code_id <> t.company_code_id order by r.id, t.id limit ${SAMPLE}`,
    );
    for (const r of rows)
      problem({
        collection: rel.collection,
        position: -1,
        id: Number(r.id),
        path: rel.path,
        message:
          `${collectionOf(rel.target)} ${shown(r.target)} is in ledger ${shown(r.target_ledger)}, this stored record in ledger ` +
          `${shown(r.ledger)}: the import moved one of them to another ledger; move or change both in the same file`,
      });
  }
}
