// Multi-row INSERT ... ON CONFLICT for the importer, the demo loader and the read models' rebuilds: one statement per
// chunk of rows,
// chunked under the engines' bound-parameter limits (SQLite 32766, PostgreSQL 65535), SQL text cached per shape.
import { CompiledQuery } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { Database, DialectName, Executor } from './database.ts';

const MAX_PARAMS = 32_000;
const MAX_ROWS = 1_000;

export type Conflict = { update: string[] } | 'nothing' | 'none';

export class BulkWriter {
  private readonly sqlCache = new Map<string, string>();
  private readonly statements = new Map<string, SQLite.Statement>();
  /** Rows written (for progress and measurements). */
  rows = 0;
  readonly dialect: DialectName;
  /** On SQLite: the raw handle, so statements are prepared once and run synchronously (same connection as `db`). */
  private readonly sqlite?: SQLite.Database;

  /** `db` is the transaction of the work; `database` is where it runs. */
  constructor(
    readonly db: Executor,
    database: Pick<Database, 'dialect' | 'sqlite'>,
  ) {
    this.dialect = database.dialect;
    this.sqlite = database.sqlite;
  }

  /**
   * Inserts rows (arrays in `columns` order). `{ update: key }`: upsert by the key columns (the other columns are updated);
   * 'nothing': skip rows whose key exists; 'none': plain insert.
   */
  async insert(table: string, columns: string[], rows: unknown[][], conflict: Conflict = 'none'): Promise<void> {
    return this.insertRows(table, columns, rows, conflict, (params, p, row) => {
      for (const v of row) params[p++] = v === undefined ? null : v;
    });
  }

  /** insert, for rows that are objects with (at least) the columns as keys: no array is made per row. */
  async insertObjects<R extends object>(
    table: string,
    columns: Array<keyof R & string>,
    rows: R[],
    conflict: Conflict = 'none',
  ): Promise<void> {
    return this.insertRows(table, columns, rows, conflict, (params, p, row) => {
      for (const c of columns) params[p++] = row[c] ?? null;
    });
  }

  /** The statements of an insert; `fill` writes a row's values into `params` from index `p` on. */
  private async insertRows<R>(
    table: string,
    columns: string[],
    rows: R[],
    conflict: Conflict,
    fill: (params: unknown[], p: number, row: R) => void,
  ): Promise<void> {
    const perStatement = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMS / columns.length)));
    for (let i = 0; i < rows.length;) {
      // full statements, then the rest in power-of-two sizes: a few statement shapes per table, each prepared once
      const left = rows.length - i;
      const n = left >= perStatement ? perStatement : 2 ** Math.floor(Math.log2(left));
      const chunk = i === 0 && n === rows.length ? rows : rows.slice(i, i + n);
      i += n;
      const params = new Array<unknown>(chunk.length * columns.length);
      for (let r = 0; r < chunk.length; r++) fill(params, r * columns.length, chunk[r] as R);
      const text = this.statement(table, columns, chunk.length, conflict);
      if (this.sqlite) this.prepared(text).run(params);
      else await this.db.executeQuery(CompiledQuery.raw(text, params));
      this.rows += chunk.length;
    }
  }

  /** Runs one statement with `?` placeholders (rewritten to $n on PostgreSQL). */
  async run<R = Record<string, unknown>>(sqlText: string, params: unknown[] = []): Promise<R[]> {
    if (this.sqlite) {
      const stmt = this.prepared(sqlText);
      return (stmt.reader ? stmt.all(params) : (stmt.run(params), [])) as R[];
    }
    const text = this.dialect === 'postgres' ? numbered(sqlText) : sqlText;
    return (await this.db.executeQuery<R>(CompiledQuery.raw(text, params))).rows;
  }

  private prepared(text: string): SQLite.Statement {
    let stmt = this.statements.get(text);
    if (!stmt) {
      if (this.statements.size > 500) this.statements.clear();
      this.statements.set(text, (stmt = (this.sqlite as SQLite.Database).prepare(text)));
    }
    return stmt;
  }

  private statement(table: string, columns: string[], n: number, conflict: Conflict): string {
    const key = `${table}|${columns.join(',')}|${JSON.stringify(conflict)}|${n}`;
    let text = this.sqlCache.get(key);
    if (text) return text;
    const pg = this.dialect === 'postgres';
    let p = 0;
    const tuples: string[] = [];
    for (let r = 0; r < n; r++) tuples.push(`(${columns.map(() => (pg ? `$${++p}` : '?')).join(',')})`);
    text = `insert into ${q(table)} (${columns.map(q).join(',')}) values ${tuples.join(',')}`;
    if (conflict === 'nothing') text += ' on conflict do nothing';
    else if (conflict !== 'none') {
      const rest = columns.filter((c) => !conflict.update.includes(c));
      text += ` on conflict (${conflict.update.map(q).join(',')}) do ${rest.length ? `update set ${rest.map((c) => `${q(c)} = excluded.${q(c)}`).join(', ')}` : 'nothing'}`;
    }
    this.sqlCache.set(key, text);
    return text;
  }
}

export const q = (identifier: string) => `"${identifier}"`;

function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/** `?, ?, ?` for an IN list. */
export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(',');

/**
 * Runs `fn` over slices of at most `size` items, for IN lists under the parameter limit. A slice is padded to a power
 * of two by repeating its last item (the same IN list), so that its statement has one of a few shapes, each prepared
 * once.
 */
export async function inChunks<T>(items: T[], size: number, fn: (slice: T[]) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    const slice = items.slice(i, i + size);
    const padded = 2 ** Math.ceil(Math.log2(slice.length));
    for (let k = slice.length; k < padded; k++) slice.push(slice[slice.length - 1] as T);
    await fn(slice);
  }
}
