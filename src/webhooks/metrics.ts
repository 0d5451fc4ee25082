// Delivery metrics, served by /metrics beside the request metrics (src/pipeline/10-metrics.ts merges this registry).
import { Counter, Histogram, Registry } from 'prom-client';

export const webhookRegistry = new Registry();

export const webhookMetrics = {
  sent: new Counter({
    name: 'webhook_deliveries_sent_total',
    help: 'Webhook deliveries answered with 2xx',
    registers: [webhookRegistry],
  }),
  failed: new Counter({
    name: 'webhook_deliveries_failed_total',
    help: 'Webhook deliveries given up after the last retry (test deliveries are not counted)',
    registers: [webhookRegistry],
  }),
  retried: new Counter({
    name: 'webhook_deliveries_retried_total',
    help: 'Failed webhook attempts scheduled for a retry',
    registers: [webhookRegistry],
  }),
  lag: new Histogram({
    name: 'webhook_delivery_lag_seconds',
    help: 'Time from the commit of an event to the first delivery attempt',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [webhookRegistry],
  }),
};
