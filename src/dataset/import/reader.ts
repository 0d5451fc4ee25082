// Streams an import document: a top-level object whose keys are collections (arrays of records), read with
// stream-json's tokenizer in chunks, so memory holds one chunk and the record being assembled, whatever the file size.
// Numbers keep their source text (Num), so decimals are never rounded through binary floating point.
import type { Readable } from 'node:stream';
import { jsonParser } from 'stream-json/core/parser.js';
import { none } from 'stream-chain/defs.js';
import { Num, type JsonValue } from '../format/values.ts';

export interface DocumentHandler {
  /** A top-level key whose value is not an array of records (e.g. Format). */
  scalar(key: string, value: JsonValue): void;
  collectionStart(name: string): void | Promise<void>;
  record(value: JsonValue, position: number): void | Promise<void>;
  collectionEnd(name: string, count: number): void | Promise<void>;
  /** Bytes read so far (progress). */
  bytes?(n: number): void;
}

export class DocumentError extends Error {}

interface Token {
  name: string;
  value?: unknown;
}

type Container = JsonValue[] | { [key: string]: JsonValue };

export async function readDocument(input: Readable, handler: DocumentHandler): Promise<void> {
  const tokenize = jsonParser({ streamValues: false }) as unknown as (chunk: string | typeof none) => unknown;
  let depth = 0; // 0 outside, 1 in the top object, 2 in a collection array, >2 inside a record
  let topKey: string | null = null;
  let collection: string | null = null;
  let position = 0;
  const stack: Container[] = [];
  const keys: (string | null)[] = [];
  let scalarKey: string | null = null;
  let bytes = 0;

  /** Puts a finished value into its container, or hands a finished record / top-level scalar over. */
  const place = (value: JsonValue): void | Promise<void> => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      if (collection !== null) return handler.record(value, position++);
      if (scalarKey !== null) {
        handler.scalar(scalarKey, value);
        scalarKey = null;
      }
      return;
    }
    if (Array.isArray(top)) top.push(value);
    else top[keys[keys.length - 1] as string] = value;
  };

  const handle = (t: Token): void | Promise<void> => {
    if (depth === 0) {
      if (t.name !== 'startObject')
        throw new DocumentError('the document must be a JSON object with one array per collection');
      depth = 1;
      return;
    }
    if (depth === 1 && stack.length === 0 && scalarKey === null) {
      if (t.name === 'keyValue') {
        topKey = t.value as string;
        return;
      }
      if (t.name === 'endObject') {
        depth = 0;
        return;
      }
      if (t.name === 'startArray') {
        collection = topKey;
        position = 0;
        depth = 2;
        return handler.collectionStart(collection as string);
      }
      scalarKey = topKey; // a scalar or object value at the top: assembled below
    }
    if (depth === 2 && stack.length === 0 && t.name === 'endArray') {
      const name = collection as string;
      collection = null;
      depth = 1;
      return handler.collectionEnd(name, position);
    }
    switch (t.name) {
      case 'startObject':
        stack.push({});
        keys.push(null);
        return;
      case 'startArray':
        stack.push([]);
        keys.push(null);
        return;
      case 'keyValue':
        keys[keys.length - 1] = t.value as string;
        return;
      case 'endObject':
      case 'endArray': {
        keys.pop();
        return place(stack.pop() as JsonValue);
      }
      case 'stringValue':
        return place(t.value as string);
      case 'numberValue':
        return place(new Num(t.value as string));
      case 'nullValue':
        return place(null);
      case 'trueValue':
        return place(true);
      case 'falseValue':
        return place(false);
    }
  };

  const feed = async (chunk: string | typeof none): Promise<void> => {
    let result: unknown;
    try {
      result = tokenize(chunk);
    } catch (err) {
      throw new DocumentError(
        `the file is not valid JSON (near byte ${bytes.toLocaleString('en')}): ${(err as Error).message}`,
      );
    }
    if (result === none || result === undefined) return;
    const tokens = (result as { values: Token[] }).values;
    for (const token of tokens) {
      const p = handle(token);
      // records are mostly handled synchronously; await only when a batch is being written
      if (p) await p;
    }
  };

  input.setEncoding('utf8');
  for await (const chunk of input) {
    bytes += Buffer.byteLength(chunk as string);
    handler.bytes?.(bytes);
    await feed(chunk as string);
  }
  await feed(none);
  if (depth !== 0) throw new DocumentError('the file ends before the JSON document is complete');
}
