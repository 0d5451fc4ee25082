// A real HTTP receiver on 127.0.0.1 for webhook tests: records every request and answers as the test says.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What to answer: a status (with headers), or 'hang' (never answer). */
export type Answer = number | { status: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Decides the answer of each request (default 200). */
  answer: (r: Received) => Answer;
  /** Most requests to one path left unanswered ('hang') at the same time, while their connection stayed open. */
  maxHanging: Map<string, number>;
  /** Resolves once `n` requests (matching `filter`) have arrived; rejects after `ms`. */
  waitFor(n: number, ms?: number, filter?: (r: Received) => boolean): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const hanging = new Set<http.ServerResponse>();
  const receiver = {
    url: '',
    received: [] as Received[],
    answer: (() => 200) as (r: Received) => Answer,
    maxHanging: new Map<string, number>(),
    async waitFor(n: number, ms = 20_000, filter: (r: Received) => boolean = () => true) {
      const end = Date.now() + ms;
      for (;;) {
        const got = receiver.received.filter(filter);
        if (got.length >= n) return got;
        if (Date.now() > end) throw new Error(`receiver: ${got.length} of ${n} requests after ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      };
      receiver.received.push(r);
      const a = receiver.answer(r);
      if (a === 'hang') {
        hanging.add(res);
        const open = [...hanging].filter((h) => h.req.url === r.path && !h.req.socket.destroyed).length;
        receiver.maxHanging.set(r.path, Math.max(open, receiver.maxHanging.get(r.path) ?? 0));
        res.on('close', () => hanging.delete(res));
        return;
      }
      const { status, headers } = typeof a === 'number' ? { status: a, headers: {} } : a;
      res.writeHead(status, headers).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
