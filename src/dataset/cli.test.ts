import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from '../../test/support/cli.ts';
import { DIALECTS, createEmptyDatabaseUrl } from '../../test/support/db.ts';
import { at, take } from '../../test/support/lists.ts';

for (const dialect of DIALECTS) {
  describe(`wohnapi demo load, export, import [${dialect}]`, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-data-cli-'));
    const dbs: { url: string; remove: () => Promise<void> }[] = [];
    before(async () => {
      for (let i = 0; i < 2; i++) dbs.push(await createEmptyDatabaseUrl(dialect));
    });
    after(async () => {
      for (const db of dbs) await db.remove();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('demo load -> export -> import into an empty database -> export gives the same file', async () => {
      const [a, b] = take(
        dbs.map((d) => ({ DATABASE_URL: d.url })),
        2,
      );
      const loaded = await cli(['demo', 'load', '--scale', '1', '--seed', '5'], a);
      assert.equal(loaded.code, 0, loaded.stderr);
      assert.match(loaded.stdout, /^demo data loaded: scale 1, seed 5, [\d,]+ rows \([\d,]+ use units\)/);
      const first = path.join(dir, 'first.json');
      const second = path.join(dir, 'second.json');
      assert.equal((await cli(['export', first], a)).code, 0);
      const imported = await cli(['import', first], b);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, /^imported [\d,]+ records from .* records\/s\), \d+ event\(s\)\n$/);
      assert.equal((await cli(['export', second], b)).code, 0);
      assert.ok(fs.readFileSync(first).equals(fs.readFileSync(second)), 'exports differ');
      const again = await cli(['demo', 'load'], a);
      assert.deepEqual(
        [again.code, again.stderr],
        [
          1,
          "wohnapi: error: demo load needs an empty database: it already holds data (table company_codes); set DATABASE_URL to a new database (create it with 'wohnapi migrate')\n",
        ],
      );
    });

    it('a file from 4 MiB on (parsed on a second thread): the same data, and problems with their lines', async () => {
      const [a, b] = [await createEmptyDatabaseUrl(dialect), await createEmptyDatabaseUrl(dialect)];
      try {
        const [envA, envB] = [{ DATABASE_URL: a.url }, { DATABASE_URL: b.url }];
        assert.equal((await cli(['demo', 'load', '--scale', '1', '--seed', '6'], envA)).code, 0);
        const compact = path.join(dir, 'compact.json');
        assert.equal((await cli(['export', compact], envA)).code, 0);
        // the same document (one record per line) with spaces before each line end, past the CLI's threshold for
        // the parsing thread (parsed and written again by JSON, its decimals would lose their digits)
        const big = path.join(dir, 'big.json');
        const lines = fs.readFileSync(compact, 'utf8').split('\n');
        const pad = ' '.repeat(Math.ceil((4.2 * 1024 * 1024) / lines.length));
        fs.writeFileSync(big, lines.join(`${pad}\n`));
        assert.ok(fs.statSync(big).size > 4 * 1024 * 1024);
        const imported = await cli(['import', big], envB);
        assert.equal(imported.code, 0, imported.stderr);
        const again = path.join(dir, 'again.json');
        assert.equal((await cli(['export', again], envB)).code, 0);
        assert.ok(fs.readFileSync(again).equals(fs.readFileSync(compact)), 'exports differ');
        // a problem near the end of the file, with its line
        const late = lines.length - 1 - [...lines].reverse().findIndex((l) => l.includes('"ValidFrom":"'));
        lines[late] = lines[late]!.replace(/"ValidFrom":"[^"]*"/, '"ValidFrom":"2021-02-30"');
        fs.writeFileSync(big, lines.join(`${pad}\n`));
        const refused = await cli(['import', big], envB);
        assert.equal(refused.code, 1);
        assert.match(
          refused.stdout,
          new RegExp(`ValidFrom: '2021-02-30' is not a valid date \\(YYYY-MM-DD\\) \\(line ${late + 1}\\)\\n$`),
        );
      } finally {
        await a.remove();
        await b.remove();
      }
    });

    it('demo load refuses a database with data but no ledger, naming the table, and stores nothing', async () => {
      const db = await createEmptyDatabaseUrl(dialect);
      try {
        const env = { DATABASE_URL: db.url };
        assert.equal((await cli(['migrate'], env)).code, 0);
        const file = path.join(dir, 'catalogue-only.json');
        fs.writeFileSync(file, JSON.stringify({ CatalogCodes: [{ Id: 4, Kind: 'AllocationGroupState' }] }));
        assert.equal((await cli(['import', file], env)).code, 0);
        const refused = await cli(['demo', 'load'], env);
        assert.deepEqual(
          [refused.code, refused.stderr],
          [
            1,
            "wohnapi: error: demo load needs an empty database: it already holds data (table catalog_codes); set DATABASE_URL to a new database (create it with 'wohnapi migrate')\n",
          ],
        );
      } finally {
        await db.remove();
      }
    });

    it('an invalid file: exit 1, every problem on stdout, one line on stderr naming them, nothing stored', async () => {
      const file = path.join(dir, 'bad.json');
      fs.writeFileSync(
        file,
        [
          '{"CompanyCodes":[{"Id":901,"Name":"Neu"}],',
          '"EconomicUnits":[',
          '{"Id":902,"CompanyCodeId":999},',
          '{"Id":903,"CompanyCodeId":"901"}',
          ']}',
        ].join('\n'),
      );
      const res = await cli(['import', file], { DATABASE_URL: at(dbs, 1).url });
      assert.equal(res.code, 1);
      const problems = [
        'EconomicUnits[0] (Id 902) CompanyCodeId: unknown reference: no CompanyCodes with Id 999 (line 3)',
        'EconomicUnits[1] (Id 903) CompanyCodeId: must be an integer, got "901" (line 4)',
      ];
      assert.deepEqual(res.stdout.trimEnd().split('\n'), problems);
      assert.equal(
        res.stderr,
        `wohnapi: error: import failed with 2 problem(s); nothing was stored: ${problems.join('; ')}; fix the file and run the import again\n`,
      );
      // a syntax error: its line and column (characters, not bytes) in a file with CRLF line ends
      fs.writeFileSync(
        file,
        '{"CompanyCodes":[\r\n{"Id":901,"Name":"Müller & Söhne"},\r\n{"Id":902,"Name":"Süd" "x"}\r\n]}',
      );
      const syntax = await cli(['import', file], { DATABASE_URL: at(dbs, 1).url });
      const syntaxProblem = `CompanyCodes[1]: the file is not valid JSON at line 3, column 24: expected ',' or '}' after a value, found '"'`;
      assert.equal(syntax.stdout, `${syntaxProblem}\n`);
      assert.equal(
        syntax.stderr,
        `wohnapi: error: import failed with 1 problem(s); nothing was stored: ${syntaxProblem}; fix the file and run the import again\n`,
      );
      // control characters from the file (a field name, a value with DEL) never reach the terminal raw
      fs.writeFileSync(
        file,
        '{"CompanyCodes":[{"Id":906,"Name":"n\\u007f\\u001b[31mRED"},{"Id":907,"Na\\u001b[2Kme":"n"}]}',
      );
      const hostile = await cli(['import', file], { DATABASE_URL: at(dbs, 1).url });
      assert.equal(hostile.code, 1);
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
      for (const text of [hostile.stdout, hostile.stderr]) assert.doesNotMatch(text, raw);
      assert.match(hostile.stdout, /CompanyCodes\[1\] \(Id 907\) Na\\u001b\[2Kme: /);
      // past the 1,000 problems listed on stdout, stderr says so
      const many = Array.from({ length: 1200 }, (_, i) => `{"Id":${5000 + i},"Bad":1}`).join(',');
      fs.writeFileSync(file, `{"CompanyCodes":[${many}]}`);
      const bulk = await cli(['import', file], { DATABASE_URL: at(dbs, 1).url });
      assert.match(bulk.stderr, /; and 1197 more, listed on stdout \(the first 1,000\); fix the file/);
      const missing = await cli(['import', path.join(dir, 'nope.json')], { DATABASE_URL: at(dbs, 1).url });
      assert.deepEqual([missing.code, missing.stderr.split('\n').length], [1, 2]);
    });
  });
}

