// Version 1.0 complete lists are streamed: the same records as the pages, across chunk boundaries, and with memory
// that does not grow with the size of the answer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { DIALECTS } from '../../test/support/db.ts';
import { bearer, testApp, type TestApp } from '../../test/support/app.ts';
import { at, first } from '../../test/support/lists.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { buildWorld, type World } from '../dataset/factories.ts';
import { bulkAgreements } from '../../test/fixtures/contracts.ts';
import { STREAM_CHUNK } from './engine.ts';

const V10 = '/service/v1.0/RentAccounting';

// A full garbage collection before each heap sample, so a sample shows what is retained, not garbage not yet collected.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const liveHeap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};
const SAMPLE_EVERY = 5_000_000;

interface Measured {
  status: number;
  bytes: number;
  records: number;
  first: string;
  last: string;
  peakHeapGrowth: number;
}

/**
 * GETs a URL over a real socket (server and client in this process), discarding the body while counting it, and
 * samples the live heap every SAMPLE_EVERY bytes of body.
 */
function measure(url: string, token: string, marker: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const baseline = liveHeap();
    let peak = baseline;
    http
      .get(url, { headers: bearer(token) }, (res) => {
        let bytes = 0;
        let records = 0;
        let carry = '';
        let first = '';
        let nextSample = SAMPLE_EVERY;
        res.on('data', (chunk: Buffer) => {
          const text = carry + chunk.toString('latin1');
          if (!first) first = text.slice(0, 1);
          records += text.split(marker).length - 1;
          carry = text.slice(-(marker.length - 1));
          bytes += chunk.length;
          if (bytes >= nextSample) {
            peak = Math.max(peak, liveHeap());
            nextSample += SAMPLE_EVERY;
          }
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            records,
            first,
            last: carry.slice(-1),
            peakHeapGrowth: peak - baseline,
          }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

for (const dialect of DIALECTS) {
  describe(`rent accounting v1.0 streaming [${dialect}]`, () => {
    let t: TestApp;
    let token: string;
    let world: World;
    before(async () => {
      t = await testApp(dialect);
      world = await buildWorld(t.database.db, { ledgers: 1 });
      token = await t.login({ permissions: [PERMISSIONS.rentAccountingRead] });
    });
    after(() => t.close());
    const get = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ url, headers: { ...bearer(token), ...headers } });

    it('the streamed list equals the pages, across chunks of child rows, with and without showNullValues', async () => {
      const bulk = 2 * STREAM_CHUNK + 234;
      await bulkAgreements(t.database.db, dialect, world, 5_000_000, bulk, true);
      for (const show of ['', 'showNullValues=true']) {
        const streamed = await get(`${V10}/GraduatedRentAgreement?${show}`);
        assert.equal(streamed.statusCode, 200);
        assert.match(String(streamed.headers['content-type']), /^application\/json/);
        const all = streamed.json<{ Id: number; GraduatedRentEntries: unknown[] }[]>();
        assert.equal(all.length, bulk + 1); // and the world's own agreement
        const paged: unknown[] = [];
        for (let offset = 0; offset <= bulk; offset += 100)
          paged.push(...(await get(`${V10}/GraduatedRentAgreement?limit=100&offset=${offset}&${show}`)).json());
        assert.deepEqual(all, paged);
        const vat = await t.database.db
          .selectFrom('catalog_codes')
          .select('code')
          .where('id', '=', first(world.catalog.VatRate))
          .executeTakeFirstOrThrow();
        assert.deepEqual(at(all, bulk).GraduatedRentEntries, [
          {
            Id: 5_000_000 + bulk - 1,
            RentChangeDate: '2025-01-01T00:00:00Z',
            Amount: 850.25,
            VATRateId: world.catalog.VatRate[0],
            VATRate: vat.code,
            ActivatedAgreement: true,
          },
        ]);
      }
      const plain = await get(`${V10}/GraduatedRentAgreement?offset=${bulk - 4}`, { accept: 'text/plain' });
      assert.match(String(plain.headers['content-type']), /^text\/plain/);
      assert.equal(plain.json().length, 5);
      assert.deepEqual((await get(`${V10}/GraduatedRentAgreement?contractAgreementId=1`)).json(), []);
    });

    it('streams 200,000 records without the server memory growing with the answer', async (ctx) => {
      await bulkAgreements(t.database.db, dialect, world, 10_000_000, 200_000, false);
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `${address}${V10}/RentalUpperLimit?economicUnitId=${first(first(world.ledgers).economicUnitIds)}`;
      const m = await measure(url, token, '"LicenseAgreementId":');
      ctx.diagnostic(
        `[${dialect}] streamed ${m.records} records, ${m.bytes} bytes; peak live-heap growth ${m.peakHeapGrowth} bytes`,
      );
      assert.equal(m.status, 200);
      assert.equal(m.first, '[');
      assert.equal(m.last, ']');
      assert.equal(m.records, 200_001);
      assert.ok(m.bytes > 20_000_000, `body bytes: ${m.bytes}`);
      // Built in memory, the answer would hold 200,000 presented objects plus the body text: more than the body size.
      assert.ok(m.peakHeapGrowth < m.bytes / 10, `heap grew by ${m.peakHeapGrowth} bytes for a body of ${m.bytes}`);

      // A client that goes away mid-stream leaves the server (and SQLite's one connection) free for the next request.
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`${address}${V10}/RentalUpperLimit`, { headers: bearer(token) }, (res) => {
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        });
        req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
      });
      assert.equal((await get(`${V10}/RentalUpperLimit?limit=1`)).statusCode, 200);
    });
  });
}
