// The parsing stage in a worker thread (import/parse-thread.ts; the CLI uses it for files from 4 MiB on) gives what
// the same stage on the importer's thread gives: the same data and events, the same problems in the same order, the
// same errors of the document with their line and column, the same failure of the input, and nothing stored on error.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { DIALECTS, type TestDatabase } from '../../test/support/db.ts';
import { count, exportText, withDb } from '../../test/support/dataset.ts';
import { loadDemo } from './demo/load.ts';
import { importData, ImportFailed } from './import/importer.ts';
import { formatProblemWithLine } from './import/lookup.ts';
import { ParseThread, parseInThread } from './import/parse-thread.ts';
import { parseDocument } from './import/stage.ts';
import { DocumentError } from './import/reader.ts';

/** The text in chunks of `size` bytes (so multi-byte characters and records are cut). */
const chunked = (text: string, size: number): Readable => {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks, { objectMode: false });
};

/** What an import of `text` came to: its summary, or its problems (with lines), or its error; and what it stored. */
async function outcome(t: TestDatabase, input: Readable, parseInThread: boolean): Promise<unknown> {
  let result: unknown;
  try {
    const summary = await importData(t, input, { parseInThread, now: new Date('2026-11-28T12:00:00Z') });
    result = { summary };
  } catch (err) {
    result =
      err instanceof ImportFailed
        ? { problems: err.problems.map(formatProblemWithLine), total: err.total }
        : { error: (err as Error).message };
  }
  const events = await t.db
    .selectFrom('outbox_events')
    .select(['entity_type', 'entity_id', 'action', 'company_code_id', 'created_at'])
    .orderBy('id')
    .execute();
  return { result, events, stored: await exportText(t) };
}

/** The outcome of importing the text (given whole, and in chunks) into a fresh database with and without the thread. */
async function sameBothWays(dialect: (typeof DIALECTS)[number], text: string): Promise<unknown> {
  const here = await withDb(dialect, (t) => outcome(t, Readable.from([text]), false));
  const there = await withDb(dialect, (t) => outcome(t, Readable.from([text]), true));
  assert.deepEqual(there, here);
  const cut = await withDb(dialect, (t) => outcome(t, chunked(text, 4093), true));
  assert.deepEqual(cut, here);
  return here;
}

