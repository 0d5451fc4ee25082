// The persisted read model of the contract agreements (migration 2026112501; docs/performance.md, "The contract read
// model"): per agreement its wire JSON of version 1.2 and, for the kinds version 1.0 offers, 1.0, each in both null
// modes, written by the live path's own readers (header query, kind loading, presenters, compiled writers). A page or
// a chunk of a streamed list is then one statement: the state row, the window's ids (windowIds of contracts.ts: the
// same conditions, ledger scope and paging as the live query) and those ids' texts joined in the database, all from
// one snapshot. Fresh = no source row changed since the last rebuild (triggers mark it stale in the writing
// transaction) and built for this wire format; otherwise the live path answers.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { isPostgres, type Executor } from '../db/database.ts';
import { BulkWriter } from '../db/bulk.ts';
import { ALL_LEDGERS, type LedgerScope } from '../auth/ledger-scope.ts';
import type { ContractAgreementKind, ContractAgreementTextsTable } from './tables.ts';
import { headerValues, windowIdsOf, type HeaderRow, type HeaderValues } from './contracts.ts';
import { fixedQueries, fixedQueryByShape } from '../db/fixed-query.ts';
import { writersOf, type Joined, type Reader, type RecordWriters, type Window } from './engine.ts';
import type { Filters } from './params.ts';
import { idsAscending, stateGroupBy } from '../db/joined-order.ts';

const NAME = 'contract_agreements';
type View = 'v12' | 'v10';
/** Bump the leading number whenever a presenter's output changes without the fields changing. */
const FORMAT_VERSION = 1;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- readers of every kind's loaded type in one list
type AnyReader = Reader<HeaderRow, any>;
interface StoredKind {
  kind: ContractAgreementKind;
  v12: AnyReader;
  v10?: AnyReader;
}

interface WindowRow {
  stale: number | boolean;
  format: string;
  ids: number | string;
  found: number | string;
  last: number | string | null;
  /** SQLite: the ids in the order their texts were joined (checked; see `stored`). */
  order: string | null;
  json: Buffer | string | null;
}

/**
 * The statement of a stored window: the state row, the window's ids (windowIds of contracts.ts: the same conditions,
 * ledger scope and paging as the live query) and those ids' texts joined in the database, all from one snapshot.
 * Built by Kysely once per shape (src/db/fixed-query.ts); `view`, `showNulls` and `sorted` choose the family.
 * The texts in id order, on SQLite as a blob (the UTF-8 bytes reach the socket without a JavaScript string). SQLite
 * feeds the aggregate in the order of the ids subquery but does not promise it: the statement also returns the ids in
 * the order it joined them, and only if that is not ascending runs again with ORDER BY in the aggregate (`sorted`,
 * which sorts the texts: twice the statement's cost, measured 0.4 -> 0.8 ms per 500 agreements).
 */
const windowQuery = fixedQueries(
  ({ view, showNulls, sorted }: { view: View; showNulls: boolean; sorted: boolean }) =>
    fixedQueryByShape<HeaderValues, WindowRow>((db, v) => {
      const text = sql.raw(showNulls ? `coalesce(t.${view}_k, t.${view})` : `t.${view}`);
      const joined = isPostgres(db)
        ? sql`null as "order", string_agg(${text}, ',' order by p.id)`
        : sorted
          ? sql`null as "order", cast(group_concat(${text}, ',' order by p.id) as blob)`
          : sql`group_concat(p.id) as "order", cast(group_concat(${text}, ',') as blob)`;
      return sql<WindowRow>`select s.stale, s.format, count(p.id) as ids, count(${text}) as found,
      max(p.id) as last, ${joined} as json
    from read_model_state s
    left join (${windowIdsOf(db, v)}) p on s.stale = 0 and s.format = ${v.format}
    left join contract_agreement_texts t on t.id = p.id
    where s.name = ${v.name}${stateGroupBy(db)}`;
    }),
  ({ view, showNulls, sorted }) => `${view}|${showNulls}|${sorted}`,
);

/** Agreements per step of a rebuild (their texts are held until they are written). */
const ID_WINDOW = 2000;

