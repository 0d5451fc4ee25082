// `wohnapi export`: writes every collection in the import format, records sorted by Id and child arrays in a fixed
// order, one record per line, null values left out: export -> import into an empty database -> export is byte-identical.
// Reads page by page (keyset on id) with one query per child table per page, so memory stays flat.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Database } from '../db/database.ts';
import { BulkWriter, placeholders, q } from '../db/bulk.ts';
import { COLLECTIONS, FORMAT_KEY, FORMAT_VERSION } from './format/collections.ts';
import type { ChildSpec, CollectionSpec, Field } from './format/fields.ts';
import { toJsonText } from './format/values.ts';
import { childSpecs, mainColumns } from './import/write.ts';

const PAGE = 2000;

type Row = Record<string, unknown>;

function fieldsText(fields: Field[], row: Row): string[] {
  const parts: string[] = [];
  for (const f of fields) {
    const v = row[f.column];
    if (v === null || v === undefined) continue;
    parts.push(`${JSON.stringify(f.wire)}:${toJsonText(f.type, v)}`);
  }
  return parts;
}

function childText(spec: ChildSpec, rows: Row[]): string {
  const items = rows.map((r) =>
    spec.scalar
      ? toJsonText(spec.fields[0].type, r[spec.fields[0].column])
      : `{${fieldsText(spec.fields, r).join(',')}}`,
  );
  return `${JSON.stringify(spec.wire)}:[${items.join(',')}]`;
}

async function writeText(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

export interface ExportSummary {
  records: number;
  collections: Record<string, number>;
}

export async function exportData(
  database: Database,
  out: Writable,
  options: { progress?: (records: number) => void } = {},
): Promise<ExportSummary> {
  const summary: ExportSummary = { records: 0, collections: {} };
  // One snapshot for the whole export: REPEATABLE READ on PostgreSQL (READ COMMITTED would see commits made between
  // two pages); on SQLite a read transaction in WAL mode sees the database as of its first read.
  // Read only: on SQLite it then never takes the write lock (src/db/sqlite-dialect.ts), so writers go on meanwhile.
  let transaction = database.db.transaction().setAccessMode('read only');
  if (database.dialect === 'postgres') transaction = transaction.setIsolationLevel('repeatable read');
  await transaction.execute(async (trx) => {
    const bulk = new BulkWriter(trx, database);
    await writeText(out, `{${JSON.stringify(FORMAT_KEY)}:${JSON.stringify(FORMAT_VERSION)}`);
    for (const spec of COLLECTIONS) {
      let count = 0;
      await writeText(out, `,\n${JSON.stringify(spec.name)}:[`);
      for (let after = 0; ;) {
        const rows = await bulk.run(`select * from ${q(spec.table)} where id > ? order by id limit ${PAGE}`, [after]);
        const last = rows[rows.length - 1];
        if (!last) break;
        const lines = await recordsText(bulk, spec, rows);
        await writeText(out, (count ? ',\n' : '\n') + lines.join(',\n'));
        count += rows.length;
        summary.records += rows.length;
        options.progress?.(summary.records);
        after = Number(last.id);
      }
      await writeText(out, count ? '\n]' : ']');
      summary.collections[spec.name] = count;
    }
    await writeText(out, '\n}\n');
  });
  return summary;
}

async function recordsText(bulk: BulkWriter, spec: CollectionSpec, rows: Row[]): Promise<string[]> {
  const ids = rows.map((r) => Number(r.id));
  /** child rows of the page per table, grouped by parent id */
  const owned = new Map<string, Map<number, Row[]>>();
  const read = async (table: string, parentColumn: string, order: string[]) => {
    const byParent = new Map<number, Row[]>();
    const result = await bulk.run(
      `select * from ${q(table)} where ${q(parentColumn)} in (${placeholders(ids.length)}) order by ${[parentColumn, ...order].map(q).join(',')}`,
      ids,
    );
    for (const r of result) {
      const p = Number(r[parentColumn]);
      let list = byParent.get(p);
      if (!list) byParent.set(p, (list = []));
      list.push(r);
    }
    owned.set(table, byParent);
  };
  const kinds = spec.kinds ? new Set(rows.map((r) => String(r.kind))) : new Set<string>();
  for (const c of childSpecs(spec)) {
    if (spec.kinds && ![...kinds].some((k) => spec.kinds?.[k]?.children.includes(c))) continue;
    await read(c.table, c.parentColumn, c.order);
  }
  const detailTables = new Set(
    [...kinds].flatMap((k) => (spec.kinds?.[k]?.detail ? [spec.kinds[k].detail.table] : [])),
  );
  for (const t of detailTables) await read(t, 'contract_agreement_id', []);

  const header = spec.fields;
  const ledger = spec.ledgerFrom ? mainColumns(spec).includes('company_code_id') : false;
  return rows.map((row) => {
    const parts = fieldsText(header, row);
    if (ledger)
      parts.splice(
        parts.findIndex((p) => p.startsWith(`"${spec.ledgerFrom?.field}"`)) + 1,
        0,
        `"CompanyCodeId":${Number(row.company_code_id)}`,
      );
    const kind = spec.kinds?.[String(row.kind)];
    if (kind?.detail) {
      const d = owned.get(kind.detail.table)?.get(Number(row.id))?.[0];
      if (d) parts.push(...fieldsText(kind.detail.fields, d));
    }
    for (const c of [...spec.children, ...(kind?.children ?? [])]) {
      const list = owned.get(c.table)?.get(Number(row.id));
      if (list?.length) parts.push(childText(c, list));
    }
    return `{${parts.join(',')}}`;
  });
}
