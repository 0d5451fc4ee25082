// S2/S3: AllocationGroupBases limit=100 with every include. S2a the same page repeated (cache on); S2b every request
// a page not asked before in the run (one shared cursor over every offset and ledger filter: the cache cannot
// answer); S2c the old "varied" scenario, 400 pages that every connection cycles through (mostly cache hits);
// S3 the last page repeated.
import { INCLUDES, RC, type Bench, type Scenario } from '../context.ts';

export const s2Path = (b: Bench, limit = 100) =>
  `${RC}/AllocationGroupBases?apiKey=${b.prepared.apiKey}&limit=${limit}&${INCLUDES}`;

/** Every distinct page: each offset of the whole list, then each offset within each ledger (filter companyCodeId). */
function uniquePages(b: Bench): string[] {
  const total = b.prepared.counts.allocation_group_bases;
  const out: string[] = [];
  for (let offset = 1; offset < total; offset++) out.push(`${s2Path(b)}&offset=${offset}`);
  for (let ledger = 1; ledger <= 4; ledger++)
    for (let offset = 1; offset < total / 4; offset++)
      out.push(`${s2Path(b)}&companyCodeId=${ledger}&offset=${offset}`);
  return out;
}

export async function readScenarios(b: Bench, opts: { limit?: number; all: boolean }) {
  const limit = opts.limit ?? 100;
  const total = b.prepared.counts.allocation_group_bases;
  const lastOffset = Math.max(0, Math.floor((total - 1) / limit) * limit);
  const base = b.server.base;
  const headers = b.headers;
  const s2a = b.record(
    'S2a AllocationGroupBases same page',
    await b.load(b.pid, 'load.ts', { url: `${base}${s2Path(b, limit)}`, headers }),
  );
  if (opts.all) {
    b.record(
      'S2b AllocationGroupBases, every request a new page',
      await b.load(b.pid, 'load.ts', { url: base, uniquePaths: uniquePages(b), headers }),
    );
    const varied = Array.from(
      { length: 400 },
      (_, i) =>
        `${s2Path(b)}&offset=${(i * 37) % Math.max(1, total)}${i % 3 === 0 ? `&companyCodeId=${1 + (i % 4)}` : ''}`,
    );
    b.record(
      'S2c AllocationGroupBases, 400 pages repeated by each connection',
      await b.load(b.pid, 'load.ts', { url: base, paths: varied, headers }),
    );
  }
  const s3 = b.record(
    'S3 AllocationGroupBases last page',
    await b.load(b.pid, 'load.ts', { url: `${base}${s2Path(b, limit)}&offset=${lastOffset}`, headers }),
    `offset ${lastOffset}`,
  );
  return { s2a, s3 };
}

export default {
  name: 'S2',
  run: (b) => readScenarios(b, { all: true }).then(() => undefined),
} satisfies Scenario;
