// One record of the file -> its column values as the parsing stage hands them over (transfer.ts: plain arrays in the
// spec's order), with every problem reported. No database access here. The values go straight into arrays: a row
// object built by keyed stores and read back by keyed loads cost the stage's thread more than reading the file.
import { rowColumns, type ChildSpec, type CollectionSpec, type Field, type KindSpec } from '../format/fields.ts';
import { ColumnProblem, Num, toColumn, type JsonValue } from '../format/values.ts';
import { shown } from './shown.ts';
import { childSpecsOf, type Report } from './record.ts';
import type { ParsedArrays } from './transfer.ts';

const isObject = (v: JsonValue | undefined): v is { [key: string]: JsonValue } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Num);

/**
 * Where a value is, for its problems (spelled out only then): a field of the record (no `wire`), a field of entry
 * `index` of child array `wire`, or (`scalar`) the entry itself.
 */
function pathOf(f: Field, wire?: string, index?: number, scalar?: boolean): string {
  if (wire === undefined) return f.wire;
  return scalar ? `${wire}[${index}]` : `${wire}[${index}].${f.wire}`;
}

/**
 * Appends the column value of one field to `out`; false after reporting its problem. As a row's value: a value that is
 * missing or null stays null (0 for a non-nullable bool that is missing) even when that is a problem; a value that
 * failed its check is left undefined.
 */
function readValue(
  out: unknown[],
  f: Field,
  v: JsonValue | undefined,
  report: Report,
  wire?: string,
  index?: number,
  scalar?: boolean,
): boolean {
  if (v === undefined || v === null) {
    let ok = true;
    if (f.required) {
      report(pathOf(f, wire, index, scalar), v === null ? 'must not be null' : 'is missing');
      ok = false;
    }
    out.push(f.type === 'bool' && v === undefined && !f.nullable ? 0 : null);
    if (f.type === 'bool' && v === null && !f.nullable) {
      report(pathOf(f, wire, index, scalar), 'must be true or false, got null');
      ok = false;
    }
    return ok;
  }
  const c = toColumn(f.type, v);
  let problem: string | undefined;
  if (c instanceof ColumnProblem) problem = c.error;
  // Ids are positive, as everywhere (the API names no record 0 or below; the export pages from Id 1)
  else if (f.column === 'id' && (c as number) < 1)
    problem = `must be a positive integer (1 to 2147483647), got ${v instanceof Num ? v.text : '?'}`;
  else if (f.values && !f.values.includes(c as string))
    problem = `unknown value '${String(c)}' (one of ${f.values.join(', ')})`;
  if (problem === undefined) {
    out.push(c);
    return true;
  }
  report(pathOf(f, wire, index, scalar), problem);
  out.push(undefined);
  return false;
}

/** Reads `fields` of `obj` into `out` (one value per field, in order). */
function readFields(
  obj: { [key: string]: JsonValue },
  fields: Field[],
  out: unknown[],
  report: Report,
  wire?: string,
  index?: number,
): boolean {
  let ok = true;
  for (const f of fields) if (!readValue(out, f, obj[f.wire], report, wire, index)) ok = false;
  return ok;
}

/** The index of a column in the value arrays of a spec's rows (its fields in order, then a child's position). */
const INDEXES = new WeakMap<object, Map<string, number>>();
function columnIndex(key: ChildSpec | CollectionSpec, column: string): number {
  let m = INDEXES.get(key);
  if (!m) {
    INDEXES.set(key, (m = new Map(rowColumns(key).map((c, i) => [c, i]))));
  }
  const i = m.get(column);
  if (i === undefined) throw new Error(`import: no column ${column} in ${key.table}`);
  return i;
}

interface ReadRows {
  spec: ChildSpec;
  rows: unknown[][];
}

function readChildren(obj: { [key: string]: JsonValue }, spec: ChildSpec, report: Report): ReadRows | null {
  const v = obj[spec.wire];
  if (v === undefined || v === null) return { spec, rows: [] };
  if (!Array.isArray(v)) {
    report(spec.wire, 'must be an array');
    return null;
  }
  let ok = true;
  const rows: unknown[][] = [];
  const keys = new Set<string>();
  const keyAt = spec.key.map((c) => columnIndex(spec, c));
  for (let i = 0; i < v.length; i++) {
    const item = v[i] as JsonValue;
    const row: unknown[] = [];
    if (spec.scalar) {
      if (!readValue(row, spec.fields[0], item, report, spec.wire, i, true)) ok = false;
    } else if (!isObject(item)) {
      report(`${spec.wire}[${i}]`, 'must be an object');
      ok = false;
      continue;
    } else {
      const wires = wiresOf(spec);
      for (const k of Object.keys(item)) if (!wires.has(k)) report(`${spec.wire}[${i}].${k}`, 'unknown field');
      if (!readFields(item, spec.fields, row, report, spec.wire, i)) ok = false;
    }
    if (spec.position) row.push(i);
    const key = keyAt.length === 1 ? String(row[keyAt[0] as number]) : keyAt.map((k) => String(row[k])).join('|');
    if (keys.has(key)) {
      const named = spec.key.includes('id') ? `Id ${shown(row[columnIndex(spec, 'id')])}` : `entry ${key}`;
      report(`${spec.wire}[${i}]`, `duplicate ${named} in ${spec.wire}`);
      ok = false;
    }
    keys.add(key);
    rows.push(row);
  }
  return ok ? { spec, rows } : null;
}

