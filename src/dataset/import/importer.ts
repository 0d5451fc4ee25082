// `wohnapi import`: reads a document (reader.ts) and upserts it in ONE transaction, batch by batch: references are
// checked against the database (rows of earlier batches included), ledgers of child rows copied from their parents,
// events recorded for the entities that carry webhooks. Any problem: everything is rolled back and all problems listed.
import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Database, Executor } from '../../db/database.ts';
import { EVENT_COLUMNS, eventValues, type DomainEvent } from '../../events/outbox.ts';
import { BulkWriter, q } from '../../db/bulk.ts';
import { COLLECTIONS, DELETIONS } from '../format/collections.ts';
import type { CollectionSpec } from '../format/fields.ts';
import { applyDeletions, type Deletion } from './deletions.ts';
import { IdSet } from './id-set.ts';
import { collectionOf, ImportFailed, lookup, type ImportProblem } from './lookup.ts';
import { shown } from './shown.ts';
import { DocumentError } from './reader.ts';
import type { Parsed } from './record.ts';
import { parseDocument, type StageMessage } from './stage.ts';
import { ParseThread, parseInThread } from './parse-thread.ts';
import { decodeDeletion, decodeParsed, type DeletionArrays, type Item, type ParsedArrays } from './transfer.ts';
import { checkRecord, withoutDanglingReferences, type Pending } from './check.ts';
import { writeBatch } from './write.ts';
import { emptyTables } from './empty-tables.ts';
import { rebuildStaleReadModels } from '../read-models.ts';
import { keyClashes } from './unique-keys.ts';
import { projectRuleProblems } from './project-rules.ts';
import { AssignedEntities } from './assigned-entities.ts';
import { ContractorAddresses } from './contractor-addresses.ts';
import { foreignChildren, LeftOutChildren } from './child-rows.ts';
import { checkLedgerLinks } from './ledger-moves.ts';

const BATCH = 2000;
const MAX_PROBLEMS = 1000;
const IMPORT_CACHE_KB = 64 * 1024;

export interface ImportSummary {
  records: number;
  collections: Record<string, number>;
  events: number;
}

export interface ImportOptions {
  progress?: (records: number) => void;
  now?: Date;
  /** Parse the file in a worker thread while this one checks and writes (for large files on several cores; the CLI
   * decides by the file's size, and starts the thread itself before it opens the database: the input is then that
   * ParseThread). The result is the same either way. */
  parseInThread?: boolean;
}

export { ImportFailed };

/** `input`: the document, or a ParseThread already reading it (its starter stops it if the import fails first). */
export async function importData(
  database: Database,
  input: Readable | ParseThread,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  // SQLite: a page cache that holds the pages the import keeps touching (indexes, the tables being written), instead of
  // the default 2 MB that spills them to the WAL file in the middle of the transaction; bounded, so memory stays flat
  const cacheSize = database.sqlite?.pragma('cache_size', { simple: true }) as number | undefined;
  database.sqlite?.pragma(`cache_size = -${IMPORT_CACHE_KB}`);
  try {
    return await importInTransaction(database, input, options);
  } finally {
    if (cacheSize !== undefined) database.sqlite?.pragma(`cache_size = ${cacheSize}`);
  }
}

/** The advisory lock key that serializes imports on PostgreSQL (an arbitrary constant: 'wohnapi import'). */
const IMPORT_LOCK = 0x776f686e;

async function importInTransaction(
  database: Database,
  input: Readable | ParseThread,
  options: ImportOptions,
): Promise<ImportSummary> {
  return database.db.transaction().execute(async (trx) => {
    // PostgreSQL: the data version moves once, at the end (migration 2026112702), so that the counter row is not
    // locked for the whole import: logins, which move the auth version on the same row, go on meanwhile.
    const postgres = database.dialect === 'postgres';
    if (postgres) await sql`select set_config('wohnapi.defer_data_version', 'on', true)`.execute(trx);
    // PostgreSQL: one import at a time (SQLite's write lock does this there). Two at once would each compare the file
    // with what was stored before the other committed, and the later one would record no event for the values it
    // changed back. The lock is held until this transaction ends.
    if (postgres) await sql`select pg_advisory_xact_lock(${IMPORT_LOCK})`.execute(trx);
    const importer = new Importer(trx, new BulkWriter(trx, database), options);
    try {
      const consume = (message: StageMessage) => importer.consume(message);
      if (input instanceof ParseThread) await input.run(consume);
      else if (options.parseInThread) await parseInThread(input, consume);
      else await parseDocument(input, consume);
      await importer.assigned.check(importer.bulk, (p) => importer.problem(p));
      await importer.addresses.check(importer.bulk, (p) => importer.problem(p));
      await importer.leftOut.check(importer.bulk, (p) => importer.problem(p));
      if (importer.moved > 0) await checkLedgerLinks(importer.bulk, (p) => importer.problem(p));
    } catch (err) {
      if (!(err instanceof DocumentError)) throw err;
      // a problem of the top-level structure (e.g. an unknown collection) belongs to no collection
      const outside = err.at !== undefined && err.at.record === undefined;
      importer.problem({
        collection: outside ? '(document)' : (importer.current?.name ?? '(document)'),
        position: err.at?.record ?? importer.position,
        id: null,
        path: '',
        message: err.message,
      });
    }
    const summary = await importer.finish();
    await rebuildStaleReadModels(trx); // in the same transaction: fresh exactly when it commits
    if (postgres) {
      await sql`select set_config('wohnapi.defer_data_version', 'off', true)`.execute(trx);
      await sql`update data_version set version = version + 1 where id = 1`.execute(trx);
    }
    return summary;
  });
}

