// Contract agreements: the header every kind shares (one query for all kinds), the kind descriptor, and the
// endpoints of a kind in both versions (two presenters over the same rows; docs/data-model.md).
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { TProperties } from '@sinclair/typebox';
import type { Executor } from '../db/database.ts';
import type { ContractAgreementKind } from './tables.ts';
import { ledgerCondition, scopeOf, scopeValues, type LedgerScope } from '../auth/ledger-scope.ts';
import { fixedQueryByShape } from '../db/fixed-query.ts';
import { WireObject } from '../http/schemas.ts';
import { dateTime } from '../http/present.ts';
import { compileSerializer } from '../http/serializer.ts';
import { Codes } from './codes.ts';
import type { Reader, Window } from './engine.ts';
import { CONTRACT_FILTERS, type Filters } from './params.ts';
import { DateField, DateTimeField, Int32, Str, UseUnitRef } from './wire.ts';

/** The header of a contract agreement with its license agreement and use unit. */
export interface HeaderRow {
  id: number;
  valid_from: string;
  valid_to: string | null;
  input_date: string | null;
  first_debit: string | null;
  license_agreement_id: number;
  id_num: string;
  use_unit_id: number;
  use_unit_number: string;
}

/** A view of a kind in one version: its fields after the header, and the row-to-wire function. */
export interface View<L> {
  fields: TProperties;
  present(h: HeaderRow, loaded: L, codes: Codes): Record<string, unknown>;
}

/** One descriptor per kind: what it loads for a page of headers, and its presenter per version. */
export interface ContractKind<L> {
  kind: ContractAgreementKind;
  /** Detail and child rows of these agreements: one query per table. */
  load(db: Executor, ids: number[]): Promise<L>;
  /** Catalogue ids the presenters show (looked up in one query). */
  codeIds(loaded: L): Iterable<number | null | undefined>;
  v12: View<L>;
  v10?: View<L>;
}

/** A kind descriptor with its loaded type inferred. */
export const defineKind = <L>(kind: ContractKind<L>): ContractKind<L> => kind;

/** Keyset, offset and limit on an Id-ordered query. */
export function windowed<D, T extends keyof D, O>(
  qb: SelectQueryBuilder<D, T, O>,
  idColumn: string,
  w: Window,
): SelectQueryBuilder<D, T, O> {
  const out = qb.orderBy(sql.ref(idColumn)).limit(w.limit).offset(w.offset);
  return w.afterId === undefined ? out : out.where(sql.ref(idColumn), '>', w.afterId);
}

/** Use-unit filters shared by contract agreements and rent adjustments (`uu` = the record's use unit). */
export function useUnitFilters<D, T extends keyof D, O>(
  qb: SelectQueryBuilder<D, T, O>,
  f: Filters,
): SelectQueryBuilder<D, T, O> {
  let out = qb;
  if (f.useUnitId !== undefined) out = out.where(sql.ref('uu.id'), '=', f.useUnitId);
  if (f.useUnitNumber !== undefined) out = out.where(sql.ref('uu.use_unit_number'), '=', f.useUnitNumber);
  if (f.economicUnitId !== undefined) out = out.where(sql.ref('uu.economic_unit_id'), '=', f.economicUnitId);
  return out;
}

/** The conditions of a header page on the agreement table alone (alias ca). */
function agreementConditions(kind: ContractAgreementKind, f: Filters, scope: LedgerScope): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [
    sql<SqlBool>`ca.kind = ${kind}`,
    ledgerCondition(sql.ref<number>('ca.company_code_id'), scope),
  ];
  if (f.contractAgreementId !== undefined) out.push(sql<SqlBool>`ca.id = ${f.contractAgreementId}`);
  if (f.licenseAgreementId !== undefined) out.push(sql<SqlBool>`ca.license_agreement_id = ${f.licenseAgreementId}`);
  if (f.activeOn !== undefined)
    out.push(sql<SqlBool>`ca.valid_from <= ${f.activeOn} and (ca.valid_to is null or ca.valid_to >= ${f.activeOn})`);
  return out;
}

