// The worker thread of parse-thread.ts: runs the parsing stage over the chunks the importer's thread hands it and
// sends back the stage's messages, waiting when MAX_UNANSWERED of them are not yet answered.
import { parentPort } from 'node:worker_threads';
import { DocumentError } from './reader.ts';
import { parseDocument, type StageMessage } from './stage.ts';
import type { FromWorker, ToWorker } from './parse-thread.ts';

/** Messages sent and not yet answered (each holds up to 500 records). */
const MAX_UNANSWERED = 16;
/** Chunks asked for ahead of the reading (the CLI reads 1 MiB chunks). */
const READ_AHEAD = 8;

/** Thrown where the input failed: the reading stops there, as it does on one thread with the input's own error. */
const INPUT_FAILED = new Error('the input failed');

const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs as a worker thread of parse-thread.ts');
const send = (m: FromWorker) => port.postMessage(m);

const chunks: Array<Buffer | string> = [];
let ended = false;
/** The input failed after the chunks in `chunks`: reading past them fails (the importer's thread has the error). */
let failed = false;
let asked = 0;
let unanswered = 0;
let onChunk: (() => void) | undefined;
let onAnswer: (() => void) | undefined;

/** Asks for chunks until READ_AHEAD are asked for or here unread. */
const ask = () => {
  while (!ended && !failed && asked + chunks.length < READ_AHEAD) {
    asked++;
    send({ t: 'more' });
  }
};

port.on('message', (m: ToWorker) => {
  if (m.t === 'ack') {
    unanswered--;
    onAnswer?.();
    return;
  }
  asked--;
  if (m.t === 'eof') ended = true;
  else if (m.t === 'input-failed') failed = true;
  else chunks.push(typeof m.data === 'string' ? m.data : Buffer.from(m.data.buffer, m.data.byteOffset, m.data.length));
  onChunk?.();
});

const input: AsyncIterable<Buffer | string> = {
  [Symbol.asyncIterator]: () => ({
    async next(): Promise<IteratorResult<Buffer | string>> {
      ask();
      while (chunks.length === 0 && !ended && !failed) await new Promise<void>((resolve) => (onChunk = resolve));
      const value = chunks.shift();
      if (value === undefined && failed) throw INPUT_FAILED;
      return value === undefined ? { done: true, value: undefined } : { done: false, value };
    },
  }),
};

async function emit(m: StageMessage): Promise<void> {
  send(m);
  unanswered++;
  while (unanswered >= MAX_UNANSWERED) await new Promise<void>((resolve) => (onAnswer = resolve));
}

try {
  await parseDocument(input, emit);
  send({ t: 'done' });
} catch (err) {
  send(
    err === INPUT_FAILED
      ? { t: 'input-failed' }
      : err instanceof DocumentError
        ? { t: 'error', message: err.message, at: err.at }
        : { t: 'fail', message: (err as Error).message ?? String(err), stack: (err as Error).stack },
  );
}
