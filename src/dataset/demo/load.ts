// `wohnapi demo load [--scale N] [--seed S]`: a deterministic demo data set of a German housing company, built from
// the factories' row builders with a seeded generator and deterministic ids (1, 2, 3, ...), written in bulk in one
// transaction. Scale 1: a few hundred use units; the size grows linearly with the scale.
import { sql } from 'kysely';
import { CommandError } from '../../auth/users.ts';
import type { Database, Executor } from '../../db/database.ts';
import { BulkWriter } from '../../db/bulk.ts';
import { COLLECTIONS } from '../format/collections.ts';
import { childSpecs } from '../import/write.ts';
import { rebuildReadModels } from '../read-models.ts';
import { generateShared, type Sink } from './catalog.ts';
import { generateLedger, type LedgerCounters } from './ledger.ts';
import { COMPANIES, PLACES, Random, nth } from './random.ts';
import { generateContractPositionTypeDetails, generateMasterCatalog } from './master-catalog.ts';
import { generateOrganisation, People } from './people.ts';

export interface DemoOptions {
  scale?: number;
  seed?: number;
  progress?: (rows: number) => void;
}

export interface DemoSummary {
  rows: number;
  useUnits: number;
}

/** Tables in an order that puts parents before children. */
const TABLE_ORDER = COLLECTIONS.flatMap((c) => [
  c.table,
  ...Object.values(c.kinds ?? {}).flatMap((k) => (k.detail ? [k.detail.table] : [])),
  ...childSpecs(c).map((ch) => ch.table),
]).filter((t, i, all) => all.indexOf(t) === i);

const FLUSH_AT = 20_000;

/**
 * The union of the rows' keys, in order of first appearance: rows of one table may leave out columns that only some of
 * them fill (catalogue codes of one kind carry extra flags); a missing value is stored as null (no domain column has a default).
 */
function columnsOf(rows: readonly Record<string, unknown>[]): string[] {
  const columns = new Set<string>();
  for (const row of rows) for (const key in row) columns.add(key);
  return [...columns];
}

class BufferedSink implements Sink {
  private id = 0;
  private buffered = 0;
  private readonly tables = new Map<string, object[]>();

  constructor(
    private readonly bulk: BulkWriter,
    private readonly progress?: (rows: number) => void,
  ) {}

  nextId(): number {
    return ++this.id;
  }

  add(table: string, row: object): void {
    let rows = this.tables.get(table);
    if (!rows) this.tables.set(table, (rows = []));
    rows.push(row);
    this.buffered++;
  }

  async flushIfFull(): Promise<void> {
    if (this.buffered >= FLUSH_AT) await this.flush();
  }

  async flush(): Promise<void> {
    for (const table of TABLE_ORDER) {
      const rows = this.tables.get(table) as Record<string, unknown>[] | undefined;
      if (!rows?.length) continue;
      const columns = columnsOf(rows);
      await this.bulk.insert(
        table,
        columns,
        rows.map((r) => columns.map((c) => r[c] ?? null)),
      );
      this.tables.set(table, []);
    }
    this.buffered = 0;
    this.progress?.(this.bulk.rows);
  }
}

/**
 * The first table of the import format's collections (the data the demo writes) that holds a row, or undefined for
 * a database without data (users and keys aside). One statement per table, each reading at most one row.
 */
export async function tableWithData(db: Executor): Promise<string | undefined> {
  for (const { table } of COLLECTIONS) {
    const rows = await db
      .selectFrom(table as 'company_codes')
      .select(sql<number>`1`.as('one'))
      .limit(1)
      .execute();
    if (rows.length) return table;
  }
  return undefined;
}

export async function loadDemo(database: Database, options: DemoOptions = {}): Promise<DemoSummary> {
  const scale = options.scale ?? 1;
  const rnd = new Random(options.seed ?? 1);
  return database.db.transaction().execute(async (trx) => {
    const taken = await tableWithData(trx);
    if (taken)
      throw new CommandError(
        `demo load needs an empty database: it already holds data (table ${taken}); set DATABASE_URL to a new database (create it with 'wohnapi migrate')`,
      );
    const bulk = new BulkWriter(trx, database);
    const sink = new BufferedSink(bulk, options.progress);
    const ledgers = Math.min(COMPANIES.length, 3 + Math.floor(scale / 20));
    for (let l = 1; l <= ledgers; l++) sink.add('company_codes', { id: l, code: `${l}000`, name: COMPANIES[l - 1] });
    for (let l = 1; l <= ledgers; l++) sink.nextId(); // ids 1..ledgers are the company codes
    const shared = generateShared(sink, rnd);
    // master data (decisions §7) from its own random stream, so the tables above keep their values
    const masterRnd = new Random((options.seed ?? 1) * 7919 + 17);
    const master = generateMasterCatalog(sink);
    generateContractPositionTypeDetails(sink, shared.catalog.ContractPositionType);
    const people = new People(sink, masterRnd, master);
    const seats = Array.from({ length: ledgers }, (_, i) => {
      const [town, zip] = nth(PLACES, i);
      return {
        id: i + 1,
        name: nth(COMPANIES, i),
        seat: { street: 'Am Rathaus', houseNumber: String(i + 1), zip, town },
      };
    });
    const organisation = generateOrganisation(sink, master, people, seats);
    const counters: LedgerCounters = {
      economicUnit: 0,
      kind: 0,
      owner: 0,
      budget: 0,
      loan: 0,
      cost: 0,
      project: 0,
      useUnits: 0,
    };
    const economicUnits = 20 * scale;
    for (let l = 1; l <= ledgers; l++) {
      const share = Math.floor(economicUnits / ledgers) + (l <= economicUnits % ledgers ? 1 : 0);
      const org = organisation.get(l);
      if (!org) throw new Error(`demo data: no organisation for ledger ${l}`);
      await generateLedger(sink, rnd, shared, l, share, counters, { rnd: masterRnd, m: master, people, org });
    }
    await sink.flush();
    if (database.dialect === 'postgres')
      await bulk.run("select setval(pg_get_serial_sequence('projects', 'id'), (select max(id) from projects))");
    await rebuildReadModels(trx); // in the same transaction: fresh exactly when it commits
    return { rows: bulk.rows, useUnits: counters.useUnits };
  });
}