describe('data commands without a database', () => {
  it('--help for import, export, demo load; a bad --scale is one line and exit 1', async () => {
    for (const args of [['import'], ['export'], ['demo'], ['demo', 'load']]) {
      const res = await cli([...args, '--help']);
      assert.equal(res.code, 0, args.join(' '));
      assert.match(res.stdout, /^Usage: wohnapi/);
    }
    const bad = await cli(['demo', 'load', '--scale', 'big'], { DATABASE_URL: 'sqlite::memory:' });
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr, "wohnapi: error: --scale must be a positive integer, got 'big'; e.g. --scale 10\n");
  });

  it('an empty path, a path through a file, a folder that takes no files: one line saying what is wrong', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wohnapi-paths-'));
    const plain = path.join(dir, 'plain.txt');
    fs.writeFileSync(plain, 'x');
    const env = { DATABASE_URL: 'sqlite::memory:' };
    const cases: [string[], string][] = [
      [['import', ''], 'the file path is empty; give the path of the JSON file to import'],
      [['export', ''], 'the file path is empty; give the path of the file to write'],
      [
        ['export', path.join(plain, 'x.json')],
        `cannot write ${plain}/x.json: ${plain} is not a folder; choose another path`,
      ],
      [
        ['export', '/proc/wohnapi-x.json'],
        'cannot write /proc/wohnapi-x.json: the folder /proc does not take new files',
      ],
    ];
    try {
      for (const [args, message] of cases) {
        const res = await cli(args, env);
        assert.equal(res.code, 1, args.join(' '));
        assert.ok(res.stderr.startsWith(`wohnapi: error: ${message}`), res.stderr);
        assert.equal(res.stderr.split('\n').length, 2);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
