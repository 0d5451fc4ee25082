// Streams an import document: a top-level object whose keys are collections (arrays of records). A small hand-written
// JSON parser reads the text chunk by chunk and builds one record at a time, so memory holds one chunk and the record
// being assembled, whatever the file size. Numbers keep their source text (Num), so decimals are never rounded through
// binary floating point. Every record and every syntax error has its line and column (1-based; the column counts the
// characters of its line, so a multi-byte UTF-8 character or a surrogate pair is one column; CRLF ends a line like LF).
import { Num, type JsonValue } from '../format/values.ts';
import { LineCounter, type Location } from './lines.ts';

export type { Location };

export interface DocumentHandler {
  /** A top-level key whose value is not an array of records (e.g. Format). */
  scalar(key: string, value: JsonValue, at: Location): void | Promise<void>;
  collectionStart(name: string): void | Promise<void>;
  /** `at`: where the record starts in the file. */
  record(value: JsonValue, position: number, at: Location): void | Promise<void>;
  collectionEnd(name: string, count: number): void | Promise<void>;
  /** Bytes read so far (progress). */
  bytes?(n: number): void;
}

/** A problem of the document as a whole (not of one record's values): the import stops at it. */
export class DocumentError extends Error {
  constructor(
    message: string,
    /** Where in the file; `record`: index of the record being read in its collection, if inside one. */
    public at?: Location & { record?: number },
  ) {
    super(message);
  }
}

/** Thrown by the parser when the text ends inside the value being read: read more input, then parse it again. */
const NEED_MORE = new Error('need more input'); // one instance: throwing it costs no stack trace

class Syntax extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

/** A character in a message: as it is, or escaped when it is a control character. */
const shownChar = (c: string) => (c < ' ' ? JSON.stringify(c) : `'${c}'`);

/** The JSON parser over a text buffer that grows by chunks; `i` is the read position. */
class Parser {
  buf = '';
  i = 0;
  /** Arrays and objects open around the read position (within the record being read). */
  depth = 0;

  /** Enters an array or object at `index`; a record nested deeper than MAX_DEPTH is refused. */
  enter(index: number): void {
    if (++this.depth > MAX_DEPTH)
      throw new Syntax(index, `a record may nest arrays and objects at most ${MAX_DEPTH} levels deep`);
  }

  fail(index: number, expected: string): never {
    if (index >= this.buf.length) throw NEED_MORE;
    throw new Syntax(index, `${expected}, found ${shownChar(String.fromCodePoint(this.buf.codePointAt(index) ?? 0))}`);
  }

  /** Skips whitespace; the code of the next character (throws NEED_MORE at the end of the buffer). */
  next(): number {
    const buf = this.buf;
    let i = this.i;
    let c = buf.charCodeAt(i);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = buf.charCodeAt(++i);
    this.i = i;
    if (i >= buf.length) throw NEED_MORE;
    return c;
  }

  value(): JsonValue {
    const c = this.next();
    if (c === 34) return this.string();
    if (c === 123) return this.object();
    if (c === 91) return this.array();
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    if (c === 116) return this.literal('true', true);
    if (c === 102) return this.literal('false', false);
    if (c === 110) return this.literal('null', null);
    return this.fail(this.i, 'expected a value');
  }

