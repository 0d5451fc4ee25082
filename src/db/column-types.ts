// Column types that differ between the engines, for migrations (which are written against Kysely<any>).
import { sql, type Kysely, type ColumnDefinitionBuilder, type CreateTableBuilder } from 'kysely';
import { isPostgres } from './database.ts';

/** Exact decimals: NUMERIC on PostgreSQL, TEXT on SQLite (SQLite's NUMERIC affinity would turn them into floats). */
export function decimal(db: Kysely<any>) {
  return isPostgres(db) ? sql`numeric` : sql`text`;
}

/** A generated integer primary key. */
export function withAutoId<T extends string>(
  db: Kysely<any>,
  table: CreateTableBuilder<T, any>,
): CreateTableBuilder<T, any> {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (c: ColumnDefinitionBuilder) => c.primaryKey())
    : table.addColumn('id', 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement());
}
