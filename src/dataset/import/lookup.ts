// Batched lookups for the importer: the referenced rows of a batch (one query per table), problems, names.
import { COLLECTIONS, LEDGER_TABLES } from '../format/collections.ts';
import type { BulkWriter } from '../../db/bulk.ts';
import { inChunks, placeholders, q } from '../../db/bulk.ts';

export interface ImportProblem {
  collection: string;
  /** Index of the record in its collection (0-based); -1 for a stored record the file does not hold. */
  position: number;
  /** Line (1-based) where the record starts in the file, when known. */
  line?: number;
  id: number | null;
  /** Field path within the record ('' for the record as a whole). */
  path: string;
  message: string;
}

export const formatProblem = (p: ImportProblem): string =>
  `${p.collection}${p.position >= 0 ? `[${p.position}]` : ' (stored)'}${p.id !== null ? ` (Id ${p.id})` : ''}${p.path ? ` ${p.path}` : ''}: ${p.message}`;

/** Characters a terminal takes as commands (C0, DEL, C1): a file's field names and values must not reach it raw. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const TERMINAL_CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * The same with the line where the record starts in the file, for a person (the CLI): `... (line 456)`. Control
 * characters from the file (in a field name, say) are written as `\u001b`, never sent to the terminal.
 */
export const formatProblemWithLine = (p: ImportProblem): string =>
  `${formatProblem(p)}${p.line !== undefined ? ` (line ${p.line})` : ''}`.replace(
    TERMINAL_CONTROL,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

export class ImportFailed extends Error {
  constructor(
    readonly problems: ImportProblem[],
    readonly total: number,
  ) {
    super('');
    this.message = this.summary();
  }

  /** The one-line summary, naming `details` (some of the problems) when given. */
  summary(details?: string): string {
    const named = details ? `${details}; ` : '';
    return `import failed with ${this.total} problem(s); nothing was stored: ${named}fix the file and run the import again`;
  }
}

const NAME_BY_TABLE = new Map(COLLECTIONS.map((c) => [c.table, c.name]));
/** The collection name of a table, for messages. */
export const collectionOf = (table: string) => NAME_BY_TABLE.get(table) ?? table;

export type Found = Map<string, Map<number, Record<string, unknown>>>;

/** Columns fetched for a referenced row: its ledger, catalogue kind, and columns compared by sameAs. */
function lookupColumns(table: string, extra: Set<string>): string[] {
  const cols = ['id', ...extra];
  if (LEDGER_TABLES.has(table)) cols.push('company_code_id');
  if (table === 'catalog_codes' || table === 'catalog_entries') cols.push('kind');
  return [...new Set(cols)];
}

/** Reads the rows with the needed ids, per table, in chunks under the parameter limit. */
export async function lookup(
  bulk: BulkWriter,
  need: Map<string, { ids: Set<number>; extra: Set<string> }>,
): Promise<Found> {
  const found: Found = new Map();
  for (const [table, { ids, extra }] of need) {
    const rows = new Map<number, Record<string, unknown>>();
    found.set(table, rows);
    const cols = lookupColumns(table, extra);
    await inChunks([...ids], 5000, async (slice) => {
      const result = await bulk.run(
        `select ${cols.map(q).join(',')} from ${q(table)} where id in (${placeholders(slice.length)})`,
        slice,
      );
      for (const r of result) rows.set(Number(r.id), r);
    });
  }
  return found;
}
