// /metrics of a group of worker processes answers for the whole group: the worker that gets the scrape asks the
// primary, which collects the registries of every ready worker over node:cluster's IPC and sums them with
// prom-client's aggregation (counters, histograms and the pool gauges; process metrics as prom-client aggregates
// them). Without it each scrape reached one worker, and a counter seemed to go back whenever the next scrape reached
// another (docs/deployment.md, "What is counted per process"). When a ready worker does not answer in time the scrape
// is a 503 (a failed scrape, not a smaller sum). A process that is not a cluster worker answers with its own
// registries.
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { ApiError } from '../http/errors.ts';

type MetricsJson = Array<MetricObjectWithValues<MetricValue<string>>>;

/** worker -> primary: the group's metrics, please; primary -> worker: here they are (or why not). */
const REQUEST = 'wohnapi:metrics-req';
const RESPONSE = 'wohnapi:metrics-res';
/** primary -> worker: your registries, please; worker -> primary: here they are. */
const COLLECT = 'wohnapi:metrics-collect';
const COLLECTED = 'wohnapi:metrics-collected';
/** How long the primary waits for every ready worker's registries. */
const COLLECT_MS = 3_000;
/** How long a worker waits for the primary's answer (a little longer than the collection). */
const WAIT_MS = 4_000;

type Message =
  | { type: typeof REQUEST; id: number }
  | { type: typeof RESPONSE; id: number; text?: string; error?: string }
  | { type: typeof COLLECT; id: number }
  | { type: typeof COLLECTED; id: number; metrics: MetricsJson[] };

const isMessage = (m: unknown): m is Message =>
  typeof m === 'object' && m !== null && typeof (m as { id?: unknown }).id === 'number';

/** Sends over the IPC channel if it is open (send's false only means a backlog: it is sent later); false if closed. */
function post(to: Worker | NodeJS.Process, message: Message): boolean {
  try {
    if ('isConnected' in to) {
      if (!to.isConnected()) return false;
      to.send(message);
    } else {
      if (!to.connected || !to.send) return false;
      to.send(message);
    }
    return true;
  } catch {
    return false;
  }
}

/** In the primary: answers a worker's request with the sum over the ready workers (`ready()`). */
export function relayClusterMetrics(ready: () => Worker[]): void {
  let counter = 0;
  const collections = new Map<number, (worker: Worker, metrics: MetricsJson[]) => void>();
  const collect = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const id = ++counter;
      const waiting = new Set(ready().filter((w) => post(w, { type: COLLECT, id })));
      const all: MetricsJson[] = [];
      const finish = (err?: Error) => {
        clearTimeout(timer);
        collections.delete(id);
        if (err) return reject(err);
        try {
          resolve(AggregatorRegistry.aggregate(all).metrics());
        } catch (failed) {
          reject(failed instanceof Error ? failed : new Error(String(failed))); // never thrown into the primary's loop
        }
      };
      const timer = setTimeout(
        () => finish(new Error(`${waiting.size} worker(s) did not send their metrics within ${COLLECT_MS} ms`)),
        COLLECT_MS,
      );
      collections.set(id, (worker, metrics) => {
        if (!waiting.delete(worker)) return;
        all.push(...metrics);
        if (waiting.size === 0) finish();
      });
      if (waiting.size === 0) finish();
    });
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === COLLECTED) collections.get(message.id)?.(worker, message.metrics);
    else if (message.type === REQUEST) {
      const id = message.id;
      collect().then(
        (text) => post(worker, { type: RESPONSE, id, text }),
        (err: Error) => post(worker, { type: RESPONSE, id, error: err.message }),
      );
    }
  });
}

let counter = 0;
const pending = new Map<number, (m: { text?: string; error?: string }) => void>();
let grouped = false;
let ownRegistries: Registry[] = [];

/**
 * In a cluster worker, when its app is made: these registries are what the primary collects from this worker, and
 * the primary's answers reach `groupMetrics`. Elsewhere (tests, one process outside `serve`) nothing happens.
 */
export function joinClusterMetrics(registries: Registry[]): void {
  if (!cluster.isWorker || !process.send) return;
  ownRegistries = registries;
  if (grouped) return;
  grouped = true;
  process.on('message', (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === RESPONSE) pending.get(message.id)?.(message);
    else if (message.type === COLLECT) {
      const id = message.id;
      Promise.all(ownRegistries.map((r) => r.getMetricsAsJSON())).then(
        (metrics) => post(process, { type: COLLECTED, id, metrics }),
        () => undefined, // not answered: the primary's collection times out and the scrape is a 503
      );
    }
  });
}

/** The text of /metrics: the whole group's in a cluster worker, else these registries' own. */
export async function groupMetrics(registries: Registry[]): Promise<string> {
  if (!grouped) return Registry.merge(registries).metrics();
  const id = ++counter;
  const answer = await new Promise<{ text?: string; error?: string }>((resolve) => {
    const timer = setTimeout(
      () => resolve({ error: `the primary process did not answer within ${WAIT_MS} ms` }),
      WAIT_MS,
    );
    pending.set(id, (m) => {
      clearTimeout(timer);
      resolve(m);
    });
    if (!post(process, { type: REQUEST, id })) {
      clearTimeout(timer);
      resolve({ error: 'the channel to the primary process is closed' });
    }
  }).finally(() => pending.delete(id));
  if (answer.text !== undefined) return answer.text;
  throw new ApiError(503, 'unavailable', {
    $: [`The metrics of all workers could not be collected: ${answer.error}.`],
  });
}
