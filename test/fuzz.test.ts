// Property-based fuzzing of every route of the served OpenAPI document (so routes added later are covered without
// touching this file), on both engines: generated path and query parameters (types, ranges, unicode with NUL and
// lone surrogates, loose numbers, mixed-case and repeated names) and bodies (any JSON, deep nesting, huge arrays,
// unknown properties), plus raw-socket framing. Never a 5xx; every 4xx in the documented shape; /health/live
// answers while the worst-case body is processed.
// Seeded and short by default; FUZZ_RUNS (runs per route) and FUZZ_SEED make it longer or different.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { DIALECTS } from './support/db.ts';
import { bearer, testApp, type TestApp } from './support/app.ts';
import { rawExchange } from './support/raw-http.ts';
import { buildWorld } from '../src/dataset/factories.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

interface Parameter {
  in: 'path' | 'query';
  name: string;
  schema?: { type?: string };
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  bodyProperties: string[];
  hasBody: boolean;
}

function operationsOf(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const content = (op.requestBody as { content?: Record<string, { schema?: { properties?: object } }> })?.content;
      const schema = content ? Object.values(content)[0]?.schema : undefined;
      out.push({
        method: method.toUpperCase(),
        path,
        parameters: (op.parameters as Parameter[] | undefined) ?? [],
        bodyProperties: Object.keys(schema?.properties ?? {}),
        hasBody: content !== undefined || method === 'post' || method === 'put',
      });
    }
  }
  return out;
}

const WEIRD_TEXT = [
  '',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udc00x',
  '\u0001',
  '\u007f',
  '%',
  '_',
  '\\',
  'ü"\\\n',
  '\u202e',
];
const LOOSE_NUMBERS = ['0x10', '1e1', '0b1', '+5', ' 1', '1 ', '-0', '1.5', '99999999999', '-2147483649', 'NaN'];

const text = fc.oneof(fc.constantFrom(...WEIRD_TEXT), fc.string({ unit: 'binary', maxLength: 20 }), fc.string());
const number = fc.oneof(
  fc.integer({ min: -3, max: 3 }).map(String),
  fc.integer().map(String),
  fc.constantFrom(...LOOSE_NUMBERS),
);
const valueFor = (type: string | undefined) =>
  type === 'integer' || type === 'number'
    ? fc.oneof(number, text)
    : type === 'boolean'
      ? fc.oneof(fc.constantFrom('true', 'False', 'TRUE', 'yes', '1'), text)
      : fc.oneof(text, number);
const spelling = (name: string) =>
  fc.constantFrom(name, name.toUpperCase(), name.toLowerCase(), name[0]!.toUpperCase() + name.slice(1));

// Deep and huge bodies are described by their size (so a failure report stays short) and built when sent.
type Body = string | { deep: number } | { huge: number };
const deep = fc.integer({ min: 1, max: 6000 }).map((n): Body => ({ deep: n }));
const huge = fc.integer({ min: 0, max: 80_000 }).map((n): Body => ({ huge: n }));
const build = (b: Body | undefined): string | undefined =>
  b === undefined || typeof b === 'string'
    ? b
    : 'deep' in b
      ? `${'['.repeat(b.deep)}${']'.repeat(b.deep)}`
      : JSON.stringify(Array.from({ length: b.huge }, (_, i) => i));
const bodyFor = (op: Operation): fc.Arbitrary<Body> =>
  fc.oneof<fc.Arbitrary<Body>[]>(
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    op.bodyProperties.length
      ? fc
          .dictionary(fc.oneof(fc.constantFrom(...op.bodyProperties), fc.string()), fc.jsonValue({ maxDepth: 3 }))
          .map((v) => JSON.stringify(v))
      : fc.constant('{}'),
    deep,
    huge,
    fc.string({ unit: 'binary' }),
  );

function request(op: Operation) {
  const path = op.parameters.filter((p) => p.in === 'path');
  const query = op.parameters.filter((p) => p.in === 'query');
  return fc.record({
    path: fc.tuple(
      ...path.map((p) => fc.oneof(valueFor(p.schema?.type), fc.string({ minLength: 90, maxLength: 300 }))),
    ),
    query: fc.array(
      fc.oneof(
        ...(query.length ? query.map((p) => fc.tuple(spelling(p.name), valueFor(p.schema?.type))) : []),
        fc.tuple(fc.string({ maxLength: 10 }), text),
      ),
      { maxLength: 6 },
    ),
    body: op.hasBody ? fc.option(bodyFor(op), { nil: undefined }) : fc.constant(undefined),
    contentType: fc.constantFrom(
      'application/json',
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
    ),
  });
}

/** Percent-encoding that also takes lone surrogates: as the bytes a careless encoder (CESU-8) would send. */
function enc(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    out +=
      ch.length === 1 && code >= 0xd800 && code <= 0xdfff
        ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('')
        : encodeURIComponent(ch);
  }
  return out;
}

/** RFC 6749 5.2: error_description = 1*( %x20-21 / %x23-5B / %x5D-7E ). */
const DESCRIPTION = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function assertDocumentedShape(where: string, status: number, body: string, token: boolean): void {
  assert.ok(status < 500, `${where}: ${status} ${body.slice(0, 300)}`);
  if (status < 400) return;
  if (status === 401) return assert.equal(body, '', `${where}: 401 without a body`);
  const parsed = JSON.parse(body) as Record<string, unknown>;
  if (token) {
    assert.equal(typeof parsed.error, 'string', where);
    assert.match(typeof parsed.error_description === 'string' ? parsed.error_description : '', DESCRIPTION, where);
    return;
  }
  assert.ok(parsed && typeof parsed === 'object' && !Array.isArray(parsed), `${where}: an error map`);
  for (const list of Object.values(parsed))
    assert.ok(Array.isArray(list) && list.every((m) => typeof m === 'string'), `${where}: ${body.slice(0, 300)}`);
}

