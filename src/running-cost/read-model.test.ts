// The persisted read model of AllocationGroupBases (read-model.ts), on both engines: its answers equal the live
// path's byte for byte (every include combination, both null modes, filters, paging, ledger scope); any write to a
// source table, by any connection, makes the next read answer the new data; the import and the demo load rebuild it
// in their transaction (a failed import leaves the old pieces and data).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DIALECTS } from '../../test/support/db.ts';
import { bearer, testApp, type TestApp } from '../../test/support/app.ts';
import { exportText, importProblems, importText, withBrokenReference, withDb } from '../../test/support/dataset.ts';
import { openDatabase } from '../db/database.ts';
import { ALL_LEDGERS } from '../auth/ledger-scope.ts';
import { loadDemo } from '../dataset/demo/load.ts';
import { insertAllocationGroupUseUnit, insertUseUnit } from '../dataset/factories.ts';
import { readBasePage, readModelFresh, rebuildReadModel } from './read-model.ts';
import type { Includes } from './children.ts';
import { runningCostFixture, type Fixture } from '../../test/fixtures/running-cost.ts';
import { at } from '../../test/support/lists.ts';

const PATH = '/service/v1.2/RunningCostDistributionRead/AllocationGroupBases';
const FLAGS = ['includeUseUnits', 'includeCostTypes', 'includeExplanations', 'includeOptionTaxes'] as const;

/** The 32 variants: 16 include combinations x both null modes, as query strings and as arguments of readBasePage. */
const VARIANTS = Array.from({ length: 32 }, (_, n) => {
  const on = (i: number) => (n & (1 << i)) !== 0;
  const keep = on(4);
  const query = [...FLAGS.filter((_, i) => on(i)).map((f) => `${f}=true`), ...(keep ? ['showNullValues=true'] : [])];
  const inc: Includes = { useUnits: on(0), costTypes: on(1), explanations: on(2), optionTaxes: on(3) };
  return { query: query.join('&'), inc, keep };
});

/** readBasePage's answer as text (a Buffer of UTF-8 on SQLite, a string on PostgreSQL). */
async function pageText(...args: Parameters<typeof readBasePage>): Promise<string | undefined> {
  const page = await readBasePage(...args);
  return page === undefined ? undefined : Buffer.isBuffer(page) ? page.toString('utf8') : page;
}

/** Tables whose change must make the read model stale (migration 2026112401). */
const SOURCE_TABLES = [
  'allocation_group_bases',
  'owners',
  'company_codes',
  'catalog_codes',
  'distribution_periods',
  'allocation_groups',
  'combined_allocation_groups',
  'facilities',
  'allocation_group_use_units',
  'use_units',
  'allocation_group_base_cost_types',
  'allocation_group_explanations',
  'combined_allocation_group_explanations',
  'explanation_groups',
  'allocation_group_base_option_taxes',
];

/** A column each source table's no-change update sets to itself (default: code). */
const UNCHANGED_COLUMN: Record<string, string> = {
  owners: 'owner_number',
  company_codes: 'name',
  combined_allocation_groups: 'units_total',
  facilities: 'name',
  allocation_group_use_units: 'use_unit_id',
  use_units: 'use_unit_number',
  allocation_group_base_cost_types: 'cost_type_id',
  allocation_group_explanations: 'text',
  combined_allocation_group_explanations: 'text',
  explanation_groups: 'name',
  allocation_group_base_option_taxes: 'option_tax',
};

