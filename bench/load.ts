// Runs one autocannon load in its own process (so the load generator never shares a core's event loop with
// the server) and prints the result as one JSON line. Usage: node --import tsx bench/load.ts '<json options>'
import autocannon from 'autocannon';

const [json] = process.argv.slice(2);
if (json === undefined) throw new Error("usage: node --import tsx bench/load.ts '<json options>'");
const opts = JSON.parse(json) as {
  url: string;
  paths?: string[];
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
};
const method = opts.method ?? 'GET';
const result = await autocannon({
  url: opts.url,
  connections: opts.connections,
  duration: opts.duration,
  method,
  ...(opts.headers ? { headers: opts.headers } : {}),
  ...(opts.body ? { body: opts.body } : {}),
  ...(opts.paths
    ? { requests: opts.paths.map((path) => ({ path, method, ...(opts.headers ? { headers: opts.headers } : {}) })) }
    : {}),
});
process.stdout.write(
  `${JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  })}\n`,
);