/** Checks and writes what the parsing stage (stage.ts) hands it, batch by batch, in the import's transaction. */
export class Importer {
  current: CollectionSpec | null = null;
  position = 0;
  private deleting = false;
  private batch: Parsed[] = [];
  /** The current collection's tables that held no row when it started (empty-tables.ts). */
  private empty: ReadonlySet<string> = new Set();
  private deletions: Deletion[] = [];
  private pending: Pending[] = [];
  private readonly seen = new Map<string, IdSet>();
  private readonly problems: ImportProblem[] = [];
  private problemCount = 0;
  private readonly summary: ImportSummary = { records: 0, collections: {}, events: 0 };
  /** Entities of the file assigned to projects: their assignment order is checked when the file is in. */
  readonly assigned = new AssignedEntities();
  /** Contractors' persons need an address: checked per batch, and when the file is in. */
  readonly addresses = new ContractorAddresses();
  /** Left-out child rows still referenced elsewhere: noted per batch, checked when the file is in. */
  readonly leftOut = new LeftOutChildren();
  /** Stored records the file moved to another ledger: their links are checked when the file is in. */
  moved = 0;

  constructor(
    readonly db: Executor,
    readonly bulk: BulkWriter,
    readonly options: ImportOptions,
  ) {}

  problem(p: ImportProblem): void {
    this.problemCount++;
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(p);
  }

  /** One message of the parsing stage, in file order. */
  async consume(message: StageMessage): Promise<void> {
    switch (message.t) {
      case 'start':
        return this.collectionStart(message.name);
      case 'items':
        for (const item of JSON.parse(message.json) as Item[]) {
          const flushing = this.record(item);
          if (flushing) await flushing;
        }
        return;
      case 'end':
        return this.collectionEnd();
      case 'problem':
        return this.problem(message.problem);
    }
  }

  private async collectionStart(name: string): Promise<void> {
    const spec = name === DELETIONS ? null : (COLLECTIONS.find((c) => c.name === name) ?? null);
    this.deleting = spec === null;
    this.current = spec;
    this.summary.collections[name] = 0;
    this.empty = spec ? await emptyTables(this.bulk, spec) : new Set();
  }

  private record([position, line, id, problems, parsed]: Item): void | Promise<void> {
    this.position = position;
    const name = this.current?.name ?? DELETIONS;
    this.summary.collections[name] = (this.summary.collections[name] ?? 0) + 1;
    this.summary.records++;
    if (this.summary.records % 1000 === 0) this.options.progress?.(this.summary.records);
    if (problems)
      for (let i = 0; i < problems.length; i += 2)
        this.problem({
          collection: name,
          position,
          line,
          id,
          path: problems[i] as string,
          message: problems[i + 1] as string,
        });
    if (this.deleting) {
      if (parsed) this.deletions.push(decodeDeletion(parsed as DeletionArrays, position, line));
      return this.deletions.length >= BATCH ? this.flush() : undefined;
    }
    if (parsed) this.batch.push(decodeParsed(this.current as CollectionSpec, parsed as ParsedArrays, position, line));
    return this.batch.length >= BATCH ? this.flush() : undefined;
  }

  async collectionEnd(): Promise<void> {
    await this.flush();
    if (this.current && this.pending.length) await this.resolvePending(this.current);
  }

  async finish(): Promise<ImportSummary> {
    this.options.progress?.(this.summary.records);
    if (this.problemCount > 0) {
      // in file order: parse problems are found at once, reference problems when the batch is checked
      const rank = (name: string) =>
        name === DELETIONS ? COLLECTIONS.length : COLLECTIONS.findIndex((c) => c.name === name);
      this.problems.sort((a, b) => rank(a.collection) - rank(b.collection) || a.position - b.position);
      throw new ImportFailed(this.problems, this.problemCount);
    }
    if (this.bulk.dialect === 'postgres') {
      for (const spec of COLLECTIONS.filter((c) => c.serial && this.summary.collections[c.name])) {
        await this.bulk.run(
          // only ever forward: past the imported ids, never back below ids the sequence handed out already (rows
          // deleted since, or created by the API meanwhile), which SQLite's AUTOINCREMENT never reuses either
          `select setval(s, greatest((select max(id) from ${q(spec.table)}), coalesce(pg_sequence_last_value(s::regclass), 1))) ` +
            `from (select pg_get_serial_sequence('${spec.table}', 'id') as s) as seq`,
        );
      }
    }
    return this.summary;
  }

