// The parsing stage (stage.ts) in a worker thread (parse-worker.ts), so that reading and parsing a large file overlap
// with the importer's checks and writes on two cores. This thread reads the input and hands the worker its chunks as
// it asks for them (a few ahead); the worker sends the stage's messages, at most a few unanswered: each is answered
// once `emit` is done with it, so neither the input nor the parsed records pile up in memory. A problem of the document
// comes back as the same DocumentError the stage throws on this thread.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DocumentError, type Location } from './reader.ts';
import type { Emit, StageMessage } from './stage.ts';

/** This thread -> the worker ('start': the reading may begin, every listener is in place). */
export type ToWorker =
  { t: 'start' } | { t: 'chunk'; data: Uint8Array | string } | { t: 'eof' } | { t: 'input-failed' } | { t: 'ack' };
/** The worker -> this thread. */
export type FromWorker =
  | StageMessage
  | { t: 'more' }
  | { t: 'done' }
  | { t: 'error'; message: string; at?: Location & { record?: number } }
  /** The reading came to where the input failed (the error stays on this thread). */
  | { t: 'input-failed' }
  | { t: 'fail'; message: string; stack?: string };

/** The worker's module, beside this one: JavaScript in dist/, or TypeScript in development and tests (under tsx). */
const EXTENSION = path.extname(fileURLToPath(import.meta.url));
const WORKER = new URL(`./parse-worker${EXTENSION}`, import.meta.url);

/**
 * Starts a worker thread of the parsing stage. It loads its modules and waits for parseInThread, so a caller that
 * starts it early (the CLI, before it opens the database) has it ready when the reading begins. It does not keep the
 * process alive until parseInThread takes it (nor after), so an import that fails before it leaves nothing behind.
 *
 * Under tsx its loader, registered on this thread, does not reach a worker's entry module (tsx issue 354), so the
 * worker registers it first and then imports the TypeScript module.
 */
export function startParseWorker(): Worker {
  let worker: Worker;
  if (EXTENSION !== '.ts') worker = new Worker(WORKER);
  else {
    const tsx = import.meta.resolve('tsx/esm/api');
    const load = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER.href)}); })`;
    worker = new Worker(load, { eval: true });
  }
  worker.unref();
  return worker;
}

/** Parses the input in a worker thread: `worker` started ahead by startParseWorker, or a new one; it is stopped at the
 * end. */
export async function parseInThread(
  input: AsyncIterable<Buffer | string>,
  emit: Emit,
  worker: Worker = startParseWorker(),
): Promise<void> {
  const chunks = input[Symbol.asyncIterator]();
  worker.ref();
  const inbox: FromWorker[] = [];
  let failure: { error: unknown } | undefined;
  let finished = false;
  let wake: (() => void) | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
    wake?.();
  };

  // the input, a chunk per request of the worker, in order. A failure of the input goes to the worker in its place, so
  // that what the file held before it is read first (a problem of the document there is the import's answer, as on
  // one thread); the input's own error is thrown once the worker has read up to it.
  let serving = Promise.resolve();
  let inputEnded = false;
  let inputError: { error: unknown } | undefined;
  const serve = () => {
    serving = serving.then(async () => {
      if (inputEnded) return void worker.postMessage({ t: inputError ? 'input-failed' : 'eof' } satisfies ToWorker);
      let r: IteratorResult<Buffer | string>;
      try {
        r = await chunks.next();
      } catch (error) {
        inputEnded = true;
        inputError = { error };
        return void worker.postMessage({ t: 'input-failed' } satisfies ToWorker);
      }
      if (r.done) {
        inputEnded = true;
        worker.postMessage({ t: 'eof' } satisfies ToWorker);
      } else if (typeof r.value === 'string') worker.postMessage({ t: 'chunk', data: r.value } satisfies ToWorker);
      else {
        const data = new Uint8Array(r.value); // a copy: the stream's buffer may share its memory with others
        worker.postMessage({ t: 'chunk', data } satisfies ToWorker, [data.buffer]);
      }
    });
  };

  worker.on('message', (m: FromWorker) => {
    if (m.t === 'more') return serve();
    inbox.push(m);
    wake?.();
  });
  worker.on('error', fail);
  worker.on('exit', (code) => {
    if (!finished) fail(new Error(`import: the parsing thread stopped (exit code ${code}) before the file was read`));
  });
  worker.postMessage({ t: 'start' } satisfies ToWorker);

  try {
    for (;;) {
      while (inbox.length === 0 && !failure) await new Promise<void>((resolve) => (wake = resolve));
      if (failure) throw failure.error;
      const m = inbox.shift() as FromWorker;
      switch (m.t) {
        case 'done':
          return;
        case 'error':
          throw new DocumentError(m.message, m.at);
        case 'input-failed':
          // the input's own error, as one thread would meet it
          throw (inputError?.error as Error | undefined) ?? new Error('import: the input failed');
        case 'fail':
          throw Object.assign(new Error(m.message), { stack: m.stack });
        case 'more':
          break;
        default:
          await emit(m);
          worker.postMessage({ t: 'ack' } satisfies ToWorker);
      }
    }
  } finally {
    finished = true;
    await worker.terminate();
    // not awaited: a stream's iterator ends only after a read under way, which an input that stalls never finishes
    void chunks.return?.()?.catch(() => undefined);
  }
}
