// /metrics of a group of worker processes answers for the whole group: the worker that gets the scrape asks the
// primary, which collects every worker's registries (prom-client's AggregatorRegistry over node:cluster IPC) and
// sums them (counters, histograms and the pool gauges; the process metrics as prom-client aggregates them). Without
// it each scrape reached one worker, and a counter seemed to go back whenever the next scrape reached another
// (docs/deployment.md, "Metrics"). A process that is not a cluster worker answers with its own registries.
import cluster from 'node:cluster';
import { AggregatorRegistry, Registry } from 'prom-client';

const REQUEST = 'wohnapi:metrics-req';
const RESPONSE = 'wohnapi:metrics-res';
/** How long a worker waits for the primary's answer before it answers with its own metrics. */
const WAIT_MS = 6_000;

interface Request {
  type: typeof REQUEST;
  id: number;
}
interface Response {
  type: typeof RESPONSE;
  id: number;
  text?: string;
  error?: string;
}

/** In the primary: answers the workers' metrics requests with the sum over every worker. */
export function relayClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Partial<Request> | undefined) => {
    if (message?.type !== REQUEST || typeof message.id !== 'number') return;
    const id = message.id;
    const answer = (r: Omit<Response, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: RESPONSE, id, ...r } satisfies Response);
    };
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (err: unknown) => answer({ error: err instanceof Error ? err.message : String(err) }),
    );
  });
}

let counter = 0;
const pending = new Map<number, (r: Response) => void>();
let grouped = false;

/**
 * In a cluster worker, when its app is made: these registries are what the primary collects from this worker, and
 * the primary's answers reach `groupMetrics`. Elsewhere (tests, one process) nothing happens.
 */
export function joinClusterMetrics(registries: Registry[]): void {
  if (!cluster.isWorker || !process.send) return;
  AggregatorRegistry.setRegistries(registries);
  if (grouped) return;
  grouped = true;
  new AggregatorRegistry(); // adds prom-client's listener that answers the primary's collection requests
  process.on('message', (m: Partial<Response> | undefined) => {
    if (m?.type === RESPONSE && typeof m.id === 'number') pending.get(m.id)?.(m as Response);
  });
}

/**
 * The text of /metrics: the whole group's when this process is a cluster worker, else these registries' own (also
 * when the primary does not answer in time: a worker still starting holds up the collection).
 */
export async function groupMetrics(registries: Registry[]): Promise<string> {
  const own = () => Registry.merge(registries).metrics();
  if (!grouped) return own();
  const id = ++counter;
  const answer = await new Promise<Response | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), WAIT_MS);
    pending.set(id, (r) => {
      clearTimeout(timer);
      resolve(r);
    });
    process.send!({ type: REQUEST, id } satisfies Request);
  }).finally(() => pending.delete(id));
  return answer?.text ?? own();
}
