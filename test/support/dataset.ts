// Helpers of the data tests: fresh databases, export to a string, import from a string, row counts.
import { Readable, Writable } from 'node:stream';
import { freshDatabase, type TestDatabase } from './db.ts';
import type { Database, DialectName } from '../../src/db/database.ts';
import type { DB } from '../../src/db/schema.ts';
import { exportData } from '../../src/dataset/export.ts';
import { importData, ImportFailed, type ImportOptions, type ImportSummary } from '../../src/dataset/import/importer.ts';
import { formatProblem } from '../../src/dataset/import/lookup.ts';

export async function withDb<T>(dialect: DialectName, fn: (t: TestDatabase) => Promise<T>): Promise<T> {
  const t = await freshDatabase(dialect);
  try {
    return await fn(t);
  } finally {
    await t.drop();
  }
}

export async function exportText(database: Database): Promise<string> {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(String(chunk));
      cb();
    },
  });
  await exportData(database, out);
  return chunks.join('');
}

export const importText = (database: Database, text: string, options?: ImportOptions): Promise<ImportSummary> =>
  importData(database, Readable.from([text]), options);

/** The problems of a failing import, one formatted line each (the test fails if the import succeeds). */
export async function importProblems(database: Database, text: string): Promise<string[]> {
  try {
    await importText(database, text);
  } catch (err) {
    if (err instanceof ImportFailed) return err.problems.map(formatProblem);
    throw err;
  }
  throw new Error('the import was expected to fail');
}

export async function count(database: Database, table: keyof DB): Promise<number> {
  const row = await database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A document from collections given as arrays of records. */
export const doc = (collections: Record<string, unknown[]>) => JSON.stringify(collections);

/** The export `text` plus one AllocationGroupBase naming an AllocationGroup that does not exist: an import that fails. */
export function withBrokenReference(text: string): string {
  const bad = JSON.parse(text) as Record<string, unknown>;
  (bad.AllocationGroupBases as Record<string, unknown>[]).push({
    Id: 999_999,
    Code: 'X',
    AllocationGroupId: 123_456_789,
  });
  return JSON.stringify(bad);
}
