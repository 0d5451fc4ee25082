// S4a: a v1.2 contract-agreement page (limit=100); S4b: the v1.0 complete list, streamed, `connections` concurrent
// downloads (records/s = downloads/s x records per list).
import type { Scenario } from '../context.ts';

export default {
  name: 'S4',
  async run(b) {
    const q = `apiKey=${b.prepared.apiKey}`;
    b.record(
      'S4a GraduatedRentAgreement v1.2 limit=100',
      await b.load(b.pid, 'load.ts', {
        url: `${b.server.base}/service/v1.2/RentAccounting/ContractAgreement/GraduatedRentAgreement?${q}&limit=100`,
        headers: b.headers,
      }),
    );
    const n = b.prepared.counts.graduated;
    const r = await b.load(b.pid, 'load.ts', {
      url: `${b.server.base}/service/v1.0/RentAccounting/GraduatedRentAgreement?${q}`,
      headers: b.headers,
      timeout: 120, // a complete list may take longer than autocannon's 10 s on a loaded machine
      amount: 10 * b.options.connections, // whole lists only: CPU per list is not inflated by lists cut off at the end
    });
    b.record(
      'S4b GraduatedRentAgreement v1.0 complete list',
      r,
      `${n} records/list, ${Math.round(r.rps * n)} records/s, ${((r.cpuMsPerRequest * 1000) / n).toFixed(1)} us CPU/record ` +
        `(${Math.round((n * 1000) / r.cpuMsPerRequest)} records per CPU s)`,
    );
  },
} satisfies Scenario;