for (const dialect of DIALECTS) {
  describe(`import with the parsing thread [${dialect}]`, () => {
    let demo = '';
    it('imports the demo data as on one thread: the same data, summary and events', async () => {
      demo = await withDb(dialect, async (t) => {
        await loadDemo(t, { scale: 1, seed: 5 });
        return exportText(t);
      });
      const here = (await sameBothWays(dialect, demo)) as { stored: string; result: { summary: { records: number } } };
      assert.equal(here.stored, demo);
      assert.ok(here.result.summary.records > 2000, 'more records than a batch and a slice');
    });

    it('lists the same problems in the same order (parse, reference, duplicate and deletion problems)', async () => {
      const data = JSON.parse(demo) as Record<string, Array<Record<string, unknown>>>;
      const persons = data.Persons!;
      const units = data.UseUnits!;
      persons[3]!.Name = 42; // a parse problem
      units[2500 % units.length]!.BuildingId = 987_654; // a reference problem, in a later batch
      units[5]!.Id = units[4]!.Id; // a duplicate Id
      data.Deletions = [{ Collection: 'Persons', Id: 'x' }, { Collection: 'Nothing' }];
      const here = (await sameBothWays(dialect, JSON.stringify(data, null, 1))) as {
        result: { problems: string[] };
        stored: string;
      };
      assert.ok(here.result.problems.length >= 5, here.result.problems.join('\n'));
      assert.ok(
        here.result.problems.every((p) => / \(line \d+\)$/.test(p)),
        'every problem names its line',
      );
      assert.doesNotMatch(here.stored, /"CompanyCodes":\[\{/, 'nothing is stored');
    });

    it('stops at an error of the document with the same message, line and column, after the problems before it', async () => {
      const data = JSON.parse(demo) as Record<string, Array<Record<string, unknown>>>;
      data.CompanyCodes!.push({ Id: 99_999, Code: 'X', Name: 42 }); // a problem that no other record inherits
      const lines = JSON.stringify(data, null, 1).split('\n');
      // a syntax error well into the file: a field line ending in ',' followed by '}'
      const at = lines.findIndex((l, i) => i > lines.length * 0.6 && /^\s*"\w+": [^[{]*,$/.test(l));
      lines[at] = `${lines[at]} }`;
      const broken = (await sameBothWays(dialect, lines.join('\n'))) as { result: { problems: string[] } };
      assert.match(broken.result.problems.join('\n'), /CompanyCodes\[\d+\] \(Id 99999\) Name: must be a string/);
      assert.match(broken.result.problems.join('\n'), new RegExp(`not valid JSON at line ${at + 1}, column`));
      for (const text of [
        '{"Format":"wohnapi-data/1","CompanyCodes":[{"Id":1,"Code":"1","Name":"a"}],"Usenits":[]}',
        '{"UseUnits":[],"CompanyCodes":[]}',
        '{"CompanyCodes":[],"Format":"wohnapi-data/1"}',
        '{"Format":"wohnapi-data/2","Other":5}',
        '{"CompanyCodes":[{"Id":1,',
        '{"CompanyCodes":[{"Id":1,"Code":"1","Name":"a","Name":"b"}]}',
      ])
        await sameBothWays(dialect, text);
    });

    it('fails with the error of the input when the input fails, storing nothing', async () => {
      const failing = () =>
        Readable.from(
          (function* () {
            yield demo.slice(0, Math.floor(demo.length / 2));
            throw new Error('the disk went away');
          })(),
          { objectMode: false },
        );
      for (const parseInThread of [false, true])
        await withDb(dialect, async (t) => {
          await assert.rejects(importData(t, failing(), { parseInThread }), /the disk went away/);
          assert.equal(await count(t, 'company_codes'), 0);
        });
      // an error of the document before the place where the input fails is the answer, as on one thread (the worker's
      // read-ahead had met the failure first and answered with it)
      const brokenThenFailing = () =>
        Readable.from(
          (function* () {
            yield '{"CompanyCodes":[{"Id":1,"Code":"1","Name":"a"},{"Id":2 "Code":"2"}';
            yield ',{"Id":3}]}';
            throw new Error('the disk went away');
          })(),
          { objectMode: false },
        );
      for (const parseInThread of [false, true])
        await withDb(dialect, async (t) => {
          const failed = await importData(t, brokenThenFailing(), { parseInThread }).catch((err: unknown) => err);
          assert.ok(failed instanceof ImportFailed, String(failed));
          assert.match(failed.problems.map(formatProblemWithLine).join('\n'), /not valid JSON at line 1, column 57/);
        });
    });
  });
}

describe('the parsing thread on its own', () => {
  it('started ahead (as the CLI does), it reads and parses before the import takes it, and hands over the same', async () => {
    const text = '{"CompanyCodes":[{"Id":1,"Code":"1","Name":"a"},{"Id":2,"Code":"2","Name":"b"}]}';
    const here: string[] = [];
    await parseDocument(Readable.from([text]), (m) => void here.push(JSON.stringify(m)));
    const pulled = { chunks: 0 };
    const input = (async function* () {
      pulled.chunks++;
      yield text;
    })();
    const thread = new ParseThread(input);
    for (let waited = 0; pulled.chunks === 0 && waited < 10_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(pulled.chunks, 1, 'the input was read before the import took the thread');
    const there: string[] = [];
    await thread.run((m) => void there.push(JSON.stringify(m)));
    assert.deepEqual(there, here);
  });

  it('started ahead and never taken, it does not keep the process alive', () => {
    const module = JSON.stringify(new URL('./import/parse-thread.ts', import.meta.url).href);
    const script = `const { ParseThread } = await import(${module}); new ParseThread((async function* () { yield '{"CompanyCodes":['; })());`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      timeout: 20_000,
      encoding: 'utf8',
    });
    assert.equal(run.error, undefined, 'the process ended by itself');
    assert.equal(run.status, 0, run.stderr);
  });

  /** A document of `n` price index values, each record padded to `size` bytes, cut into chunks of 64 KiB. */
  async function* document(n: number, size: number, pulled: { chunks: number }) {
    let text = '{"PriceIndices":[{"Id":1,"Code":"VPI"}],"PriceIndexValues":[';
    for (let i = 0; i < n; i++) {
      const record = `{"Id":${i + 2},"PriceIndexId":1,"IndexValue":100.5,"ReferenceDate":"2000-01-01"}`;
      text += `${i ? ',' : ''}${record}${' '.repeat(size - record.length - 1)}`;
      while (text.length >= 65_536) {
        pulled.chunks++;
        yield text.slice(0, 65_536);
        text = text.slice(65_536);
      }
    }
    pulled.chunks++;
    yield `${text}]}`;
  }

  it('reads the input only a bounded way ahead of the records handed over, when the receiver is the slower one', async () => {
    const pulled = { chunks: 0 };
    let handed = 0;
    let ahead = 0;
    await parseInThread(document(40_000, 100, pulled), async (m) => {
      if (m.t !== 'items') return;
      handed += (JSON.parse(m.json) as unknown[]).length;
      ahead = Math.max(ahead, pulled.chunks - (handed * 100) / 65_536);
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    // at most 8 chunks read ahead, 16 messages of 500 records (12.2 chunks) not yet answered, the chunk being read
    // and a little slack (measured 18.7; 49 when the worker asked for more without counting what it held)
    assert.ok(ahead <= 24, `${ahead.toFixed(1)} chunks of 61 read ahead`);
    assert.equal(handed, 40_001);
  });

  it('ends at an error of the document while the input is still open (a pipe that has said nothing more)', async () => {
    const input = new PassThrough();
    input.write('{"CompanyCodes":[{"Id":1,"Code":"1" "Name":"a"}');
    const outcome = await Promise.race([
      parseInThread(input, () => undefined).then(
        () => 'settled without an error',
        (err: unknown) => (err instanceof DocumentError ? err.message : String(err)),
      ),
      new Promise((resolve) => setTimeout(() => resolve('not settled after 5 s'), 5000)),
    ]);
    assert.match(String(outcome), /not valid JSON at line 1, column 37/);
    input.destroy();
  });
});