  object(): { [key: string]: JsonValue } {
    const obj: { [key: string]: JsonValue } = {};
    this.enter(this.i);
    this.i++;
    let c = this.next();
    if (c === 125) {
      this.i++;
      this.depth--;
      return obj;
    }
    for (;;) {
      if (c !== 34) this.fail(this.i, 'expected a field name in double quotes');
      const key = this.string();
      if (this.next() !== 58) this.fail(this.i, "expected ':' after the field name");
      this.i++;
      const value = this.value();
      // a field given twice would lose one of its values without a word, as in an API body (docs/limits.md)
      if (Object.hasOwn(obj, key))
        throw new DocumentError(`the field ${JSON.stringify(key)} is given twice in one object; give it once`);
      if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true });
      else obj[key] = value;
      c = this.next();
      this.i++;
      if (c === 125) {
        this.depth--;
        return obj;
      }
      if (c !== 44) this.fail(this.i - 1, "expected ',' or '}' after a value");
      c = this.next();
    }
  }

  array(): JsonValue[] {
    const items: JsonValue[] = [];
    this.enter(this.i);
    this.i++;
    if (this.next() === 93) {
      this.i++;
      this.depth--;
      return items;
    }
    for (;;) {
      items.push(this.value());
      const c = this.next();
      this.i++;
      if (c === 93) {
        this.depth--;
        return items;
      }
      if (c !== 44) this.fail(this.i - 1, "expected ',' or ']' after a value");
    }
  }

  string(): string {
    const buf = this.buf;
    const start = this.i + 1;
    let j = start;
    let c = buf.charCodeAt(j);
    while (c !== 34 && c !== 92 && c >= 32) c = buf.charCodeAt(++j); // NaN at the end: NaN >= 32 is false
    if (c === 34) {
      this.i = j + 1;
      return buf.slice(start, j);
    }
    let out = buf.slice(start, j);
    for (;;) {
      if (j >= buf.length) throw NEED_MORE;
      if (c === 34) {
        this.i = j + 1;
        return out;
      }
      if (c !== 92) this.fail(j, 'expected the end of the string (a control character must be escaped, e.g. \\n)');
      if (j + 1 >= buf.length) throw NEED_MORE;
      const e = buf[j + 1] as string;
      if (e === 'u') {
        if (j + 6 > buf.length) throw NEED_MORE;
        const hex = buf.slice(j + 2, j + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail(j, 'expected four hex digits after \\u');
        out += String.fromCharCode(parseInt(hex, 16));
        j += 6;
      } else {
        const s = ESCAPES[e];
        if (s === undefined) this.fail(j, 'expected an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)');
        out += s;
        j += 2;
      }
      const from = j;
      c = buf.charCodeAt(j);
      while (c !== 34 && c !== 92 && c >= 32) c = buf.charCodeAt(++j);
      out += buf.slice(from, j);
    }
  }

  number(): Num {
    const buf = this.buf;
    const start = this.i;
    let j = start;
    if (buf.charCodeAt(j) === 45) j++;
    const digits = (at: number): number => {
      let k = at;
      let c = buf.charCodeAt(k);
      while (c >= 48 && c <= 57) c = buf.charCodeAt(++k);
      if (k >= buf.length) throw NEED_MORE; // the number may go on in the next chunk
      if (k === at) this.fail(k, 'expected a digit');
      return k;
    };
    if (buf.charCodeAt(j) === 48) {
      j++;
      if (j >= buf.length) throw NEED_MORE;
    } else j = digits(j);
    if (buf.charCodeAt(j) === 46) j = digits(j + 1);
    let c = buf.charCodeAt(j);
    if (c === 101 || c === 69) {
      j++;
      c = buf.charCodeAt(j);
      if (c === 43 || c === 45) j++;
      j = digits(j);
    }
    this.i = j;
    return new Num(buf.slice(start, j));
  }

  literal<T extends JsonValue>(word: string, value: T): T {
    const end = this.i + word.length;
    if (this.buf.startsWith(word, this.i)) {
      this.i = end;
      return value;
    }
    if (end > this.buf.length && word.startsWith(this.buf.slice(this.i))) throw NEED_MORE;
    return this.fail(this.i, 'expected a value');
  }
}

/** Deepest nesting of arrays and objects in one record (the import format needs a few levels; the API allows 32). */
const MAX_DEPTH = 32;

/** The next chunk's text; bytes that are not UTF-8 are a DocumentError naming the first such byte of the file. */
function decode(decoder: TextDecoder, chunk: Buffer, offset: number, stream: boolean): string {
  try {
    return decoder.decode(chunk, { stream });
  } catch {
    const at = offset + firstInvalidUtf8(chunk);
    throw new DocumentError(
      `the file is not UTF-8: byte ${(at + 1).toLocaleString('en')} is not part of a UTF-8 character; save the file as UTF-8`,
    );
  }
}

/** Index of the first byte of `b` that does not begin or continue a well-formed UTF-8 sequence (0 if none is found). */
function firstInvalidUtf8(b: Buffer): number {
  for (let i = 0; i < b.length;) {
    const c = b[i] as number;
    const n = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
    if (n === 0) return i;
    if (i + n > b.length) return i; // cut off at the end of the file
    for (let k = 1; k < n; k++) if (((b[i + k] as number) & 0xc0) !== 0x80) return i;
    if (n === 3) {
      const v = ((c & 0x0f) << 12) | (((b[i + 1] as number) & 0x3f) << 6);
      if (v < 0x800 || (v >= 0xd800 && v <= 0xdfff)) return i;
    }
    if (n === 4) {
      const v = ((c & 0x07) << 18) | (((b[i + 1] as number) & 0x3f) << 12);
      if (v < 0x10000 || v > 0x10ffff) return i;
    }
    i += n;
  }
  return 0;
}

const ESCAPES: Record<string, string | undefined> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

type State =
  'start' | 'key' | 'firstKey' | 'colon' | 'value' | 'afterValue' | 'record' | 'firstRecord' | 'afterRecord' | 'end';

