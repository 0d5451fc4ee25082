// The persisted read model of the contract agreements (read-model.ts), on both engines: its answers equal the live
// path's byte for byte (every contract endpoint of both versions, both null modes, every filter, paging, streamed
// v1.0 lists across chunk boundaries, ledger scopes); any write to a source table, by any connection, makes the next
// read answer the new data; the import and the demo load rebuild it in their transaction (a failed import leaves the
// old texts and data).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { DIALECTS } from '../../test/support/db.ts';
import { bearer, testApp, type TestApp } from '../../test/support/app.ts';
import { exportText, importProblems, importText, withBrokenReference, withDb } from '../../test/support/dataset.ts';
import { at, first } from '../../test/support/lists.ts';
import { bulkAgreements, sparseAgreements } from '../../test/fixtures/contracts.ts';
import { openDatabase, type Executor } from '../db/database.ts';
import { ALL_LEDGERS } from '../auth/ledger-scope.ts';
import { buildWorld, insertContractAgreement, type World } from '../dataset/factories.ts';
import { loadDemo } from '../dataset/demo/load.ts';
import { ENDPOINTS, contractReadModelFresh, rebuildContractReadModel, storedContractWindow } from './index.ts';
import { CONTRACT_AGREEMENT_KINDS } from './tables.ts';
import { STREAM_CHUNK, type Endpoint } from './engine.ts';

/** Tables whose change must make the contract read model stale (migration 2026112501). */
const SOURCE_TABLES = [
  'contract_agreements',
  'license_agreements',
  'use_units',
  'catalog_codes',
  'price_indices',
  'price_index_values',
  'allocation_groups',
  'distribution_periods',
  'ca_index_rental',
  'ca_graduated_rent',
  'ca_graduated_rent_entries',
  'ca_turnover_rent',
  'ca_turnover_rent_steps',
  'ca_vat_option',
  'ca_rental_upper_limit',
  'ca_gross_rent_excluded_groups',
  'ca_special_charge',
  'ca_special_charge_calculation_bases',
  'ca_special_charge_billing_unit_values',
  'ca_special_use_right',
  'ca_prepayment_adjustment',
  'ca_distribution_cost_types',
  'ca_multiple_opt_in',
  'ca_prolongations',
  'ca_minor_repair_work',
  'ca_reminder_charge',
  'ca_reminder_charge_dunning_levels',
  'ca_waiver_of_termination',
];

/** The contract-agreement endpoints (both versions) with their kind (the last segment of the path names it). */
const CONTRACT_ENDPOINTS = ENDPOINTS.filter((ep) => ep.filters.includes('contractAgreementId'));

/** The endpoint's first agreement (over every ledger) with the values its filters match. */
async function sample(db: Executor, ep: Endpoint) {
  const { items } = await ep.read(db, {}, ALL_LEDGERS, { offset: 0, limit: 1 });
  return db
    .selectFrom('contract_agreements as ca')
    .innerJoin('license_agreements as la', 'la.id', 'ca.license_agreement_id')
    .innerJoin('use_units as uu', 'uu.id', 'la.use_unit_id')
    .select([
      'ca.id',
      'ca.license_agreement_id',
      'la.id_num',
      'uu.id as use_unit_id',
      'uu.use_unit_number',
      'uu.economic_unit_id',
      'ca.valid_from',
    ])
    .where('ca.id', '=', first(items).Id as number)
    .executeTakeFirstOrThrow();
}

/** Every request of the comparison: paging, each filter, streamed lists, both null modes. */
async function queries(db: Executor, ep: Endpoint): Promise<string[]> {
  const s = await sample(db, ep);
  const base = [
    'limit=100',
    'limit=3&offset=2',
    'limit=5&offset=100000',
    `contractAgreementId=${s.id}`,
    `licenseAgreementId=${s.license_agreement_id}&limit=100`,
    `licenseAgreementIdNum=${encodeURIComponent(s.id_num)}&limit=100`,
    `useUnitId=${s.use_unit_id}&limit=100`,
    `useUnitNumber=${encodeURIComponent(s.use_unit_number)}&limit=100`,
    `economicUnitId=${s.economic_unit_id}&limit=100`,
    `activeOn=${s.valid_from.slice(0, 10)}&limit=100`,
    `economicUnitId=${s.economic_unit_id}&activeOn=${s.valid_from.slice(0, 10)}&limit=2&offset=1`,
    ...(ep.version === '1.0' ? ['', 'offset=3', `economicUnitId=${s.economic_unit_id}`] : []),
  ];
  return base.flatMap((q) => [q, q ? `${q}&showNullValues=true` : 'showNullValues=true']);
}

const stale = (db: Executor) =>
  db.updateTable('read_model_state').set({ stale: 1 }).where('name', '=', 'contract_agreements').execute();