/** The values of one header query: the kind, the window, the filters it uses and the visible ledgers (s0, s1, ...). */
export type HeaderValues = Record<string, unknown>;

export function headerValues(kind: ContractAgreementKind, f: Filters, scope: LedgerScope, w: Window): HeaderValues {
  return {
    kind,
    limit: w.limit,
    offset: w.offset,
    afterId: w.afterId,
    contractAgreementId: f.contractAgreementId,
    licenseAgreementId: f.licenseAgreementId,
    activeOn: f.activeOn,
    licenseAgreementIdNum: f.licenseAgreementIdNum,
    useUnitId: f.useUnitId,
    useUnitNumber: f.useUnitNumber,
    economicUnitId: f.economicUnitId,
    ...scopeValues(scope),
  };
}

/** The window's ids (`windowIds`) from header values whose values are a fixed query's placeholders. */
export function windowIdsOf(db: Executor, v: HeaderValues) {
  const w = { limit: v.limit, offset: v.offset, afterId: v.afterId } as Window;
  return windowIds(db, v.kind as ContractAgreementKind, v, scopeOf(v), w);
}

/** The one definition of the header query, built by Kysely once per shape (src/db/fixed-query.ts). */
const headerQuery = fixedQueryByShape<HeaderValues, HeaderRow>((db, v) => {
  const qb = db
    .selectFrom('contract_agreements as ca')
    .innerJoin('license_agreements as la', 'la.id', 'ca.license_agreement_id')
    .innerJoin('use_units as uu', 'uu.id', 'la.use_unit_id')
    .select([
      'ca.id',
      'ca.valid_from',
      'ca.valid_to',
      'ca.input_date',
      'ca.first_debit',
      'ca.license_agreement_id',
      'la.id_num',
      'la.use_unit_id',
      'uu.use_unit_number',
    ]);
  // Deferred join: the window's ids are found first (on the agreement table's (kind, ..., id) index alone unless a
  // filter needs the joined tables), so a deep offset does not pay for the joins of the rows it skips (the joins
  // never drop a row: both are required foreign keys).
  return qb.where('ca.id', 'in', windowIdsOf(db, v)).orderBy('ca.id');
});

/**
 * The ids of a window of a kind's agreements, filtered and ledger-scoped, in Id order: the one definition of which
 * agreements a page or a chunk of a list holds (the live header query and the read model, read-model.ts, both use it).
 */
export function windowIds(db: Executor, kind: ContractAgreementKind, f: Filters, scope: LedgerScope, w: Window) {
  const ids = db
    .selectFrom('contract_agreements as ca')
    .select('ca.id')
    .where((eb) => eb.and(agreementConditions(kind, f, scope)));
  const byJoinedTables =
    f.licenseAgreementIdNum !== undefined ||
    f.useUnitId !== undefined ||
    f.useUnitNumber !== undefined ||
    f.economicUnitId !== undefined;
  if (!byJoinedTables) return windowed(ids, 'ca.id', w);
  let joined = ids
    .innerJoin('license_agreements as la', 'la.id', 'ca.license_agreement_id')
    .innerJoin('use_units as uu', 'uu.id', 'la.use_unit_id');
  if (f.licenseAgreementIdNum !== undefined) joined = joined.where('la.id_num', '=', f.licenseAgreementIdNum);
  return windowed(useUnitFilters(joined, f), 'ca.id', w);
}

export function headerRows(kind: ContractAgreementKind) {
  return (db: Executor, f: Filters, scope: LedgerScope, w: Window): Promise<HeaderRow[]> =>
    headerQuery.rows(db, headerValues(kind, f, scope, w));
}

