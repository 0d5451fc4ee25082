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

/** This thread -> the worker. */
export type ToWorker = { t: 'chunk'; data: Uint8Array | string } | { t: 'eof' } | { t: 'input-failed' } | { t: 'ack' };
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

/** A worker of the parsing stage, started with the module: under tsx its loader, registered on this thread, does not
 * reach a worker's entry module (tsx issue 354), so the worker registers it first and then imports the TypeScript
 * module. */
function startWorker(): Worker {
  if (EXTENSION !== '.ts') return new Worker(WORKER);
  const tsx = import.meta.resolve('tsx/esm/api');
  const load = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER.href)}); })`;
  return new Worker(load, { eval: true });
}

/**
 * The parsing stage of one input in a worker thread. It starts reading and parsing at once, so a caller that starts it
 * early (the CLI, before it loads the importer and opens the database) finds the first records parsed when the import
 * begins (`run`); until then at most MAX_UNANSWERED messages of the worker wait here. It does not keep the process
 * alive until `run` (nor after), so an import that fails before it leaves nothing behind.
 */
export class ParseThread {
  private readonly worker: Worker;
  private readonly chunks: AsyncIterator<Buffer | string>;
  private readonly inbox: FromWorker[] = [];
  private failure: { error: unknown } | undefined;
  private finished = false;
  private wake: (() => void) | undefined;
  private serving = Promise.resolve();
  private inputEnded = false;
  private inputError: { error: unknown } | undefined;

  constructor(input: AsyncIterable<Buffer | string>) {
    this.chunks = input[Symbol.asyncIterator]();
    this.worker = startWorker();
    this.worker.on('message', (m: FromWorker) => {
      if (m.t === 'more') return this.serve();
      this.inbox.push(m);
      this.wake?.();
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => {
      if (!this.finished)
        this.fail(new Error(`import: the parsing thread stopped (exit code ${code}) before the file was read`));
    });
    // after the listeners: adding a 'message' listener refs the worker again
    this.worker.unref();
  }

  private fail(error: unknown): void {
    this.failure ??= { error };
    this.wake?.();
  }

  /** The input, a chunk per request of the worker, in order. A failure of the input goes to the worker in its place,
   * so that what the file held before it is read first (a problem of the document there is the import's answer, as
   * on one thread); the input's own error is thrown once the worker has read up to it. */
  private serve(): void {
    const worker = this.worker;
    this.serving = this.serving.then(async () => {
      if (this.inputEnded)
        return void worker.postMessage({ t: this.inputError ? 'input-failed' : 'eof' } satisfies ToWorker);
      let r: IteratorResult<Buffer | string>;
      try {
        r = await this.chunks.next();
      } catch (error) {
        this.inputEnded = true;
        this.inputError = { error };
        return void worker.postMessage({ t: 'input-failed' } satisfies ToWorker);
      }
      if (r.done) {
        this.inputEnded = true;
        worker.postMessage({ t: 'eof' } satisfies ToWorker);
      } else if (typeof r.value === 'string') worker.postMessage({ t: 'chunk', data: r.value } satisfies ToWorker);
      else {
        const data = new Uint8Array(r.value); // a copy: the stream's buffer may share its memory with others
        worker.postMessage({ t: 'chunk', data } satisfies ToWorker, [data.buffer]);
      }
    });
  }

  /** Hands `emit` the stage's messages in order (each answered once `emit` is done); the thread stops at the end. */
  async run(emit: Emit): Promise<void> {
    this.worker.ref();
    try {
      for (;;) {
        while (this.inbox.length === 0 && !this.failure) await new Promise<void>((resolve) => (this.wake = resolve));
        if (this.failure) throw this.failure.error;
        const m = this.inbox.shift() as FromWorker;
        switch (m.t) {
          case 'done':
            return;
          case 'error':
            throw new DocumentError(m.message, m.at);
          case 'input-failed':
            // the input's own error, as one thread would meet it
            throw (this.inputError?.error as Error | undefined) ?? new Error('import: the input failed');
          case 'fail':
            throw Object.assign(new Error(m.message), { stack: m.stack });
          case 'more':
            break;
          default:
            await emit(m);
            this.worker.postMessage({ t: 'ack' } satisfies ToWorker);
        }
      }
    } finally {
      await this.stop();
    }
  }

  /** Stops the worker (also one never run: an import that failed before it began). */
  async stop(): Promise<void> {
    this.finished = true;
    await this.worker.terminate();
    // not awaited: a stream's iterator ends only after a read under way, which an input that stalls never finishes
    void this.chunks.return?.()?.catch(() => undefined);
  }
}

/** Parses the input in a worker thread while `emit` takes the messages. */
export const parseInThread = (input: AsyncIterable<Buffer | string>, emit: Emit): Promise<void> =>
  new ParseThread(input).run(emit);
