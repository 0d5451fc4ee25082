// Webhook delivery scenario (issue 12): 10,000 events delivered by a `serve` process to a local receiver answering
// 200 at once. W1: all 10,000 committed at once (throughput: events/s until the last receipt). W2: 10,000 committed
// at a steady 1,000 events/s (lag from commit to receipt, p50/p99). B3: the receiver driven directly (its own rate).
// Standalone: node --import tsx bench/webhooks.ts [--postgres]; `npm run bench` runs it too (bench/run.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { cli, runLoad, startServer } from './harness.ts';
import { openDatabase } from '../src/db/database.ts';
import { recordEvents } from '../src/events/outbox.ts';

export interface WebhookRow {
  scenario: string;
  scale: number;
  rps: number;
  p50: number;
  p99: number;
  peakRssMb: number;
  errors: number;
  note: string;
}

const EVENTS = 10_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

/** Runs W1, W2 and B3 on a fresh database of the caller's engine; answers rows for the benchmark table. */
export async function webhookScenarios(
  databaseUrl: () => Promise<string>,
  options: { duration: number; connections: number },
): Promise<WebhookRow[]> {
  // The receiver: answers 200 at once and notes when each event (by its entity id) arrived.
  const arrived = new Map<number, number>();
  let duplicates = 0;
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      if (req.url === '/hook') {
        const id = (JSON.parse(Buffer.concat(chunks).toString()) as { id: number }).id;
        if (arrived.has(id)) duplicates++;
        else arrived.set(id, at);
      }
      res.writeHead(200).end();
    });
  });
  receiver.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const env = { DATABASE_URL: await databaseUrl(), WEBHOOK_ALLOW_PRIVATE: 'true' };
  await cli(['migrate'], env);
  await cli(['apikey', 'create', '--name', 'hooks', '--all-ledgers'], env);
  await cli(['webhook', 'add', '--key', 'hooks', '--url', `${url}/hook`, '--entity', 'Loan'], env);
  const server = await startServer(env);
  const database = openDatabase(env.DATABASE_URL);
  const rows: WebhookRow[] = [];
  try {
    const events = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        entityType: 'Loan',
        entityId: from + i,
        action: 'updated' as const,
        companyCodeId: null,
      }));
    const waitAll = async (ids: number[]) => {
      while (ids.some((id) => !arrived.has(id))) await new Promise((r) => setTimeout(r, 5));
    };

    // W1: one commit of 10,000 events, then the time until the last arrives.
    const committed = new Map<number, number>();
    await database.db.transaction().execute((trx) => recordEvents(trx, events(1, EVENTS)));
    const t0 = performance.now();
    for (let id = 1; id <= EVENTS; id++) committed.set(id, t0);
    const burstIds = [...committed.keys()];
    await waitAll(burstIds);
    const burstLags = burstIds.map((id) => arrived.get(id)! - t0).sort((a, b) => a - b);
    const seconds = (burstLags.at(-1) ?? 0) / 1000;
    rows.push({
      scenario: 'W1 webhooks: 10,000 events committed at once (events/s)',
      scale: 0,
      rps: Math.round(EVENTS / seconds),
      p50: +percentile(burstLags, 50).toFixed(1),
      p99: +percentile(burstLags, 99).toFixed(1),
      peakRssMb: 0,
      errors: duplicates,
      note: `all delivered in ${seconds.toFixed(2)} s; p50/p99 = lag from commit to receipt`,
    });

    // W2: 10,000 events at a steady 1,000 events/s (20 per commit every 20 ms): lag from commit to receipt.
    const start = EVENTS + 1;
    const paced: number[] = [];
    const began = performance.now();
    for (let i = 0; i < EVENTS; i += 20) {
      const due = began + (i / 1000) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await database.db.transaction().execute((trx) => recordEvents(trx, events(start + i, 20)));
      const at = performance.now();
      for (let k = 0; k < 20; k++) {
        committed.set(start + i + k, at);
        paced.push(start + i + k);
      }
    }
    await waitAll(paced);
    const lags = paced.map((id) => arrived.get(id)! - committed.get(id)!).sort((a, b) => a - b);
    const pacedSeconds = (Math.max(...paced.map((id) => arrived.get(id)!)) - began) / 1000;
    rows.push({
      scenario: 'W2 webhooks: 10,000 events at 1,000/s (lag ms)',
      scale: 0,
      rps: Math.round(EVENTS / pacedSeconds),
      p50: +percentile(lags, 50).toFixed(1),
      p99: +percentile(lags, 99).toFixed(1),
      peakRssMb: 0,
      errors: duplicates,
      note: 'p50/p99 = lag from commit to receipt (includes the poll interval, WEBHOOK_POLL_MS=100)',
    });
    // Repeated attempts (a receipt counted twice is one whose answer the dispatcher did not see in time).
    const repeated = await database.db
      .selectFrom('webhook_attempts')
      .select(['attempt', 'error', 'status_code'])
      .where((eb) => eb.or([eb('attempt', '>', 1), eb('error', 'is not', null)]))
      .execute();
    if (repeated.length)
      process.stderr.write(
        `webhooks bench: ${repeated.length} failed or repeated attempts, e.g. ${JSON.stringify(repeated.slice(0, 3))}\n`,
      );
  } finally {
    await database.close();
    await server.stop();
  }

  // B3: the receiver's own rate, driven directly with the same kind of POST.
  const b3 = await runLoad('load.ts', {
    url: `${url}/baseline`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ entityType: 'Entity', entityName: 'Loan', id: 1, action: 'updated' }),
    connections: options.connections,
    duration: options.duration,
  });
  rows.push({
    scenario: 'B3 webhook receiver driven directly (req/s)',
    scale: 0,
    rps: Math.round(b3.rps),
    p50: b3.p50,
    p99: b3.p99,
    peakRssMb: 0,
    errors: b3.errors + (b3.non2xx ?? 0),
    note: 'baseline of W1/W2',
  });
  await new Promise<void>((r) => {
    receiver.closeAllConnections();
    receiver.close(() => r());
  });
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const path = await import('node:path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-bench-webhooks-'));
  let cluster: { url: string; stop(): void } | undefined;
  try {
    const postgres = process.argv.includes('--postgres');
    const databaseUrl = async () => {
      if (!postgres) return `sqlite:${path.join(dir, 'webhooks.sqlite')}`;
      const { startCluster } = await import('../scripts/pg-cluster.ts');
      cluster = await startCluster();
      const pg = (await import('pg')).default;
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      await admin.query('CREATE DATABASE bench_webhooks');
      await admin.end();
      return cluster.url.replace(/\/postgres$/, '/bench_webhooks');
    };
    const rows = await webhookScenarios(databaseUrl, { duration: 10, connections: 10 });
    const { table } = await import('./harness.ts');
    console.log(table(rows as unknown as Array<Record<string, string | number>>));
  } finally {
    cluster?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
