// How parsed records cross from the parsing stage (stage.ts) to the importer: plain arrays, sent as JSON text, which
// both threads turn into objects faster than structured cloning does (measured: a batch of records as objects
// cloned or as JSON cost the receiving thread as much as parsing the file; the same records as arrays cost a third).
// Everything a record's Parsed form holds that the collection's spec already says (field names, the kind's tables,
// the references) is left out and rebuilt from the spec on arrival.
import { COLLECTIONS } from '../format/collections.ts';
import { rowColumns, type CollectionSpec, type Field } from '../format/fields.ts';
import type { Deletion } from './deletions.ts';
import { childSpecsOf, refsOf, type ChildRows, type Parsed } from './record.ts';

/** A record's values: its fields in spec order, its CompanyCodeId as written, kind, detail fields, child rows. */
export type ParsedArrays = [
  row: unknown[],
  givenLedger: number | null,
  kindName: string | null,
  detail: unknown[] | null,
  children: unknown[][][],
];
/** A deletion: the collection's name and the Id. */
export type DeletionArrays = [collection: string, id: number];

/**
 * One record of the file: where it is, the Id it gives (only when it has problems), its problems as path and message
 * pairs (0: none), and the parsed record (null when it has a problem).
 */
export type Item = [
  position: number,
  line: number,
  id: number | null,
  problems: string[] | 0,
  parsed: ParsedArrays | DeletionArrays | null,
];

/** A function that makes a row from its values, in the order parseRecord gives them (fields, then a child's
 * position): an object literal compiled for the columns (a loop of keyed stores is several times slower, and this runs
 * for every row of the file on the importer's thread). */
type RowOf = (values: unknown[]) => Record<string, unknown>;
const ROWS = new WeakMap<object, RowOf>();
function rowOf(spec: { fields: Field[]; position?: string }): RowOf {
  let make = ROWS.get(spec);
  if (!make) {
    // the column names come from the format's spec (collections.ts), never from the file
    const literal = rowColumns(spec).map((c, i) => `${JSON.stringify(c)}: v[${i}]`);
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    make = new Function('v', `return {${literal.join(', ')}};`) as RowOf;
    ROWS.set(spec, make);
  }
  return make;
}

export function decodeParsed(spec: CollectionSpec, a: ParsedArrays, position: number, line: number): Parsed {
  const [values, givenLedger, kindName, detailValues, childValues] = a;
  const row = rowOf(spec)(values);
  const kind = kindName === null ? undefined : spec.kinds?.[kindName];
  const detail =
    kind?.detail && detailValues ? { table: kind.detail.table, row: rowOf(kind.detail)(detailValues) } : undefined;
  const children: ChildRows[] = childSpecsOf(spec, kind).map((c, i) => {
    const make = rowOf(c);
    return { spec: c, rows: (childValues[i] ?? []).map(make) };
  });
  return {
    position,
    line,
    id: row.id as number,
    row,
    givenLedger: givenLedger ?? undefined,
    kind,
    kindName: kindName ?? undefined,
    detail,
    children,
    refs: refsOf(spec, kind, row, detail?.row, children),
  };
}

export const encodeDeletion = (d: Pick<Deletion, 'spec' | 'id'>): DeletionArrays => [d.spec.name, d.id];

export function decodeDeletion(a: DeletionArrays, position: number, line: number): Deletion {
  const spec = COLLECTIONS.find((c) => c.name === a[0]);
  if (!spec) throw new Error(`import: a deletion names an unknown collection '${a[0]}'`);
  return { position, line, spec, id: a[1] };
}
