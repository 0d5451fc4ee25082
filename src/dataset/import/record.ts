// One record of the file -> column rows, references to check, problems. No database access here.
import type { ChildSpec, CollectionSpec, Field, KindSpec, Ref } from '../format/fields.ts';
import { Num, toColumn, type JsonValue } from '../format/values.ts';
import { shown } from './lookup.ts';

/** A reference a record makes. Its path is spelled out only when a problem names it (most records have none, and a
 * child row's path is a string made of three). */
export class RefUse {
  constructor(
    readonly ref: Ref,
    readonly id: number,
    /** The field's name, or the child array's. */
    private readonly wire: string,
    /** A top-level column (for deferring references to later records of the same collection). */
    readonly column?: string,
    /** In a child array: the entry's index and (unless the array holds the values themselves) the field's name. */
    private readonly index?: number,
    private readonly field?: string,
  ) {}

  /** Path of the value in the record, e.g. 'BuildingId', 'UseUnitIds[2]' or 'Addresses[0].CountryId'. */
  get path(): string {
    if (this.index === undefined) return this.wire;
    return this.field === undefined ? `${this.wire}[${this.index}]` : `${this.wire}[${this.index}].${this.field}`;
  }
}

export interface ChildRows {
  spec: ChildSpec;
  rows: Record<string, unknown>[];
}

export interface Parsed {
  position: number;
  /** Line where the record starts in the file. */
  line?: number;
  id: number;
  row: Record<string, unknown>;
  /** CompanyCodeId as written in a record whose ledger comes from its parent. */
  givenLedger?: number;
  kind?: KindSpec;
  kindName?: string;
  detail?: { table: string; row: Record<string, unknown> };
  children: ChildRows[];
  refs: RefUse[];
}

export type Report = (path: string, message: string) => void;

const isObject = (v: JsonValue | undefined): v is { [key: string]: JsonValue } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Num);

/** The path of a field (built only when needed: a problem, a reference). */
const pathOf = (prefix: string, f: Field): string => (prefix ? `${prefix}${f.wire}` : f.wire);

/** Reads `fields` of `obj` into `row`, reporting each problem; returns false when there was one. */
function readFields(
  obj: { [key: string]: JsonValue },
  fields: Field[],
  row: Record<string, unknown>,
  prefix: string,
  report: Report,
): boolean {
  let ok = true;
  for (const f of fields) {
    const v = obj[f.wire];
    if (v === undefined || v === null) {
      if (f.required) {
        report(pathOf(prefix, f), v === null ? 'must not be null' : 'is missing');
        ok = false;
      }
      row[f.column] = f.type === 'bool' && v === undefined && !f.nullable ? 0 : null;
      if (f.type === 'bool' && v === null && !f.nullable) {
        report(pathOf(prefix, f), 'must be true or false, got null');
        ok = false;
      }
      continue;
    }
    const c = toColumn(f.type, v);
    if ('error' in c) {
      report(pathOf(prefix, f), c.error);
      ok = false;
      continue;
    }
    // Ids are positive, as everywhere (the API names no record 0 or below; the export pages from Id 1)
    if (f.column === 'id' && (c.value as number) < 1) {
      report(pathOf(prefix, f), `must be a positive integer (1 to 2147483647), got ${v instanceof Num ? v.text : '?'}`);
      ok = false;
      continue;
    }
    if (f.values && !f.values.includes(c.value as string)) {
      report(pathOf(prefix, f), `unknown value '${String(c.value)}' (one of ${f.values.join(', ')})`);
      ok = false;
      continue;
    }
    row[f.column] = c.value;
  }
  return ok;
}

