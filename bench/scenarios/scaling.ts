// Scaling (with --scaling 1,10,...): S2a and S3 at several scales, on the database path (page cache off), with a
// page size that is full at every scale so that only the data size differs.
import { login, type Scenario } from '../context.ts';
import { readScenarios } from './allocation-group-bases.ts';

export default {
  name: 'scaling',
  async run(b) {
    if (b.options.scaling.length === 0) return;
    const scales = [...new Set([...b.options.scaling, b.options.scale])].sort((x, y) => x - y);
    const prepared = [];
    for (const s of scales) prepared.push({ s, ps: await b.prepare(s) });
    const limit = Math.min(100, ...prepared.map(({ ps }) => ps.counts.allocation_group_bases));
    const rows = [];
    for (const { s, ps } of prepared) {
      const server = await b.startServer({ ...ps.env, PAGE_CACHE_MB: '0' });
      const token = await login(server.base);
      const view = {
        ...b,
        options: { ...b.options, scale: s },
        prepared: ps,
        server,
        pid: server.child.pid as number,
        headers: { authorization: `Bearer ${token}` },
        record: (name: string, r: Parameters<typeof b.record>[1], note?: string) =>
          b.record(`${name} (no cache, scale ${s})`, r, note),
      };
      const r = await readScenarios(view, { limit, all: false });
      const s3offset = Math.floor((ps.counts.allocation_group_bases - 1) / limit) * limit;
      rows.push({ scale: s, limit, s2p50: r.s2a.p50, s2p99: r.s2a.p99, s3p99: r.s3.p99, s3offset });
      await server.stop();
    }
    b.sections.scaling = rows;
  },
} satisfies Scenario;
