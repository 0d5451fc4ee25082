// The import reader on its own: records with the line they start on, and syntax errors with line and column
// (characters of the line, not bytes), the same wherever the file is cut into chunks.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { DocumentError, readDocument } from './import/reader.ts';
import { Num, type JsonValue } from './format/values.ts';

/** What the reader reports for `bytes` cut into chunks at the given byte offsets. */
async function read(bytes: Buffer, cuts: number[] = []): Promise<string[]> {
  const chunks: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    chunks.push(bytes.subarray(from, cut));
    from = cut;
  }
  const seen: string[] = [];
  const plain = (v: JsonValue): unknown =>
    v instanceof Num
      ? `#${v.text}`
      : Array.isArray(v)
        ? v.map(plain)
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
          : v;
  try {
    await readDocument(Readable.from(chunks, { objectMode: false }), {
      scalar: (key, value, at) => void seen.push(`${key}=${JSON.stringify(plain(value))} @${at.line}:${at.column}`),
      collectionStart: (name) => void seen.push(`start ${name}`),
      record: (value, position, at) =>
        void seen.push(`${position} ${JSON.stringify(plain(value))} @${at.line}:${at.column}`),
      collectionEnd: (name, count) => void seen.push(`end ${name} ${count}`),
    });
  } catch (err) {
    if (!(err instanceof DocumentError)) throw err;
    seen.push(`error ${err.message} [record ${err.at?.record ?? '-'}]`);
  }
  return seen;
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** Every way of cutting the file into two chunks gives the same result as reading it whole. */
async function sameAtEveryCut(bytes: Buffer): Promise<string[]> {
  const whole = await read(bytes);
  for (let cut = 1; cut < bytes.length; cut++) assert.deepEqual(await read(bytes, [cut]), whole, `cut at byte ${cut}`);
  return whole;
}