/** The field names of a child entry (built once per spec, not per record). */
const CHILD_WIRES = new WeakMap<ChildSpec, Set<string>>();
function wiresOf(spec: ChildSpec): Set<string> {
  let s = CHILD_WIRES.get(spec);
  if (!s) CHILD_WIRES.set(spec, (s = new Set(spec.fields.map((f) => f.wire))));
  return s;
}

/** The field names a record of this collection (and kind) may have (built once per spec and kind). */
const KNOWN = new WeakMap<CollectionSpec, Map<KindSpec | undefined, Set<string>>>();
function knownFields(spec: CollectionSpec, kind: KindSpec | undefined): Set<string> {
  let byKind = KNOWN.get(spec);
  if (!byKind) KNOWN.set(spec, (byKind = new Map<KindSpec | undefined, Set<string>>()));
  let known = byKind.get(kind);
  if (!known) {
    known = new Set([...spec.fields.map((f) => f.wire), ...spec.children.map((c) => c.wire)]);
    if (spec.ledgerFrom) known.add('CompanyCodeId');
    if (kind) for (const f of [...(kind.detail?.fields ?? []), ...kind.children]) known.add(f.wire);
    byKind.set(kind, known);
  }
  return known;
}

/** Parses one record into the arrays the importer receives; null when it has a problem (each one reported). */
export function parseRecord(spec: CollectionSpec, value: JsonValue, report: Report): ParsedArrays | null {
  if (!isObject(value)) {
    report('', 'a record must be a JSON object');
    return null;
  }
  const values: unknown[] = [];
  let ok = readFields(value, spec.fields, values, report);
  let kind: KindSpec | undefined;
  const kindName = spec.kinds ? (values[columnIndex(spec, 'kind')] as string | null | undefined) : undefined;
  if (spec.kinds && typeof kindName === 'string') kind = spec.kinds[kindName];
  const known = knownFields(spec, kind);
  for (const k of Object.keys(value)) {
    if (!known.has(k) && !(spec.kinds && !kind))
      report(k, kind ? `is not a field of kind ${kindName}` : 'unknown field (names are case-sensitive)');
  }
  let givenLedger: number | null = null;
  if (spec.ledgerFrom && value.CompanyCodeId !== undefined && value.CompanyCodeId !== null) {
    const c = toColumn('int', value.CompanyCodeId);
    if (c instanceof ColumnProblem) {
      report('CompanyCodeId', c.error);
      ok = false;
    } else givenLedger = c as number;
  }
  let detail: unknown[] | null = null;
  if (kind?.detail) {
    detail = [];
    if (!readFields(value, kind.detail.fields, detail, report)) ok = false;
  }
  const children: ReadRows[] = [];
  for (const c of childSpecsOf(spec, kind)) {
    const rows = readChildren(value, c, report);
    if (rows) children.push(rows);
    else ok = false;
  }
  if (!siblingsNamed(children, report)) ok = false;
  if (!ok || typeof values[columnIndex(spec, 'id')] !== 'number') return null;
  return [values, givenLedger, kindName ?? null, detail, children.map((c) => c.rows)];
}

/** Child-row fields naming an entry of another child array of the same record (Field.sibling) name one of it: the
 * record's child arrays replace the stored ones, so after the import its rows are exactly those of the record. */
function siblingsNamed(children: ReadRows[], report: Report): boolean {
  let ok = true;
  for (const c of children)
    for (const f of c.spec.fields) {
      if (!f.sibling) continue;
      const named = children.find((s) => s.spec.wire === f.sibling);
      const ids = new Set(named?.rows.map((r) => r[columnIndex(named.spec, 'id')]));
      const at = columnIndex(c.spec, f.column);
      c.rows.forEach((r, i) => {
        const v = r[at];
        if (v === null || v === undefined || ids.has(v)) return;
        report(
          `${c.spec.wire}[${i}].${f.wire}`,
          `unknown reference: no ${f.sibling} entry with Id ${shown(v)} in this record (it must name one of its own ${f.sibling})`,
        );
        ok = false;
      });
    }
  return ok;
}