function readChildren(obj: { [key: string]: JsonValue }, spec: ChildSpec, report: Report): ChildRows | null {
  const v = obj[spec.wire];
  if (v === undefined || v === null) return { spec, rows: [] };
  if (!Array.isArray(v)) {
    report(spec.wire, 'must be an array');
    return null;
  }
  let ok = true;
  const rows: Record<string, unknown>[] = [];
  const keys = new Set<string>();
  v.forEach((item, i) => {
    const path = `${spec.wire}[${i}]`;
    const row: Record<string, unknown> = {};
    if (spec.scalar) {
      const f = spec.fields[0];
      if (!readFields({ [f.wire]: item }, spec.fields, row, '', (_p, m) => report(path, m))) ok = false;
    } else if (!isObject(item)) {
      report(path, 'must be an object');
      ok = false;
      return;
    } else {
      const wires = wiresOf(spec);
      for (const k of Object.keys(item)) if (!wires.has(k)) report(`${path}.${k}`, 'unknown field');
      if (!readFields(item, spec.fields, row, `${path}.`, report)) ok = false;
    }
    if (spec.position) row[spec.position] = i;
    const key =
      spec.key.length === 1 ? String(row[spec.key[0] as string]) : spec.key.map((c) => String(row[c])).join('|');
    if (keys.has(key)) {
      report(path, `duplicate ${spec.key.includes('id') ? `Id ${shown(row.id)}` : `entry ${key}`} in ${spec.wire}`);
      ok = false;
    }
    keys.add(key);
    rows.push(row);
  });
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

/** A record as the parsing stage reads it: its references are found where it is checked (transfer.ts rebuilds them
 * from the spec on arrival, so the stage does not spend time on them). */
export type ParsedRecord = Omit<Parsed, 'refs'>;

/** Parses one record; null when it has a problem (each one reported). */
export function parseRecord(
  spec: CollectionSpec,
  value: JsonValue,
  position: number,
  report: Report,
): ParsedRecord | null {
  if (!isObject(value)) {
    report('', 'a record must be a JSON object');
    return null;
  }
  const row: Record<string, unknown> = {};
  let ok = readFields(value, spec.fields, row, '', report);
  let kind: KindSpec | undefined;
  const kindName = spec.kinds ? (row.kind as string | null) : undefined;
  if (spec.kinds && typeof kindName === 'string') kind = spec.kinds[kindName];
  const known = knownFields(spec, kind);
  for (const k of Object.keys(value)) {
    if (!known.has(k) && !(spec.kinds && !kind))
      report(k, kind ? `is not a field of kind ${kindName}` : 'unknown field (names are case-sensitive)');
  }
  let givenLedger: number | undefined;
  if (spec.ledgerFrom && value.CompanyCodeId !== undefined && value.CompanyCodeId !== null) {
    const c = toColumn('int', value.CompanyCodeId);
    if ('error' in c) {
      report('CompanyCodeId', c.error);
      ok = false;
    } else givenLedger = c.value as number;
  }
  let detail: Parsed['detail'];
  if (kind?.detail) {
    const d: Record<string, unknown> = {};
    if (!readFields(value, kind.detail.fields, d, '', report)) ok = false;
    detail = { table: kind.detail.table, row: d };
  }
  const children: ChildRows[] = [];
  for (const c of childSpecsOf(spec, kind)) {
    const rows = readChildren(value, c, report);
    if (rows) children.push(rows);
    else ok = false;
  }
  if (!siblingsNamed(children, report)) ok = false;
  if (!ok || typeof row.id !== 'number') return null;
  return {
    position,
    id: row.id,
    row,
    givenLedger,
    kind,
    kindName: kindName ?? undefined,
    detail,
    children,
  };
}

/** The child arrays a record of this collection and kind has, in the order of its `children`. */
export const childSpecsOf = (spec: CollectionSpec, kind: KindSpec | undefined): ChildSpec[] =>
  kind?.children.length ? [...spec.children, ...kind.children] : spec.children;

/**
 * The references of a parsed record, in the order of its fields: the record's own, its kind's detail fields, then its
 * child rows (a path names the entry: 'UseUnitIds[2]', 'Addresses[0].CountryId'). Only values that are given.
 */
export function refsOf(
  spec: CollectionSpec,
  kind: KindSpec | undefined,
  row: Record<string, unknown>,
  detail: Record<string, unknown> | undefined,
  children: ChildRows[],
): RefUse[] {
  const refs: RefUse[] = [];
  const own = (fields: Field[], values: Record<string, unknown>) => {
    for (const f of fields) {
      const id = values[f.column];
      if (f.ref && id !== null && id !== undefined) refs.push(new RefUse(f.ref, id as number, f.wire, f.column));
    }
  };
  own(spec.fields, row);
  if (kind?.detail && detail) own(kind.detail.fields, detail);
  for (const c of children) {
    const { wire, fields, scalar } = c.spec;
    c.rows.forEach((r, i) => {
      for (const f of fields) {
        const id = r[f.column];
        if (f.ref && id !== null && id !== undefined)
          refs.push(new RefUse(f.ref, id as number, wire, undefined, i, scalar ? undefined : f.wire));
      }
    });
  }
  return refs;
}

/** Child-row fields naming an entry of another child array of the same record (Field.sibling) name one of it: the
 * record's child arrays replace the stored ones, so after the import its rows are exactly those of the record. */
function siblingsNamed(children: ChildRows[], report: Report): boolean {
  let ok = true;
  for (const c of children)
    for (const f of c.spec.fields) {
      if (!f.sibling) continue;
      const ids = new Set(children.find((s) => s.spec.wire === f.sibling)?.rows.map((r) => r.id));
      c.rows.forEach((r, i) => {
        const v = r[f.column];
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