describe('import reader: positions', () => {
  it('a field given twice in one object (also spelled with escapes) is an error of its record', async () => {
    const text = '{"A":[{"Id":1},\n{"Id":2,"Code":"a","\\u0043ode":"b"},{"Id":3}]}';
    assert.deepEqual(await sameAtEveryCut(utf8(text)), [
      'start A',
      '0 {"Id":"#1"} @1:7',
      'error the field "Code" is given twice in one object; give it once (line 1, column 16) [record 1]',
    ]);
    // the same name in two objects is no duplicate
    assert.deepEqual(await read(utf8('{"A":[{"Id":1,"L":[{"K":1},{"K":2}]}]}')), [
      'start A',
      '0 {"Id":"#1","L":[{"K":"#1"},{"K":"#2"}]} @1:7',
      'end A 1',
    ]);
  });

  it('reads records with the line and column they start at; numbers keep their text; escapes decoded', async () => {
    const text =
      '{"Format":"x",\n"A":[\n{"Id":1,"V":1.50e3,"S":"a\\"b\\u00e4\\n","L":[true,false,null,-0.5]},\n  {"Id":2}],"B":[]}\n';
    assert.deepEqual(await sameAtEveryCut(utf8(text)), [
      'Format="x" @1:11',
      'start A',
      '0 {"Id":"#1","V":"#1.50e3","S":"a\\"bä\\n","L":[true,false,null,"#-0.5"]} @3:1',
      '1 {"Id":"#2"} @4:3',
      'end A 2',
      'start B',
      'end B 0',
    ]);
  });

  it('a syntax error right after a chunk boundary: its line and column, wherever the chunks end', async () => {
    const text = '{"A":[\n{"Id":1},\n{"Id":2 "Name":"x"}\n]}';
    const bytes = utf8(text);
    const expected = [
      'start A',
      '0 {"Id":"#1"} @2:1',
      `error the file is not valid JSON at line 3, column 9: expected ',' or '}' after a value, found '"' [record 1]`,
    ];
    const bad = text.indexOf('"Name"');
    assert.deepEqual(await read(bytes, [bad]), expected); // the chunk boundary just before the bad character
    assert.deepEqual(await read(bytes, [bad + 1]), expected); // and just after it
    assert.deepEqual(await sameAtEveryCut(bytes), expected);
  });

  it('columns count characters: after multi-byte UTF-8 characters (2, 3 and 4 bytes) cut anywhere', async () => {
    const text = '{"A":[{"Id":1,"N":"Müller € 😀"},{"Id":2,"N":"äöü😀€" x}]}';
    const column = [...text.slice(0, text.indexOf(' x}') + 1)].length + 1; // characters before 'x', plus one
    assert.equal(column, 53);
    assert.deepEqual(await sameAtEveryCut(utf8(text)), [
      'start A',
      '0 {"Id":"#1","N":"Müller € 😀"} @1:7',
      `error the file is not valid JSON at line 1, column ${column}: expected ',' or '}' after a value, found 'x' [record 1]`,
    ]);
  });

  it('CRLF line ends: lines counted once per CRLF, the CR not part of the next line', async () => {
    const text = '{"A":[\r\n{"Id":1,"N":"Straße"},\r\n{"Id":2,\r\n"N":"Süd",}\r\n]}\r\n';
    assert.deepEqual(await sameAtEveryCut(utf8(text)), [
      'start A',
      '0 {"Id":"#1","N":"Straße"} @2:1',
      `error the file is not valid JSON at line 4, column 11: expected a field name in double quotes, found '}' [record 1]`,
    ]);
  });

  it('a file cut off, a second document, a document that is not an object, a control character in a string', async () => {
    const last = (seen: string[]) => seen[seen.length - 1];
    assert.equal(
      last(await sameAtEveryCut(utf8('{"A":[{"Id":1},\r\n{"Id":'))),
      'error the file ends before the JSON document is complete (line 2, column 7) [record 1]',
    );
    assert.equal(
      last(await sameAtEveryCut(utf8('{"A":[]}\n{}'))),
      "error the file is not valid JSON at line 2, column 1: expected nothing after the end of the document, found '{' [record -]",
    );
    assert.equal(
      last(await read(utf8('[{"Id":1}]'))),
      "error the file is not valid JSON at line 1, column 1: expected the document to be a JSON object with one array per collection, found '[' [record -]",
    );
    assert.equal(
      last(await read(utf8('{"A":[{"N":"a\tb"}]}'))),
      'error the file is not valid JSON at line 1, column 14: expected the end of the string (a control character must be escaped, e.g. \\n), found "\\t" [record 0]',
    );
  });

  it('bytes that are not UTF-8 stop the import, naming the first one (not stored as U+FFFD)', async () => {
    const last = (seen: string[]) => seen[seen.length - 1];
    const latin1 = Buffer.concat([utf8('{"A":[{"N":"S'), Buffer.from([0xfc]), utf8('d"}]}')]);
    for (const cuts of [[], [5], [13], [14]])
      assert.equal(
        last(await read(latin1, cuts)),
        'error the file is not UTF-8: byte 14 is not part of a UTF-8 character; save the file as UTF-8 [record -]',
        `cut at ${cuts.join()}`,
      );
    // a character cut off by the end of the file
    assert.match(last(await read(Buffer.concat([utf8('{"A":[]}'), Buffer.from([0xe2, 0x82])])))!, /is not UTF-8/);
    // a 4-byte character split across chunks is fine
    assert.deepEqual(await read(utf8('{"A":[{"N":"😀"}]}'), [12, 13, 14]), ['start A', '0 {"N":"😀"} @1:7', 'end A 1']);
  });

  it('a record nested deeper than 32 levels is refused with its place, not a stack overflow', async () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const ok = await read(utf8(`{"A":[{"N":${deep(31)}}]}`));
    assert.equal(ok[ok.length - 1], 'end A 1');
    for (const n of [32, 50_000]) {
      const seen = await read(utf8(`{"A":[{"N":${deep(n)}}]}`));
      assert.equal(
        seen[seen.length - 1],
        'error the file is not valid JSON at line 1, column 43: a record may nest arrays and objects at most 32 levels deep [record 0]',
        String(n),
      );
    }
  });

  it('a byte order mark is skipped; a record longer than many chunks is read whole', async () => {
    const long = 'x'.repeat(100_000);
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(`{"A":[{"Id":1,"N":"${long}"},\n{"Id":2}]}`)]);
    const cuts = Array.from({ length: 60 }, (_, i) => 1 + i * 1700);
    const seen = await read(bytes, cuts);
    assert.deepEqual(
      seen.map((s) => s.replace(long, 'LONG')),
      ['start A', '0 {"Id":"#1","N":"LONG"} @1:7', '1 {"Id":"#2"} @2:1', 'end A 2'],
    );
  });
});