for (const dialect of DIALECTS) {
  describe(`contract read model over the factories' records [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let token: string;
    let ledgerToken: string;
    let key: string;
    before(async () => {
      t = await testApp(dialect, { PAGE_CACHE_MB: '0' });
      world = await buildWorld(t.database.db, { ledgers: 2 });
      await sparseAgreements(t.database.db, world);
      // more graduated rents than two streamed chunks hold
      await bulkAgreements(t.database.db, dialect, world, 5_000_000, 2 * STREAM_CHUNK + 100, true);
      token = await t.login();
      ledgerToken = await t.login({ ledgers: [at(world.ledgers, 1).companyCodeId] });
      key = await t.apiKey([at(world.ledgers, 0).companyCodeId]);
    });
    after(() => t.close());

    const get = async (url: string, tok = token): Promise<string> => {
      const res = await t.app.inject({ url: `/service${url}`, headers: bearer(tok) });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8/);
      return res.body;
    };

    it('answers every contract endpoint, filter, paging and scope byte for byte as the live path', async () => {
      const requests: { url: string; tok: string }[] = [];
      for (const ep of CONTRACT_ENDPOINTS) {
        for (const q of await queries(t.database.db, ep)) requests.push({ url: `${ep.url}?${q}`, tok: token });
        for (const q of ['limit=100', ...(ep.version === '1.0' ? [''] : [])]) {
          requests.push({ url: `${ep.url}?${q}`, tok: ledgerToken });
          requests.push({ url: `${ep.url}?${q}&apiKey=${key}`, tok: token });
        }
      }
      const answers = async () => {
        const out: string[] = [];
        for (const r of requests) out.push(await get(r.url, r.tok));
        return out;
      };
      assert.equal(await contractReadModelFresh(t.database.db), false); // the factories wrote after any build
      const live = await answers();
      assert.ok((await rebuildContractReadModel(t.database.db)) > 1100);
      assert.equal(await contractReadModelFresh(t.database.db), true);
      const stored = await answers();
      assert.equal(await contractReadModelFresh(t.database.db), true);
      for (let i = 0; i < requests.length; i++) assert.equal(stored[i], live[i], requests[i]?.url);
      assert.ok(
        live.some((body) => body.includes('null')),
        'the sparse records show nulls when asked',
      );
      assert.ok(
        live.some((body) => body.length > 500 * 100),
        'a streamed list longer than a chunk',
      );
      assert.ok(live.filter((body) => body === '[]').length < live.length / 4, 'most requests find records');
    });

    it('answers pages and streamed lists from the stored texts while fresh', async () => {
      await rebuildContractReadModel(t.database.db);
      const id = first(world.ledgers).contractAgreementIds.GraduatedRentAgreement;
      const v12 = `/v1.2/RentAccounting/ContractAgreement/GraduatedRentAgreement?contractAgreementId=${id}`;
      const v10 = `/v1.0/RentAccounting/GraduatedRentAgreement?contractAgreementId=${id}`;
      const before = [await get(v12), await get(v10), await get(`${v12}&showNullValues=true`)];
      // the texts are not a source table: changing them leaves the read model fresh, and the answers show the change
      await t.database.db
        .updateTable('contract_agreement_texts')
        .set({ v12: '{"Id":-12}', v10: '{"Id":-10}' })
        .where('id', '=', id)
        .execute();
      assert.equal(await get(v12), '[{"Id":-12}]');
      assert.equal(await get(`${v12}&showNullValues=true`), before[2]?.includes('null') ? before[2] : '[{"Id":-12}]');
      assert.equal(await get(v10), '[{"Id":-10}]');
      assert.equal(await get(`${v10.replace('?', '?limit=1&')}`), '[{"Id":-10}]');
      await stale(t.database.db);
      assert.deepEqual([await get(v12), await get(v10), await get(`${v12}&showNullValues=true`)], before);
      await rebuildContractReadModel(t.database.db);
      assert.deepEqual([await get(v12), await get(v10), await get(`${v12}&showNullValues=true`)], before);
    });

    it('answers the new data after a write through the factories, and uses the texts again after a rebuild', async () => {
      await rebuildContractReadModel(t.database.db);
      const ledger = first(world.ledgers);
      const ca = await insertContractAgreement(t.database.db, 'VatOptionAgreement', {
        company_code_id: ledger.companyCodeId,
      });
      assert.equal(await contractReadModelFresh(t.database.db), false);
      const url = `/v1.2/RentAccounting/ContractAgreement/VatOptionAgreement?contractAgreementId=${ca.id}`;
      const live = await get(url);
      assert.match(live, new RegExp(`^\\[\\{"Id":${ca.id},`));
      await rebuildContractReadModel(t.database.db);
      assert.equal(await contractReadModelFresh(t.database.db), true);
      assert.equal(await get(url), live);
    });

    it('answers the new data after a commit of another connection, for a change of any source table', async () => {
      const other = openDatabase(t.database.url);
      try {
        const id = first(world.ledgers).contractAgreementIds.GraduatedRentAgreement;
        const url = `/v1.2/RentAccounting/ContractAgreement/GraduatedRentAgreement?contractAgreementId=${id}`;
        await rebuildContractReadModel(t.database.db);
        await other.db
          .updateTable('contract_agreements')
          .set({ valid_from: '2001-02-03' })
          .where('id', '=', id)
          .execute();
        assert.match(await get(url), /"ValidFrom":"2001-02-03"/);
        for (const table of SOURCE_TABLES) {
          await rebuildContractReadModel(t.database.db);
          assert.equal(await contractReadModelFresh(t.database.db), true, table);
          const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(
            other.db,
          );
          assert.ok(Number(rows[0]?.n) > 0, `${table} has rows in the test data`);
          // a change that keeps every value still counts (a trigger cannot know; stale is the safe side)
          const column = table.startsWith('ca_') ? 'contract_agreement_id' : 'id';
          await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sql.ref(column)}`.execute(other.db);
          assert.equal(await contractReadModelFresh(t.database.db), false, table);
        }
        // a deletion too
        await rebuildContractReadModel(t.database.db);
        await other.db.deleteFrom('ca_graduated_rent_entries').where('contract_agreement_id', '=', id).execute();
        assert.equal(await contractReadModelFresh(t.database.db), false);
        assert.doesNotMatch(await get(url), /"GraduatedRentEntries":\[\{/);
      } finally {
        await other.close();
      }
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`contract read model of the demo data and imports [${dialect}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await testApp(dialect, { PAGE_CACHE_MB: '0' });
      await loadDemo(t.database, { scale: 1, seed: 1 });
    });
    after(() => t.close());

    /** Every contract endpoint's first page in both null modes, as the endpoint joins it (stored or live). */
    const pages = async (db: Executor) => {
      const out: string[] = [];
      for (const ep of CONTRACT_ENDPOINTS)
        for (const showNulls of [false, true]) {
          const { json } = await ep.joined(db, {}, ALL_LEDGERS, { offset: 0, limit: 100 }, showNulls);
          out.push(Buffer.isBuffer(json) ? json.toString('utf8') : json);
        }
      return out;
    };

    it('is built by the demo load and equals the live path', async () => {
      assert.equal(await contractReadModelFresh(t.database.db), true);
      const stored = await pages(t.database.db);
      await stale(t.database.db);
      assert.deepEqual(await pages(t.database.db), stored);
      assert.ok(stored.every((p) => p.length > 100));
    });

    it('joins the same texts whether or not the database sorts them (the variant used if SQLite joined out of order)', async () => {
      await rebuildContractReadModel(t.database.db);
      const text = (j: Awaited<ReturnType<typeof storedContractWindow>>) =>
        j && { ...j, json: Buffer.isBuffer(j.json) ? j.json.toString('utf8') : j.json };
      // version 1.0 texts exist for the kinds version 1.0 offers
      const withV10 = new Set(
        (
          await t.database.db
            .selectFrom('contract_agreement_texts as t')
            .innerJoin('contract_agreements as ca', 'ca.id', 't.id')
            .select('ca.kind')
            .distinct()
            .where('t.v10', 'is not', null)
            .execute()
        ).map((r) => r.kind),
      );
      assert.equal(withV10.size, 7);
      for (const kind of CONTRACT_AGREEMENT_KINDS)
        for (const view of withV10.has(kind) ? (['v12', 'v10'] as const) : (['v12'] as const))
          for (const showNulls of [false, true]) {
            const args = [kind, view, t.database.db, {}, ALL_LEDGERS, { offset: 2, limit: 7 }, showNulls] as const;
            const unsorted = text(await storedContractWindow(...args));
            assert.ok(unsorted && unsorted.count === 7, `${kind} ${view}`);
            assert.deepEqual(text(await storedContractWindow(...args, true)), unsorted);
          }
    });

    it('is rebuilt by an import in its transaction; a failed import leaves the old texts and data', () =>
      withDb(dialect, async (target) => {
        await rebuildContractReadModel(t.database.db);
        const text = await exportText(t.database);
        await importText(target, text);
        assert.equal(await contractReadModelFresh(target.db), true);
        const imported = await pages(target.db);
        assert.deepEqual(imported, await pages(t.database.db));
        assert.ok((await importProblems(target, withBrokenReference(text))).length > 0);
        assert.equal(await contractReadModelFresh(target.db), true);
        assert.deepEqual(await pages(target.db), imported);
      }));
  });
}