  private idSet(name: string): IdSet {
    let s = this.seen.get(name);
    if (!s) this.seen.set(name, (s = new IdSet()));
    return s;
  }

  private async flush(): Promise<void> {
    if (this.deleting) {
      const items = this.deletions;
      this.deletions = [];
      const events = await applyDeletions(this.bulk, items, (p) => this.problem(p));
      await this.record_events(events);
      return;
    }
    const spec = this.current;
    const batch = this.batch;
    this.batch = [];
    if (!spec || batch.length === 0) return;
    const report = (p: Parsed, path: string, message: string) =>
      this.problem({ collection: spec.name, position: p.position, line: p.line, id: p.id, path, message });
    const unique = batch.filter((p) => {
      let ok = true;
      if (!this.idSet(spec.name).add(p.id)) {
        report(p, 'Id', `duplicate Id ${p.id}: an earlier record of ${spec.name} has it`);
        ok = false;
      }
      for (const c of p.children) {
        if (!c.spec.key.includes('id')) continue;
        c.rows.forEach((r, i) => {
          const id = r.id as number;
          if (!this.idSet(c.spec.table).add(id)) {
            report(
              p,
              `${c.spec.wire}[${i}].Id`,
              `duplicate Id ${id}: an earlier record has an entry of ${c.spec.wire} with it`,
            );
            ok = false;
          }
        });
      }
      return ok;
    });
    const inBatch = new Map(unique.map((p) => [p.id, p.row]));
    const need = new Map<string, { ids: Set<number>; extra: Set<string> }>();
    for (const p of unique) {
      for (const r of p.refs) {
        // a record of the batch is looked up too: stored, it still counts when the file's version has a problem
        let n = need.get(r.ref.table);
        if (!n) need.set(r.ref.table, (n = { ids: new Set(), extra: new Set() }));
        n.ids.add(r.id);
        if (r.ref.sameAs) n.extra.add(r.ref.sameAs.column);
      }
    }
    const found = await lookup(this.bulk, need);
    const clashes = await keyClashes(this.bulk, spec, unique, report);
    for (const p of await foreignChildren(this.bulk, spec, unique, report, this.empty)) clashes.add(p);
    const valid = unique.filter(
      (p) =>
        !clashes.has(p) &&
        checkRecord(spec, p, found, inBatch, this.pending, (path, message) => report(p, path, message)),
    );
    const held = await projectRuleProblems(this.bulk, spec, valid, report);
    if (spec.table === 'projects') this.assigned.projects(unique.map((p) => p.id));
    const written = withoutDanglingReferences(
      spec,
      held.size ? valid.filter((p) => !held.has(p)) : valid,
      inBatch,
      found,
      report,
    );
    // valid records are written even after a problem (the transaction is rolled back at the end), so that later
    // references to them are not reported as unknown
    await this.leftOut.beforeWrite(this.bulk, spec, written, this.empty);
    try {
      const { events, moved } = await writeBatch(this.bulk, spec, written, this.empty);
      this.moved += moved;
      await this.record_events(events);
    } catch (err) {
      const from = valid[0]?.position ?? 0;
      throw new DocumentError(
        `the database refused ${spec.name}[${from}..${from + valid.length - 1}]: ${(err as Error).message}`,
      );
    }
    await this.assigned.written(this.bulk, spec, written);
    await this.addresses.written(this.bulk, spec, written, report);
  }

  /** The outbox rows of the events, written like the records (one prepared multi-row statement per chunk). */
  private async record_events(events: DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    this.summary.events += events.length;
    const created = (this.options.now ?? new Date()).toISOString();
    await this.bulk.insert(
      'outbox_events',
      [...EVENT_COLUMNS],
      events.map((e) => eventValues(e, created)),
    );
  }

  /** References to records further down the same collection, stored as null until the collection is complete. */
  private async resolvePending(spec: CollectionSpec): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    const found = await lookup(
      this.bulk,
      new Map([[spec.table, { ids: new Set(pending.map((p) => p.target)), extra: new Set<string>() }]]),
    );
    for (const p of pending) {
      const target = found.get(spec.table)?.get(p.target);
      if (!target) {
        this.problem({
          collection: spec.name,
          position: p.position,
          line: p.line,
          id: p.id,
          path: p.path,
          message: `unknown reference: no ${collectionOf(spec.table)} with Id ${p.target}`,
        });
      } else if (target.company_code_id !== p.ledger) {
        this.problem({
          collection: spec.name,
          position: p.position,
          line: p.line,
          id: p.id,
          path: p.path,
          message: `${collectionOf(spec.table)} ${p.target} is in ledger ${shown(target.company_code_id)}, this record in ledger ${shown(p.ledger)}`,
        });
      } else {
        await this.bulk.run(`update ${q(spec.table)} set ${q(p.column)} = ? where id = ?`, [p.target, p.id]);
      }
    }
  }
}
