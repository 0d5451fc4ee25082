import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { DIALECTS } from '../../test/support/db.ts';
import { importData } from './import/importer.ts';
import { count, withDb } from '../../test/support/dataset.ts';

/** A document with one price index and `n` monthly values, produced as a stream (never held in memory). */
function largeDocument(n: number, stats: { bytes: number }): Readable {
  return Readable.from(
    (function* () {
      const head =
        '{"Format":"wohnapi-data/1","PriceIndices":[{"Id":1,"Code":"VPI2020","Note":"Verbraucherpreisindex"}],\n"PriceIndexValues":[\n';
      stats.bytes += head.length;
      yield head;
      const lines: string[] = [];
      for (let i = 0; i < n; i++) {
        const year = 1900 + (Math.floor(i / 12) % 200);
        const month = String((i % 12) + 1).padStart(2, '0');
        lines.push(
          `{"Id":${i + 2},"PriceIndexId":1,"IndexValue":${100 + (i % 5000) / 100},"ReferenceDate":"${year}-${month}-01"}`,
        );
        if (lines.length === 1000 || i === n - 1) {
          const chunk = lines.join(',\n') + (i === n - 1 ? '\n]}\n' : ',\n');
          stats.bytes += chunk.length;
          lines.length = 0;
          yield chunk;
        }
      }
    })(),
    { objectMode: false },
  );
}

v8.setFlagsFromString('--expose-gc');
/** A full garbage collection, so what is measured is memory the import holds on to, not garbage awaiting collection. */
const gc = vm.runInNewContext('gc') as () => void;

// A million records on SQLite; 200,000 on PostgreSQL, to keep the suite's run time modest (same code path).
const SIZES = { sqlite: 1_000_000, postgres: 200_000 } as const;

for (const dialect of DIALECTS) {
  describe(`large import [${dialect}]`, () => {
    for (const parseInThread of [false, true])
      it(`imports ${SIZES[dialect].toLocaleString('en')} records with memory that does not grow with the file${parseInThread ? ', parsed in a worker thread (whose messages must not pile up here)' : ''}`, () =>
        withDb(dialect, async (t) => {
          const stats = { bytes: 0 };
          gc();
          const before = process.memoryUsage();
          let peakHeap = before.heapUsed;
          let peakRss = before.rss;
          const summary = await importData(t, largeDocument(SIZES[dialect], stats), {
            parseInThread,
            progress: (records) => {
              if (records % 50_000 !== 0) return;
              gc();
              const m = process.memoryUsage();
              peakHeap = Math.max(peakHeap, m.heapUsed);
              peakRss = Math.max(peakRss, m.rss);
            },
          });
          assert.equal(summary.records, SIZES[dialect] + 1);
          assert.equal(await count(t, 'price_index_values'), SIZES[dialect]);
          const heapGrowth = peakHeap - before.heapUsed;
          const rssGrowth = peakRss - before.rss;
          const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
          console.log(
            `[${dialect}${parseInThread ? ', thread' : ''}] file ${mb(stats.bytes)}, retained heap growth ${mb(heapGrowth)}, RSS growth ${mb(rssGrowth)}`,
          );
          // the file is ~78 MiB (SQLite) / ~16 MiB (PostgreSQL); a streaming import holds one chunk and one batch
          assert.ok(heapGrowth < 16 * 2 ** 20, `heap grew by ${mb(heapGrowth)} for a ${mb(stats.bytes)} file`);
          assert.ok(heapGrowth < stats.bytes / 4, `heap grew by ${mb(heapGrowth)} for a ${mb(stats.bytes)} file`);
        }));
  });
}