export async function readDocument(input: AsyncIterable<Buffer | string>, handler: DocumentHandler): Promise<void> {
  const p = new Parser();
  const lines = new LineCounter();
  const chunks = input[Symbol.asyncIterator]();
  // Strict: bytes that are not UTF-8 stop the import (decoding them leniently would store U+FFFD in their place)
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let ended = false;
  let bytes = 0;
  let base = 0; // index in the file (in UTF-16 units) of buf[0]
  let state = 'start' as State;
  let key = '';
  let collection: string | null = null;
  let position = 0;
  let want = 0; // the buffer length (from the read position) needed before a value that did not fit is parsed again

  /** Appends the next chunk, dropping the text already read. */
  const more = async (): Promise<void> => {
    const r = await chunks.next();
    let text: string;
    if (r.done) {
      ended = true;
      text = decode(decoder, Buffer.alloc(0), bytes, false);
      if (text === '') return;
    } else {
      const chunk = typeof r.value === 'string' ? Buffer.from(r.value) : r.value;
      text = decode(decoder, chunk, bytes, true);
      bytes += chunk.length;
      handler.bytes?.(bytes);
    }
    if (base === 0 && p.buf === '' && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a UTF-8 byte order mark
    lines.advance(p.buf, base, base + p.i);
    base += p.i;
    p.buf = p.buf.slice(p.i) + text;
    p.i = 0;
  };
  const at = (index: number): Location => {
    lines.advance(p.buf, base, base + index);
    return lines.locate(base + index);
  };

  /** One step of the top-level structure; calls the handler last, so that a step that needs more input is redone. */
  const step = (): void | Promise<void> => {
    p.depth = 0; // a step that needed more input is read again from its start
    if (state === 'end') {
      let c = p.buf.charCodeAt(p.i);
      while (c === 32 || c === 10 || c === 13 || c === 9) c = p.buf.charCodeAt(++p.i);
      if (p.i < p.buf.length) p.fail(p.i, 'expected nothing after the end of the document');
      return;
    }
    const c = p.next();
    switch (state) {
      case 'start':
        if (c !== 123) p.fail(p.i, 'expected the document to be a JSON object with one array per collection');
        p.i++;
        state = 'firstKey';
        return;
      case 'firstKey':
      case 'key':
        if (c === 125 && state === 'firstKey') {
          p.i++;
          state = 'end';
          return;
        }
        if (c !== 34) p.fail(p.i, 'expected a collection name in double quotes');
        key = p.string();
        state = 'colon';
        return;
      case 'colon':
        if (c !== 58) p.fail(p.i, "expected ':' after the collection name");
        p.i++;
        state = 'value';
        return;
      case 'value': {
        const start = p.i;
        if (c === 91) {
          p.i++;
          state = 'firstRecord';
          collection = key;
          position = 0;
          return handler.collectionStart(key);
        }
        const value = p.value();
        state = 'afterValue';
        return handler.scalar(key, value, at(start));
      }
      case 'afterValue':
        p.i++;
        if (c === 44) state = 'key';
        else if (c === 125) state = 'end';
        else p.fail(p.i - 1, "expected ',' or '}' after a collection");
        return;
      case 'firstRecord':
      case 'record': {
        if (c === 93 && state === 'firstRecord') return endCollection();
        const start = p.i;
        const value = p.value();
        state = 'afterRecord';
        return handler.record(value, position++, at(start));
      }
      case 'afterRecord':
        if (c === 93) return endCollection();
        if (c !== 44) p.fail(p.i, "expected ',' or ']' after a record");
        p.i++;
        state = 'record';
        return;
    }
  };
  const endCollection = (): void | Promise<void> => {
    p.i++;
    const name = collection as string;
    collection = null;
    state = 'afterValue';
    return handler.collectionEnd(name, position);
  };

  await more();
  for (;;) {
    if ((state === 'end' && p.i >= p.buf.length) || (p.buf.length - p.i < want && !ended)) {
      if (ended) return;
      await more();
      continue;
    }
    const from = p.i;
    const record = collection !== null ? position : undefined; // the record being read, if in a collection
    let result: void | Promise<void>;
    try {
      result = step();
      want = 0;
    } catch (err) {
      if (err === NEED_MORE) {
        p.i = from;
        if (ended) {
          const end = at(p.buf.length);
          throw new DocumentError(
            `the file ends before the JSON document is complete (line ${end.line}, column ${end.column})`,
            { ...end, record },
          );
        }
        want = (p.buf.length - p.i) * 2;
        await more();
        continue;
      }
      if (err instanceof Syntax) {
        const where = at(err.index);
        throw new DocumentError(
          `the file is not valid JSON at line ${where.line}, column ${where.column}: ${err.message}`,
          { ...where, record },
        );
      }
      if (err instanceof DocumentError && !err.at) {
        err.at = { ...at(from), record };
        err.message += ` (line ${err.at.line}, column ${err.at.column})`;
      }
      throw err;
    }
    if (result) await result;
  }
}