/** The contract read model over the kinds added to it (index.ts adds every contract kind with its readers). */
export function contractReadModel() {
  const kinds: StoredKind[] = [];
  let format: string | undefined;
  /** A hash of every stored view's fields: texts of another format are not used. */
  const formatOf = () =>
    (format ??= `${FORMAT_VERSION}:${crypto
      .createHash('sha256')
      .update(JSON.stringify(kinds.map((k) => [k.kind, k.v12.fields, k.v10?.fields ?? null])))
      .digest('hex')
      .slice(0, 16)}`);

  /** A window's stored texts of a kind in a view, or undefined when the read model is not fresh. */
  async function stored(
    kind: ContractAgreementKind,
    view: View,
    db: Executor,
    f: Filters,
    scope: LedgerScope,
    w: Window,
    showNulls: boolean,
    sorted = false,
  ): Promise<Joined | undefined> {
    const rows = await windowQuery({ view, showNulls, sorted }).rows(db, {
      ...headerValues(kind, f, scope, w),
      format: formatOf(),
      name: NAME,
    });
    const row = rows[0];
    if (!row || Number(row.stale) !== 0 || row.format !== formatOf()) return undefined;
    // an agreement without its text is never expected while fresh; the live path would still answer it right
    if (Number(row.found) !== Number(row.ids)) return undefined;
    if (!idsAscending(row.order)) return stored(kind, view, db, f, scope, w, showNulls, true);
    const count = Number(row.ids);
    return { json: row.json ?? '', count, lastId: row.last === null ? undefined : Number(row.last) };
  }

  return {
    /** The stored window (what the readers' `stored` answers; `sorted`: the variant that sorts in the database). */
    stored,

    /** Adds a kind; its readers come back with the stored path attached. */
    add<R extends { v12: AnyReader; v10?: AnyReader }>(kind: ContractAgreementKind, readers: R): R {
      kinds.push({ kind, v12: readers.v12, v10: readers.v10 });
      format = undefined;
      const attach = (reader: AnyReader, view: View): AnyReader => ({
        ...reader,
        stored: (db, f, scope, w, showNulls) => stored(kind, view, db, f, scope, w, showNulls),
      });
      return { ...readers, v12: attach(readers.v12, 'v12'), v10: readers.v10 && attach(readers.v10, 'v10') };
    },

    /** Whether the read model is fresh for this wire format. */
    async fresh(db: Executor): Promise<boolean> {
      const row = await db
        .selectFrom('read_model_state')
        .select(['stale', 'format'])
        .where('name', '=', NAME)
        .executeTakeFirst();
      return row !== undefined && Number(row.stale) === 0 && row.format === formatOf();
    },

    /**
     * Rebuilds the texts from the current data and marks them fresh, in the caller's transaction (or its own). Its
     * first statement locks the state row, so on PostgreSQL every writer of a source table (whose trigger updates that
     * row) is ordered before or after the rebuild. The next ID_WINDOW agreements by Id at a time: per kind among them,
     * one header query and the kind's loading, then each view's writers in both null modes; the texts are written in
     * Id order (kind by kind, they went to every part of the table's B-tree once per kind: ~5x the insert's time on
     * SQLite). Returns the number of agreements.
     */
    async rebuild(db: Executor): Promise<number> {
      if (!db.isTransaction) return db.transaction().execute((trx) => this.rebuild(trx));
      await db.updateTable('read_model_state').set({ stale: 1 }).where('name', '=', NAME).execute();
      await db.deleteFrom('contract_agreement_texts').execute();
      const bulk = new BulkWriter(db, { dialect: isPostgres(db) ? 'postgres' : 'sqlite' });
      const writers = new Map(
        kinds.map((k) => [k.kind, { reader: k.v12, v12: writersOf(k.v12)(), v10: k.v10 && writersOf(k.v10)() }]),
      );
      let count = 0;
      for (let after = 0; ;) {
        const window = await db
          .selectFrom('contract_agreements')
          .select(['id', 'kind'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(ID_WINDOW)
          .execute();
        const last = window[window.length - 1]?.id;
        if (last === undefined) break;
        const perKind = new Map<ContractAgreementKind, number>();
        for (const r of window) perKind.set(r.kind, (perKind.get(r.kind) ?? 0) + 1);
        const texts: ReturnType<typeof textsOf>[] = [];
        for (const [kind, n] of perKind) {
          const w = writers.get(kind);
          if (!w) continue;
          // the kind's first n agreements after `after` are its agreements of the window (a reader that leaves some
          // out reads past it: those wait for their own window)
          const rows = (await w.reader.rows(db, {}, ALL_LEDGERS, { afterId: after, offset: 0, limit: n })).filter(
            (h) => h.id <= last,
          );
          const related: unknown = await w.reader.related(db, rows);
          for (const h of rows) texts.push(textsOf(h, related, w.v12, w.v10));
        }
        texts.sort((a, b) => a[0] - b[0]);
        await bulk.insert('contract_agreement_texts', TEXT_COLUMNS, texts);
        count += texts.length;
        after = last;
      }
      await db.updateTable('read_model_state').set({ stale: 0, format: formatOf() }).where('name', '=', NAME).execute();
      return count;
    },
  };
}

/** The columns of an agreement's stored texts, in the order of `textsOf`. */
const TEXT_COLUMNS: Array<keyof ContractAgreementTextsTable> = ['id', 'v12', 'v12_k', 'v10', 'v10_k'];

/** One agreement's stored texts (in TEXT_COLUMNS order); a showNullValues text equal to the other is stored as null. */
function textsOf(
  h: HeaderRow,
  related: unknown,
  v12: RecordWriters<HeaderRow, unknown>,
  v10: RecordWriters<HeaderRow, unknown> | undefined,
): [number, string, string | null, string | null, string | null] {
  const o12 = v12.omit(h, related);
  const k12 = v12.keep(h, related);
  const o10 = v10 ? v10.omit(h, related) : null;
  const k10 = v10 ? v10.keep(h, related) : null;
  return [h.id, o12, k12 === o12 ? null : k12, o10, k10 === o10 ? null : k10];
}

export type ContractReadModel = ReturnType<typeof contractReadModel>;
