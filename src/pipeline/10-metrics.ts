// Step 10 (after the answer is sent): request count and latency by route and status for Prometheus (/metrics),
// plus the process defaults; with several workers /metrics sums them all.
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { App } from '../app-types.ts';
import type { Database } from '../db/database.ts';

type PoolStats = ReturnType<NonNullable<Database['poolStats']>>;
import { webhookRegistry } from '../webhooks/metrics.ts';
import { groupMetrics, joinClusterMetrics } from '../runtime/cluster-metrics.ts';

export default fp(
  async (app: App) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const pool = app.database.poolStats?.bind(app.database);
    if (pool) {
      // docs/deployment.md: raise DATABASE_POOL_MAX only when requests wait for a connection
      const gauge = (name: string, help: string, read: (p: PoolStats) => number) =>
        new Gauge({
          name,
          help,
          registers: [registry],
          collect: function (this: Gauge) {
            this.set(read(pool()));
          },
        });
      gauge(
        'db_pool_connections',
        'Open PostgreSQL connections (DATABASE_POOL_MAX at most per worker; summed over the workers of serve)',
        (p) => p.total,
      );
      gauge('db_pool_idle_connections', 'Open PostgreSQL connections not in use', (p) => p.idle);
      gauge('db_pool_waiting_requests', 'Queries waiting for a free PostgreSQL connection', (p) => p.waiting);
    }
    const labelNames = ['method', 'route', 'status'] as const;
    const requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests',
      labelNames,
      registers: [registry],
    });
    const latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency',
      labelNames,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });

    // The labelled series per method, route and status, looked up once (prom-client hashes a label object per call).
    const series = new Map<
      string,
      { count: Counter.Internal; time: Histogram.Internal<(typeof labelNames)[number]> }
    >();
    const record = (method: string, status: number, route: string, seconds: number) => {
      const key = `${method} ${status} ${route}`;
      let s = series.get(key);
      if (!s) {
        const labels = { method, route, status: String(status) };
        series.set(key, (s = { count: requests.labels(labels), time: latency.labels(labels) }));
      }
      s.count.inc();
      s.time.observe(seconds);
    };
    app.addHook('onResponse', (request, reply, done) => {
      record(request.method, reply.statusCode, request.routeOptions.url ?? 'unmatched', reply.elapsedTime / 1000);
      done();
    });
    // Answers of the front door (src/http/front-door.ts) count like the pipeline's, and on their own.
    const frontDoorAnswers = new Counter({
      name: 'http_front_door_answers_total',
      help: 'Repeated page-cache hits answered before the pipeline (also counted in http_requests_total)',
      registers: [registry],
    });
    app.frontDoor.observe = (method, status, route, seconds) => {
      frontDoorAnswers.inc();
      record(method, status, route, seconds);
    };

    // with several workers, every scrape answers for all of them (src/runtime/cluster-metrics.ts)
    const registries = [registry, webhookRegistry];
    joinClusterMetrics(registries);
    app.get('/metrics', { schema: { tags: ['Operations'], hide: true } }, async (_request, reply) => {
      reply.header('content-type', registry.contentType);
      return groupMetrics(registries);
    });
  },
  { name: 'metrics' },
);
