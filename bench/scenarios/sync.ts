// S8: one client syncs everything, sequentially, limit=100, page cache cold (server restarted): every
// AllocationGroupBases page with all includes, then every page of the 17 v1.2 contract kinds and of the price-index
// values. B8: the same sync against a static server answering the same pages (saved by the first sync) from memory.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, freePort } from '../harness.ts';
import { INCLUDES, RA, RC, type Scenario } from '../context.ts';
import { CONTRACT_AGREEMENT_KINDS as CONTRACT_KINDS } from '../../src/rent-accounting/tables.ts';

export default {
  name: 'S8',
  async run(b) {
    await b.restartServer();
    const key = `apiKey=${b.prepared.apiKey}`;
    const collections = [
      `${RC}/AllocationGroupBases?${key}&${INCLUDES}`,
      ...CONTRACT_KINDS.map((k) => `${RA}/ContractAgreement/${k}?${key}`),
      `${RA}/PriceIndexValue?${key}`,
    ];
    const save = path.join(b.workdir, 'sync');
    fs.mkdirSync(save, { recursive: true });
    const sync = (base: string, pid: number, headers: Record<string, string>, saveTo?: string) =>
      b.load(pid, 'sync-load.ts', { base, headers, collections, limit: 100, ...(saveTo ? { save: saveTo } : {}) });
    const s8 = await sync(b.server.base, b.pid, b.headers, save);
    const perSecond = (r: typeof s8) => Math.round(r.extra?.recordsPerSecond ?? 0);
    b.record(
      'S8 sync everything, one client, cache cold (rps = pages/s)',
      s8,
      `${s8.extra?.records} records, ${perSecond(s8)} records/s, ` +
        `${Math.round((s8.extra?.records ?? 0) / ((s8.cpuMsPerRequest * s8.ok) / 1000))} records per CPU s`,
    );
    const port = await freePort();
    const st = await b.spawn(
      ['--import', 'tsx', `${ROOT}bench/static-server.ts`, String(port), path.join(save, 'manifest.json')],
      {},
      `http://127.0.0.1:${port}/ready`,
    );
    const b8 = await sync(`http://127.0.0.1:${port}`, st.pid, b.headers);
    b.record(
      'B8 the same sync against a static server',
      b8,
      `${b8.extra?.records} records, ${perSecond(b8)} records/s`,
    );
    await st.stop();
    fs.rmSync(save, { recursive: true, force: true });
  },
} satisfies Scenario;
