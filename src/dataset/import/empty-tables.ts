// The tables of a collection (its own and its child tables) that hold no row when its records begin to come in. Only
// that collection writes them (no table belongs to two: a test checks it), and the file's Ids are unique per table
// (the importer refuses a repeated one), so no stored row of such a table can share an Id or a parent with a record of
// a later batch. The queries that look for stored rows there (the records that existed, child rows of other parents,
// left-out child rows) can find nothing, and are not run: an import into an empty database runs none of them.
// SQLite only: there the import holds the write lock from its first statement to its commit, so what was empty stays
// so but for the import's own rows. On PostgreSQL the API may commit rows meanwhile (a project and its assignments),
// which the per-batch queries must see, so they always run there.
import { q, type BulkWriter } from '../../db/bulk.ts';
import type { CollectionSpec } from '../format/fields.ts';
import { childSpecs } from './write.ts';

/** Every table the records of a collection write (its kinds' detail tables too). */
export function tablesOf(spec: CollectionSpec): string[] {
  const details = Object.values(spec.kinds ?? {}).flatMap((k) => (k.detail ? [k.detail.table] : []));
  return [...new Set([spec.table, ...childSpecs(spec).map((c) => c.table), ...details])];
}

/** The collection's own and child tables that hold no row now (none on PostgreSQL, see above). */
export async function emptyTables(bulk: BulkWriter, spec: CollectionSpec): Promise<ReadonlySet<string>> {
  const empty = new Set<string>();
  if (bulk.dialect !== 'sqlite') return empty;
  for (const table of [spec.table, ...childSpecs(spec).map((c) => c.table)])
    if ((await bulk.run(`select 1 from ${q(table)} limit 1`)).length === 0) empty.add(table);
  return empty;
}
