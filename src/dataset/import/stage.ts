// The parsing stage of an import: what needs the file but no database. It checks the document's structure (Format
// first, known collections in dependency order), parses each record into column rows (record.ts) with its problems,
// and hands the importer (importer.ts) a stream of messages: a collection starts, a slice of parsed records, it ends.
// The same stage runs on the importer's thread (small files) or in a worker thread (parse-thread.ts) while the
// importer writes, so the records cross as JSON text of plain arrays (transfer.ts): the same text in both cases.
import { COLLECTIONS, DELETIONS, FORMAT_KEY, FORMAT_VERSION } from '../format/collections.ts';
import type { CollectionSpec } from '../format/fields.ts';
import { Num, type JsonValue } from '../format/values.ts';
import type { ImportProblem } from './lookup.ts';
import { DocumentError, readDocument, type DocumentHandler, type Location } from './reader.ts';
import { parseRecord } from './parse-record.ts';
import { encodeDeletion, type Item } from './transfer.ts';

export type StageMessage =
  | { t: 'start'; name: string }
  /** A slice of the collection's records in file order: JSON text of `Item[]` (transfer.ts). */
  | { t: 'items'; json: string }
  | { t: 'end'; name: string }
  /** A problem outside every record (a top-level key that is no collection, a wrong Format). */
  | { t: 'problem'; problem: ImportProblem };

/** Receives the stage's messages in order; a promise holds the stage (and the reading) until it settles. */
export type Emit = (message: StageMessage) => void | Promise<void>;

/**
 * Reads and parses the document on this thread, handing `emit` each message (and waiting for it). A problem of the
 * document as a whole (DocumentError) is thrown after the records read before it are handed over.
 */
export async function parseDocument(input: AsyncIterable<Buffer | string>, emit: Emit): Promise<void> {
  const stage = new ParseStage(emit);
  try {
    await readDocument(input, stage);
  } catch (err) {
    await stage.flushItems();
    throw err;
  }
}

/** Records per 'items' message. */
const SLICE = 500;

export class ParseStage implements DocumentHandler {
  private current: CollectionSpec | null = null;
  private deleting = false;
  private order = -1;
  private formatSeen = false;
  private items: Item[] = [];
  /** The receiver failed: nothing more is sent. */
  private broken = false;

  constructor(private readonly emit: Emit) {}

  scalar(key: string, value: JsonValue, at: Location): void | Promise<void> {
    if (key === FORMAT_KEY) {
      // first and once, like the collections' order (docs/import-format.md)
      if (this.order >= 0 || this.formatSeen)
        throw new DocumentError(
          `Format must come first, before every collection, and appear once (dependency order: see docs/import-format.md)`,
        );
      this.formatSeen = true;
    }
    if (key === FORMAT_KEY && value === FORMAT_VERSION) return;
    const message =
      key === FORMAT_KEY
        ? `Format must be '${FORMAT_VERSION}', got ${JSON.stringify(value)}`
        : `'${key}' is not a collection (its value must be an array)`;
    return this.send({
      t: 'problem',
      problem: { collection: key, position: 0, line: at.line, id: null, path: '', message },
    });
  }

  collectionStart(name: string): void | Promise<void> {
    const spec = name === DELETIONS ? null : COLLECTIONS.find((c) => c.name === name);
    if (spec === undefined)
      throw new DocumentError(
        `unknown collection '${name}' (names are case-sensitive; known: ${[...COLLECTIONS.map((c) => c.name), DELETIONS].join(', ')})`,
      );
    const index = spec ? COLLECTIONS.indexOf(spec) : COLLECTIONS.length;
    if (index <= this.order)
      throw new DocumentError(
        `collection '${name}' must come before ${this.current?.name ?? DELETIONS} and appear once (dependency order: see docs/import-format.md)`,
      );
    this.order = index;
    this.deleting = spec === null;
    this.current = spec;
    return this.send({ t: 'start', name });
  }

  record(value: JsonValue, position: number, at: Location): void | Promise<void> {
    let problems: string[] | 0 = 0;
    const report = (path: string, message: string) => (problems ||= []).push(path, message);
    let parsed: Item[4] = null;
    if (this.deleting) {
      const d = parseDeletion(value, report);
      if (d) parsed = encodeDeletion(d);
    } else {
      parsed = parseRecord(this.current as CollectionSpec, value, report);
    }
    this.items.push([position, at.line, problems ? idOf(value) : null, problems, parsed]);
    return this.items.length >= SLICE ? this.flushItems() : undefined;
  }

  async collectionEnd(name: string): Promise<void> {
    await this.flushItems();
    await this.send({ t: 'end', name });
  }

  /** Sends the records parsed so far (also before an error of the document is passed on: their problems count). */
  flushItems(): void | Promise<void> {
    if (this.items.length === 0) return;
    const json = JSON.stringify(this.items);
    this.items = [];
    return this.send({ t: 'items', json });
  }

  private send(message: StageMessage): void | Promise<void> {
    if (this.broken) return;
    try {
      const result = this.emit(message);
      return result?.catch((err: unknown) => {
        this.broken = true;
        throw err;
      });
    } catch (err) {
      this.broken = true;
      throw err;
    }
  }
}

/** A record of Deletions: the collection it names and the Id, or null (each problem reported). */
function parseDeletion(
  value: JsonValue,
  report: (path: string, message: string) => void,
): { spec: CollectionSpec; id: number } | null {
  const obj =
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Num) ? value : null;
  const spec = typeof obj?.Collection === 'string' ? COLLECTIONS.find((c) => c.name === obj.Collection) : undefined;
  const id = obj ? idOf(obj) : null;
  if (!spec) report('Collection', `must name a collection, got ${JSON.stringify(obj?.Collection ?? null)}`);
  if (id === null) report('Id', 'must be a positive integer');
  for (const k of Object.keys(obj ?? {})) if (k !== 'Collection' && k !== 'Id') report(k, 'unknown field');
  return spec && id !== null ? { spec, id } : null;
}

/** The Id a record gives, for its problems (null when it gives none that is valid). */
export function idOf(value: JsonValue): number | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Num) return null;
  const v = value.Id;
  return v instanceof Num && /^\d{1,10}$/.test(v.text) ? Number(v.text) : null;
}