const V12_HEADER = {
  Id: Int32(),
  ValidFrom: DateField(),
  ValidTo: DateField(),
  Inputdate: DateField(),
  FirstDebit: DateField(),
  LicenseAgreement: WireObject({ Id: Int32(), IdNum: Str(), UseUnit: UseUnitRef }),
};
const V10_HEADER = { Id: Int32(), LicenseAgreementId: Int32(), ValidFrom: DateTimeField(), ValidTo: DateTimeField() };

const presentV12Header = (h: HeaderRow) => ({
  Id: h.id,
  ValidFrom: h.valid_from,
  ValidTo: h.valid_to,
  Inputdate: h.input_date,
  FirstDebit: h.first_debit,
  LicenseAgreement: {
    Id: h.license_agreement_id,
    IdNum: h.id_num,
    UseUnit: { Id: h.use_unit_id, UseUnitNumber: h.use_unit_number },
  },
});
const presentV10Header = (h: HeaderRow) => ({
  Id: h.id,
  LicenseAgreementId: h.license_agreement_id,
  ValidFrom: dateTime(h.valid_from),
  ValidTo: dateTime(h.valid_to),
});

type Related<L> = { loaded: L; codes: Codes };
type ContractReader<L> = Reader<HeaderRow, Related<L>>;

/** Two JSON objects' texts as one object (the second's properties after the first's). */
export function joinObjects(a: string, b: string): string {
  if (b === '{}') return a;
  if (a === '{}') return b;
  return `${a.slice(0, -1)},${b.slice(1)}`;
}

/**
 * The record written as its header's JSON joined with the kind's: each part by the compiled serializer of its own
 * fields, so neither the merged object (a spread of both) nor a walk over its wider, changing shape is needed. The
 * bytes equal the compiled serializer of the merged fields over the merged object (written.test.ts); undefined when a
 * part does not compile or the parts share a property name (the merged object would keep only one).
 */
function joinedWriter<L>(
  header: TProperties,
  presentHeader: (h: HeaderRow) => Record<string, unknown>,
  view: View<L>,
  omitNulls: boolean,
): ((h: HeaderRow, r: Related<L>) => string) | undefined {
  if (Object.keys(view.fields).some((k) => k in header)) return undefined;
  const head = compileSerializer(WireObject(header), omitNulls);
  const body = compileSerializer(WireObject(view.fields), omitNulls);
  if (!head || !body) return undefined;
  return (h, r) => joinObjects(head(presentHeader(h)), body(view.present(h, r.loaded, r.codes)));
}

/** The kind's readers: version 1.2 always, version 1.0 for the kinds that have a view in it. */
export function contractReaders<L>(k: ContractKind<L>): { v12: ContractReader<L>; v10?: ContractReader<L> } {
  const rows = headerRows(k.kind);
  const related = async (db: Executor, headers: HeaderRow[]) => {
    const loaded = await k.load(
      db,
      headers.map((h) => h.id),
    );
    return { loaded, codes: await Codes.load(db, k.codeIds(loaded)) };
  };
  const v10 = k.v10;
  return {
    v12: {
      summary: `${k.kind} contract agreements`,
      filters: CONTRACT_FILTERS,
      fields: { ...V12_HEADER, ...k.v12.fields },
      rows,
      related,
      present: (h, r) => ({ ...presentV12Header(h), ...k.v12.present(h, r.loaded, r.codes) }),
      writer: (omitNulls) => joinedWriter(V12_HEADER, presentV12Header, k.v12, omitNulls),
    },
    v10: v10 && {
      summary: `${k.kind} contract agreements (version 1.0)`,
      filters: CONTRACT_FILTERS,
      fields: { ...V10_HEADER, ...v10.fields },
      rows,
      related,
      present: (h, r) => ({ ...presentV10Header(h), ...v10.present(h, r.loaded, r.codes) }),
      writer: (omitNulls) => joinedWriter(V10_HEADER, presentV10Header, v10, omitNulls),
    },
  };
}