for (const dialect of DIALECTS) {
  describe(`fuzz [${dialect}]`, () => {
    let t: TestApp;
    let token: string;
    let key: string;
    let operations: Operation[];
    before(async () => {
      t = await testApp(dialect, {
        HEADERS_TIMEOUT_MS: '1000',
        REQUEST_TIMEOUT_MS: '2000',
        KEEP_ALIVE_TIMEOUT_MS: '200',
      });
      await buildWorld(t.database.db, { ledgers: 2 });
      token = await t.login();
      key = await t.apiKey('all');
      operations = operationsOf((await t.app.inject({ url: '/service/openapi.json' })).json());
    });
    after(() => t.close());

    it(`walks every route of the OpenAPI document (${RUNS} run(s) per route, seed ${SEED})`, async () => {
      assert.ok(operations.length > 5, 'the document lists the routes');
      for (const [index, op] of operations.entries()) {
        const isToken = op.path.endsWith('/oauth2/token');
        await fc.assert(
          fc.asyncProperty(request(op), fc.boolean(), async (r, withKey) => {
            let i = 0;
            const url = op.path.replace(/\{[^}]+\}/g, () => enc(String(r.path[i++] ?? '')));
            const params = r.query.map(([n, v]) => `${enc(n)}=${enc(v)}`);
            if (withKey) params.push(`apiKey=${key}`);
            const headers: Record<string, string> = bearer(token);
            if (r.body !== undefined)
              headers['content-type'] = isToken ? 'application/x-www-form-urlencoded' : r.contentType;
            const res = await t.app.inject({
              method: op.method as 'GET',
              url: `${url}${params.length ? `?${params.join('&')}` : ''}`,
              headers,
              payload: build(r.body),
            });
            assertDocumentedShape(`${op.method} ${url}`, res.statusCode, res.body, isToken);
          }),
          { numRuns: RUNS, seed: SEED + index, endOnFailure: true },
        );
      }
    });

    it(
      'raw-socket framing: no 5xx, every answer with a body is an error map or a success',
      { timeout: 120_000 },
      async () => {
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        const port = (t.app.server.address() as AddressInfo).port;
        const line = fc.constantFrom(
          'Transfer-Encoding: chunked',
          'Content-Length: 0',
          'Content-Length: 2',
          'Content-Length: -1',
          'Content-Length: abc',
          'Content-Type: application/json',
          'Host: other',
          'X-Evil: a\u0000b',
          `X-Long: ${'a'.repeat(20_000)}`,
          'Expect: 100-continue',
          'Bad Header',
        );
        const framing = fc.record({
          method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'BREW', 'G ET'),
          path: fc.oneof(
            fc.constantFrom(...operations.map((o) => o.path.replace(/\{[^}]+\}/g, '1'))),
            fc.string({ unit: 'binary', maxLength: 30 }).map((s) => `/${s}`),
          ),
          version: fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/9.9', ''),
          lines: fc.array(line, { maxLength: 3 }),
          body: fc.constantFrom('', '{}', 'zz\r\n', '0\r\n\r\n', '5\r\nhello\r\n0\r\n\r\n', '{"a":'),
        });
        await fc.assert(
          fc.asyncProperty(framing, async (f) => {
            const request = `${f.method} ${f.path} ${f.version}\r\nHost: x\r\nConnection: close\r\n${f.lines.map((l) => `${l}\r\n`).join('')}\r\n${f.body}`;
            const answer = await rawExchange(port, [Buffer.from(request, 'utf8')]);
            if (Number.isNaN(answer.status)) return; // closed without an answer (e.g. a reset)
            const chunked = answer.headers['transfer-encoding'] === 'chunked';
            if (f.method === 'GET' && answer.status < 400) return;
            if (answer.body === '' || chunked) return assert.ok(answer.status < 500, answer.text);
            assertDocumentedShape(
              `${f.method} ${f.path}`,
              answer.status,
              answer.body,
              f.method === 'POST' && f.path.includes('oauth2'),
            );
          }),
          { numRuns: RUNS * 10, seed: SEED },
        );
      },
    );

    it('/health/live answers while the worst-case bodies are processed', { timeout: 60_000 }, async () => {
      const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const limit = t.app.config.bodyLimit;
      const unknown =
        `{${Array.from({ length: Math.floor(limit / 20) }, (_, i) => `"Unknown${i}":1`).join(',')}}`.slice(
          0,
          limit - 2,
        );
      const bodies = [
        `${unknown.slice(0, unknown.lastIndexOf(','))}}`,
        JSON.stringify(Array.from({ length: Math.floor(limit / 8) }, (_, i) => 1_000_000 + i)),
        `${'['.repeat(limit / 2)}${']'.repeat(limit / 2)}`,
      ];
      for (const body of bodies) {
        const write = fetch(`${base}/service/v1.2/AccountancyProjectEdit/Project?apiKey=${key}`, {
          method: 'POST',
          headers: { ...bearer(token), 'content-type': 'application/json' },
          body,
        });
        const live = await fetch(`${base}/health/live`, { signal: AbortSignal.timeout(1000) });
        assert.equal(live.status, 200);
        const res = await write;
        assertDocumentedShape('worst-case body', res.status, await res.text(), false);
      }
    });
  });
}
