// A record as the importer checks and writes it (parse-record.ts reads it from the file, transfer.ts carries it over),
// and the references it makes.
import type { ChildSpec, CollectionSpec, Field, KindSpec, Ref } from '../format/fields.ts';

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