for (const dialect of DIALECTS) {
  describe(`AllocationGroupBases read model [${dialect}]`, () => {
    let t: TestApp;
    let token: string;
    let ledgerKey: string;
    // the page cache is off: every answer below is made by the read model or the live path, never replayed
    before(async () => {
      t = await testApp(dialect, { PAGE_CACHE_MB: '0' });
      await loadDemo(t.database, { scale: 1, seed: 1 });
      token = await t.login();
      ledgerKey = await t.apiKey([2]);
    });
    after(() => t.close());

    const get = async (query: string): Promise<string> => {
      const res = await t.app.inject({ url: `${PATH}?${query}`, headers: bearer(token) });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8/);
      return res.body;
    };
    const markStale = () => t.database.db.updateTable('read_model_state').set({ stale: 1 }).execute();

    it('is built by the demo load and answers every variant byte for byte as the live path', async () => {
      assert.equal(await readModelFresh(t.database.db), true);
      const bases = Number(
        (
          await t.database.db
            .selectFrom('allocation_group_bases')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      assert.ok(bases > 30, `${bases} bases`);
      const [someBase] = await t.database.db
        .selectFrom('allocation_group_bases')
        .select(['id', 'owner_id', 'code'])
        .orderBy('id', 'desc')
        .limit(1)
        .execute();
      assert.ok(someBase);
      const pagings = ['limit=100', 'limit=7&offset=3', `limit=5&offset=${bases - 2}`, `limit=3&offset=${bases + 5}`];
      const filters = [
        'companyCodeId=2&limit=100',
        `ownerId=${someBase.owner_id}`,
        `allocationGroupBaseId=${someBase.id}`,
        `searchPattern=${encodeURIComponent('%a%')}&limit=100`,
        `apiKey=${ledgerKey}&limit=50`,
      ];
      const urls = VARIANTS.flatMap((v) => [...pagings, ...filters].map((p) => (v.query ? `${p}&${v.query}` : p)));
      const fromReadModel = new Map<string, string>();
      for (const url of urls) fromReadModel.set(url, await get(url));
      // the answers above came from the read model: still fresh, and it gives the same text when asked directly
      assert.equal(await readModelFresh(t.database.db), true);
      for (const v of VARIANTS) {
        const direct = await pageText(t.database.db, {}, ALL_LEDGERS, { limit: 100, offset: 0 }, v.inc, v.keep);
        assert.equal(direct, fromReadModel.get(v.query ? `limit=100&${v.query}` : 'limit=100'), v.query);
        // the variant that sorts in the database (used if SQLite ever joined the pieces out of order) is the same
        const args = [t.database.db, {}, ALL_LEDGERS, { limit: 7, offset: 5 }, v.inc, v.keep] as const;
        assert.equal(await pageText(...args, true), await pageText(...args, false));
      }
      await markStale();
      for (const v of VARIANTS)
        assert.equal(
          await pageText(t.database.db, {}, ALL_LEDGERS, { limit: 100, offset: 0 }, v.inc, v.keep),
          undefined,
        );
      for (const url of urls) assert.equal(await get(url), fromReadModel.get(url), url);
      // a page with every include has the arrays and the nulls the variants differ by
      const full = JSON.parse(fromReadModel.get(`limit=100&${VARIANTS[31]?.query}`) ?? '[]') as {
        AllocationGroup: { UseUnits: unknown[] };
        OptionTaxes: unknown[];
      }[];
      assert.ok(full.some((b) => b.AllocationGroup.UseUnits.length > 0 && b.OptionTaxes.length > 0));
      assert.equal(await rebuildReadModel(t.database.db), bases);
      assert.equal(await readModelFresh(t.database.db), true);
    });

    it('answers the new data after a write through the factories, and uses the pieces again after a rebuild', async () => {
      await rebuildReadModel(t.database.db);
      const base = await t.database.db
        .selectFrom('allocation_group_bases')
        .select(['id', 'allocation_group_id', 'company_code_id'])
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const query = `allocationGroupBaseId=${base.id}&includeUseUnits=true`;
      const unit = await insertUseUnit(t.database.db, { company_code_id: base.company_code_id });
      await insertAllocationGroupUseUnit(t.database.db, base.allocation_group_id, unit.id);
      assert.equal(await readModelFresh(t.database.db), false);
      const ids = (body: string) =>
        (JSON.parse(body) as { AllocationGroup: { UseUnits: { Id: number }[] } }[])[0]?.AllocationGroup.UseUnits.map(
          (u) => u.Id,
        );
      assert.ok(ids(await get(query))?.includes(unit.id));
      await rebuildReadModel(t.database.db);
      const direct = await pageText(
        t.database.db,
        { id: base.id },
        ALL_LEDGERS,
        { limit: 20, offset: 0 },
        { useUnits: true, costTypes: false, explanations: false, optionTaxes: false },
        false,
      );
      assert.ok(direct !== undefined && ids(direct)?.includes(unit.id));
      assert.equal(await get(query), direct);
    });

    it('answers the new data after a commit of another connection, for a change of any source table', async () => {
      const other = openDatabase(t.database.url);
      try {
        const base = await t.database.db
          .selectFrom('allocation_group_bases')
          .select(['id'])
          .orderBy('id')
          .executeTakeFirstOrThrow();
        const query = `allocationGroupBaseId=${base.id}`;
        await rebuildReadModel(t.database.db);
        await other.db.updateTable('allocation_group_bases').set({ code: 'NEU-1' }).where('id', '=', base.id).execute();
        assert.equal((JSON.parse(await get(query)) as { Code: string }[])[0]?.Code, 'NEU-1');
        await rebuildReadModel(t.database.db);
        assert.match(
          (await pageText(
            t.database.db,
            { id: base.id },
            ALL_LEDGERS,
            { limit: 1, offset: 0 },
            {
              useUnits: false,
              costTypes: false,
              explanations: false,
              optionTaxes: false,
            },
            false,
          )) ?? '',
          /"Code":"NEU-1"/,
        );
        for (const table of SOURCE_TABLES) {
          await rebuildReadModel(t.database.db);
          assert.equal(await readModelFresh(t.database.db), true, table);
          // a change that keeps every value still counts (a trigger cannot know; stale is the safe side)
          const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(
            other.db,
          );
          assert.ok(Number(rows[0]?.n) > 0, `${table} has rows in the demo data`);
          const column = UNCHANGED_COLUMN[table] ?? 'code';
          await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sql.ref(column)}`.execute(other.db);
          assert.equal(await readModelFresh(t.database.db), false, table);
        }
        // a deletion too
        await rebuildReadModel(t.database.db);
        await other.db
          .deleteFrom('allocation_group_base_option_taxes')
          .where('allocation_group_base_id', '=', base.id)
          .execute();
        assert.equal(await readModelFresh(t.database.db), false);
        const after = JSON.parse(await get(`${query}&includeOptionTaxes=true`)) as { OptionTaxes: unknown[] }[];
        assert.deepEqual(after[0]?.OptionTaxes, []);
      } finally {
        await other.close();
      }
    });

    it('is rebuilt by an import in its transaction; a failed import leaves the old pieces and data', () =>
      withDb(dialect, async (target) => {
        const text = await exportText(t.database);
        await importText(target, text);
        assert.equal(await readModelFresh(target.db), true);
        const inc = { useUnits: true, costTypes: true, explanations: true, optionTaxes: true };
        const imported = await pageText(target.db, {}, ALL_LEDGERS, { limit: 100, offset: 0 }, inc, true);
        await rebuildReadModel(t.database.db);
        const source = await pageText(t.database.db, {}, ALL_LEDGERS, { limit: 100, offset: 0 }, inc, true);
        assert.ok(imported !== undefined && imported.length > 1000);
        assert.equal(imported, source);
        assert.ok((await importProblems(target, withBrokenReference(text))).length > 0);
        assert.equal(await readModelFresh(target.db), true);
        assert.equal(await pageText(target.db, {}, ALL_LEDGERS, { limit: 100, offset: 0 }, inc, true), imported);
      }));

    it('is rebuilt by an import only when the import writes one of its sources', () =>
      withDb(dialect, async (target) => {
        const data = JSON.parse(await exportText(t.database)) as Record<string, Array<Record<string, unknown>>>;
        await importText(target, JSON.stringify(data));
        const inc = { useUnits: true, costTypes: true, explanations: true, optionTaxes: true };
        const page = async () => (await pageText(target.db, {}, ALL_LEDGERS, { limit: 100, offset: 0 }, inc, false))!;
        // a mark in every stored piece (the pieces are no source table): gone when the pieces are built again
        const mark = (c: string) => sql.raw(`${c} = replace(${c}, '"Id":', '"Id" :')`);
        await sql`update allocation_group_base_fragments set ${mark('head')}, ${mark('complete')}`.execute(target.db);
        const marked = await page();
        assert.match(marked, /"Id" :/);
        // persons are no source: the pieces stay as they are
        await importText(target, JSON.stringify({ Persons: [{ ...data.Persons![0]!, ShortName: 'renamed' }] }));
        assert.equal(await readModelFresh(target.db), true);
        assert.ok((await page()) === marked, 'an import of persons rebuilt the pieces');
        // a use unit is: the pieces are built again, from the data as it is now
        await importText(target, JSON.stringify({ UseUnits: [{ ...data.UseUnits![0]!, UseUnitNumber: 'X-renamed' }] }));
        assert.equal(await readModelFresh(target.db), true);
        const rebuilt = await page();
        assert.doesNotMatch(rebuilt, /"Id" :/);
        await rebuildReadModel(target.db);
        assert.ok((await page()) === rebuilt, 'the import left pieces a rebuild changes');
      }));
  });
}

for (const dialect of DIALECTS) {
  describe(`AllocationGroupBases read model over the factories' unusual records [${dialect}]`, () => {
    let f: Fixture;
    before(async () => {
      f = await runningCostFixture(dialect, { PAGE_CACHE_MB: '0' });
    });
    after(() => f.t.close());

    it('answers every variant, filter and scope byte for byte as the live path', async () => {
      const ledger1 = await f.t.login({ ledgers: [at(f.world.ledgers, 1).companyCodeId] });
      const key = await f.t.apiKey([at(f.world.ledgers, 0).companyCodeId, at(f.world.ledgers, 2).companyCodeId]);
      const requests = VARIANTS.flatMap((v) =>
        [
          ['limit=100', f.token],
          ['limit=2&offset=1', f.token],
          [`searchPattern=${encodeURIComponent('ü%')}`, f.token],
          [`searchPattern=${encodeURIComponent('a\\b')}`, f.token],
          [`allocationGroupBaseId=${f.bases.y}`, f.token],
          ['limit=100', ledger1],
          [`limit=100&apiKey=${key}`, f.token],
        ].map(([q, token]) => ({ url: v.query ? `${q}&${v.query}` : (q as string), token: token as string })),
      );
      const answers = async () => {
        const out: string[] = [];
        for (const r of requests) {
          const res = await f.get('AllocationGroupBases', r.url, r.token);
          assert.equal(res.statusCode, 200, res.body);
          out.push(res.body);
        }
        return out;
      };
      assert.equal(await readModelFresh(f.t.database.db), false); // the factories wrote after any build
      const live = await answers();
      await rebuildReadModel(f.t.database.db);
      assert.equal(await readModelFresh(f.t.database.db), true);
      const fromReadModel = await answers();
      assert.equal(await readModelFresh(f.t.database.db), true);
      for (let i = 0; i < requests.length; i++) assert.equal(fromReadModel[i], live[i], requests[i]?.url);
      assert.ok(live.some((body) => body.includes('"Code":null')));
      assert.ok(live.some((body) => body.includes('"UseUnits":[{')));
    });
  });
}
