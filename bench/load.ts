// Runs one autocannon load in its own process (so the load generator never shares a core's event loop with
// the server) and prints the result as one JSON line. Usage: node --import tsx bench/load.ts '<json options>'
// `paths`: every connection cycles through the list on its own (so connections repeat each other's pages);
// `uniquePaths`: one shared cursor over the list, so every request of the run asks for a path not asked before
// (until the list is used up: the result's `requests` vs the list's length shows whether it was).
import { readOptions } from './options.ts';
import autocannon from 'autocannon';

const opts = readOptions<{
  url: string;
  paths?: string[];
  uniquePaths?: string[];
  connections: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Seconds before a request counts as timed out (autocannon's default: 10). */
  timeout?: number;
  /** Stop after this many requests instead of after `duration` (so no request is cut off at the end). */
  amount?: number;
}>('load.ts');
const method = opts.method ?? 'GET';
let hits = 0;
let lastResponseAt = 0;
const onResponse = (_status: number, _body: string, _context: unknown, headers: Record<string, string | string[]>) => {
  lastResponseAt = performance.now();
  if (headers['x-cache'] === 'hit' || headers['X-Cache'] === 'hit') hits++;
};
const withHeaders = opts.headers ? { headers: opts.headers } : {};
let cursor = 0;
const unique = opts.uniquePaths;
const requests = unique
  ? [
      {
        method,
        ...withHeaders,
        onResponse,
        setupRequest: (req: object) => ({ ...req, path: unique[cursor++ % unique.length] }),
      },
    ]
  : (opts.paths?.map((path) => ({ path, method, ...withHeaders, onResponse })) ?? [{ method, onResponse }]);
const started = performance.now();
const result = await autocannon({
  url: opts.url,
  connections: opts.connections,
  ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration }),
  method,
  ...withHeaders,
  ...(opts.body ? { body: opts.body } : {}),
  ...(opts.timeout ? { timeout: opts.timeout } : {}),
  requests,
});
// autocannon resolves only at its next one-second sample tick after the last answer, so an `amount` run is timed
// from the start to its last answer (otherwise a run of 1.04 s reads as 2 s, and its rate as half)
const seconds = ((lastResponseAt || performance.now()) - started) / 1000;
const answered = result['2xx'] + result.non2xx;
process.stdout.write(
  `${JSON.stringify({
    // autocannon averages whole-second buckets: a run of `amount` requests that ends within a second would report
    // the count of its only bucket, so such runs are measured by their wall time up to the last answer
    rps: opts.amount ? Math.round((answered / seconds) * 100) / 100 : result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    hits,
    requests: answered,
    extra: unique ? { distinctPaths: unique.length, pathsAsked: cursor } : undefined,
  })}\n`,
);
