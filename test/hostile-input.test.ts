// Hostile and careless input through the real routes (issue 11, items 1, 2, 3, 7 and 8): every answer is the
// documented status with a bounded error map, identically on both engines.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from './support/db.ts';
import { bearer } from './support/app.ts';
import { projectsFixture, type ProjectsFixture } from './fixtures/projects.ts';
import { MAX_BODY_DEPTH, MAX_PROBLEMS } from '../src/http/input-rules.ts';

const BASES = '/service/v1.2/RunningCostDistributionRead/AllocationGroupBases';

/** Number of messages of an error map (and that it is one: an object of string arrays). */
function messages(body: unknown): number {
  assert.ok(body && typeof body === 'object' && !Array.isArray(body), 'an error map');
  let n = 0;
  for (const list of Object.values(body as Record<string, unknown>)) {
    assert.ok(Array.isArray(list) && list.every((m) => typeof m === 'string'), 'messages are strings');
    n += list.length;
  }
  return n;
}

for (const dialect of DIALECTS) {
  describe(`hostile input [${dialect}]`, () => {
    let f: ProjectsFixture;
    let reader: string;
    before(async () => {
      f = await projectsFixture(dialect);
      reader = await f.t.login();
    });
    after(() => f.close());
    const read = (query: string) => f.t.app.inject({ url: `${BASES}?${query}`, headers: bearer(reader) });
    const project = (extra: string) =>
      `{"CompanyCodeId":${f.A.companyCodeId},"ProjectLifeTimeFrom":"2025-01-01","Name":"N"${extra}}`;

    it('item 1: a body nested thousands of levels deep is a 400 naming the limit, on every project write', async () => {
      const deep = `${'['.repeat(4200)}${']'.repeat(4200)}`;
      const id = await f.createId();
      for (const [method, path, payload] of [
        ['POST', '', project(`,"Description":${deep}`)],
        ['PUT', `/${id}`, `{"Name":${deep}}`],
        ['POST', `/${id}/AssignBudget`, deep],
        ['POST', `/${id}/RemoveBudget`, deep],
      ] as const) {
        const res = await f.call(method, path, { payload });
        assert.equal(res.statusCode, 400, `${method} ${path}: ${res.body.slice(0, 200)}`);
        assert.match(res.json<{ $: string[] }>().$[0]!, new RegExp(`deeper than ${MAX_BODY_DEPTH} levels`));
      }
      // Nesting within the limit is judged by the schema as before.
      const shallow = await f.call('POST', `/${id}/AssignBudget`, { payload: '[[1]]' });
      assert.equal(shallow.statusCode, 400);
      assert.ok(shallow.json()['Budget[0]'], shallow.body);
    });

    it('item 2: control characters and lone surrogates are a 400 naming the parameter or property', async () => {
      for (const [name, value] of [
        ['searchPattern', '%00'],
        ['searchPattern', 'a%01b'],
        ['searchPattern', '%7F'],
        ['searchPattern', '%ED%A0%80x'], // not UTF-8: decoded as replacement characters, refused as they are not
      ] as const) {
        const res = await read(`${name}=${value}`);
        if (value === '%ED%A0%80x') {
          assert.equal(res.statusCode, 200, res.body); // U+FFFD is ordinary text
          continue;
        }
        assert.equal(res.statusCode, 400, `${name}=${value}: ${res.body}`);
        assert.match(res.json()[name][0], /control character U\+00(00|01|7F)/);
      }
      const body = await f.create(JSON.parse(project(',"Description":"tab\\tok"').replace('"N"', '"a\\u0000b"')));
      assert.equal(body.statusCode, 400, body.body);
      assert.match(body.json().Name[0], /U\+0000/);
      const lone = await f.call('POST', '', { payload: project('').replace('"N"', '"x\\ud800"') });
      assert.equal(lone.statusCode, 400, lone.body);
      assert.match(lone.json().Name[0], /lone surrogate/);
      const key = await f.call('POST', '', { payload: project(',"Bad\\u0000Name":1') });
      assert.equal(key.statusCode, 400, key.body);
      // A body that is not UTF-8 (a Latin-1 "ä") is refused, not stored with U+FFFD in its place
      const before = await f.count();
      const latin1 = Buffer.from(project('').replace('"N"', '"M\u00e4rz"'), 'latin1');
      const notUtf8 = await f.call('POST', '', { payload: latin1 });
      assert.equal(notUtf8.statusCode, 400, notUtf8.body);
      assert.deepEqual(notUtf8.json(), { $: ['The body is not valid UTF-8; send JSON encoded as UTF-8.'] });
      assert.equal(await f.count(), before, 'nothing stored');
      const utf8 = await f.call('POST', '', {
        payload: Buffer.from(project('').replace('"N"', '"M\u00e4rz"'), 'utf8'),
      });
      assert.equal(utf8.statusCode, 201, utf8.body);
      assert.equal(utf8.json().Name, 'M\u00e4rz');
      // The same text filter without the control character is an ordinary search.
      assert.equal((await read('searchPattern=ab')).statusCode, 200);
      // An unknown parameter is ignored whatever its value (decisions §3), control characters included
      for (const unknown of ['utm_note=line1%0Aline2', 'foo=%00', '_=%1B', 'foo=%7F&foo=%00'])
        assert.equal((await read(unknown)).statusCode, 200, unknown);
      assert.equal((await f.call('POST', '', { payload: project(''), query: 'trace=%00' })).statusCode, 201);
    });

    it("an assign body's refused values are keyed by the array's place (Building[1]), as its other errors", async () => {
      const id = await f.createId();
      for (const [payload, key, pattern] of [
        ['[1, 1e400]', 'Building[1]', /^The value of Building\[1\] is a number beyond/],
        ['["x\\ud800"]', 'Building[0]', /^The value of Building\[0\] is not valid Unicode/],
        ['["a\\u0001"]', 'Building[0]', /U\+0001/],
        ['[{"__proto__":1}]', 'Building[0].__proto__', /__proto__/],
        ['["x"]', 'Building[0]', /expected an integer/],
      ] as const) {
        for (const op of ['AssignBuilding', 'RemoveBuilding']) {
          const res = await f.call('POST', `/${id}/${op}`, { payload });
          assert.equal(res.statusCode, 400, res.body);
          assert.deepEqual(Object.keys(res.json()), [key], `${op} ${payload}: ${res.body}`);
          assert.match(res.json()[key][0], pattern);
        }
      }
      // A body that is not an array keeps the body's own key.
      const res = await f.call('POST', `/${id}/AssignLoan`, { payload: '1e400' });
      assert.deepEqual(Object.keys(res.json()), ['Loan'], res.body);
    });

    it('a property name given twice in one object is a 400 naming it; nothing is stored', async () => {
      const before = await f.count();
      for (const [payload, keys] of [
        [project(',"Name":"b"'), ['Name']],
        [project(',"\\u004eame":"b"'), ['Name']], // the same name, escaped
        [project(`,"CompanyCodeId":${f.A.companyCodeId}`), ['CompanyCodeId']],
        [project(',"Description":"x","Description":"y","Description":"z"'), ['Description']],
      ] as const) {
        const res = await f.call('POST', '', { payload });
        assert.equal(res.statusCode, 400, `${payload}: ${res.body}`);
        assert.deepEqual(Object.keys(res.json()), keys, res.body);
        assert.match(res.json()[keys[0]][0], /^The property \w+ is given more than once; give it once\.$/);
      }
      assert.equal(await f.count(), before, 'nothing stored');
      // Many are listed up to the bound, and counted past it.
      const many = Array.from({ length: 150 }, (_, i) => `"D${i}":{"x":1,"x":2}`).join(',');
      const bounded = await f.call('POST', '', { payload: project(`,"Extra":{${many}}`) });
      assert.equal(bounded.statusCode, 400);
      assert.match(bounded.json().$.at(-1), /\.\.\. and 50 more problem\(s\); only the first 100 are listed\./);
      // Equal names in different objects, and equal strings as values, are not duplicates.
      const fine = await f.call('POST', '', { payload: project(',"Description":"Name","Code":"Name"') });
      assert.equal(fine.statusCode, 201, fine.body);
      const id = await f.createId();
      const nested = await f.call('PUT', `/${id}`, {
        payload: '{"Name":"a","Description":"{\\"Name\\":1,\\"Name\\":2}"}',
      });
      assert.equal(nested.statusCode, 200, nested.body);
      const inArray = await f.call('POST', `/${id}/AssignBuilding`, { payload: '[{"a":1,"a":2}]' });
      assert.ok(inArray.json()['Building[0].a'], inArray.body);
    });

    it('an array or object sent for a property is quoted as sent in the message', async () => {
      const res = await f.call('POST', '', { payload: project('').replace('"N"', '["a","b"]') });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), { Name: [`The value ["a","b"] is not valid for Name: expected a string.`] });
    });

    it('the writes take only apiKey: showNullValues and other read parameters are ignored there', async () => {
      const id = await f.createId();
      for (const query of ['showNullValues=maybe', 'showNullValues=', 'limit=abc&offset=-1']) {
        const created = await f.call('POST', '', { payload: project(''), query });
        assert.equal(created.statusCode, 201, `${query}: ${created.body}`);
        const assigned = await f.call('POST', `/${id}/AssignEconomicUnit`, { payload: '[]', query });
        assert.equal(assigned.statusCode, 201, `${query}: ${assigned.body}`);
      }
    });

    it('item 3: 10,000 unknown properties and 100,000 unknown ids get a bounded error map', async () => {
      const unknown = Array.from({ length: 10_000 }, (_, i) => `,"Unknown${i}":1`).join('');
      const res = await f.call('POST', '', { payload: project(unknown) });
      assert.equal(res.statusCode, 400);
      assert.equal(messages(res.json()), MAX_PROBLEMS + 1);
      assert.match(res.json().$.at(-1), /and 9900 more problem/);
      const id = await f.createId();
      const ids = Array.from({ length: 100_000 }, (_, i) => 1_000_000 + i);
      const assign = await f.call('POST', `/${id}/AssignBudget`, { payload: JSON.stringify(ids) });
      assert.equal(assign.statusCode, 400);
      assert.ok(messages(assign.json()) <= MAX_PROBLEMS + 1, `${messages(assign.json())} messages`);
      assert.ok(assign.body.length < 50_000, `${assign.body.length} bytes`);
      assert.match(assign.body, /and 99900 more problem/);
    });

    it('item 7: integer parameters take an optional - and decimal digits only', async () => {
      for (const limit of ['0x10', '1e1', '0b1', '+5', '%201', '1%20', '1.0', '']) {
        const res = await read(`limit=${limit}`);
        assert.equal(res.statusCode, 400, `limit=${limit}: ${res.body}`);
        assert.match(res.json().limit[0], /expected an integer/);
      }
      assert.equal((await read('limit=3')).json().length, 3);
      assert.equal((await f.call('GET', '/0x1')).statusCode, 400);
    });

    it("names of every object's inherited members are unknown properties (400) and parameters (ignored) like any other", async () => {
      const id = await f.createId();
      const before = await f.count();
      const admin = await f.t.login();
      for (const name of [
        'constructor',
        'toString',
        'hasOwnProperty',
        'valueOf',
        'isPrototypeOf',
        '__defineGetter__',
      ]) {
        for (const [method, path, payload] of [
          ['POST', '', project(`,"${name}":1`)],
          ['PUT', `/${id}`, `{"${name}":1}`],
        ] as const) {
          const res = await f.call(method, path, { payload });
          assert.equal(res.statusCode, 400, `${method} ${name}: ${res.body.slice(0, 200)}`);
          assert.ok(Object.hasOwn(res.json(), name), `${method}: the map names ${name}: ${res.body}`);
        }
        const hook = await f.t.app.inject({
          method: 'POST',
          url: `/service/v1.2/WebHook/WebHook?apiKey=${f.key}`,
          headers: { ...bearer(admin), 'content-type': 'application/json' },
          payload: `{"${name}":1}`,
        });
        assert.equal(hook.statusCode, 400, `webhook ${name}: ${hook.body.slice(0, 200)}`);
        // an unknown query parameter is ignored (decisions §3), whatever its name
        const query = await read(`${name}=1`);
        assert.equal(query.statusCode, 200, `query ${name}: ${query.body.slice(0, 200)}`);
        assert.equal(query.body, (await read('')).body);
      }
      assert.equal(await f.count(), before, 'nothing stored');
    });

    it('item 8: query parameter names match regardless of case; two spellings are one repeated parameter', async () => {
      assert.equal((await read('Limit=2')).json().length, 2);
      assert.equal((await read('LIMIT=1&OFFSET=0&ShowNullValues=True')).json().length, 1);
      const twice = await read('limit=2&Limit=3');
      assert.equal(twice.statusCode, 400, twice.body);
      assert.ok(twice.json().limit);
      const ignored = await read('limit=2&NoSuchParameter=1');
      assert.equal(ignored.statusCode, 200);
      // apiKey is read by authentication, before validation: ApiKey= is the same parameter.
      const created = await f.call('POST', '', {
        key: null,
        query: `ApiKey=${f.key}`,
        payload: project(',"Code":"CASE-1"'),
      });
      assert.equal(created.statusCode, 201, created.body);
      // Sent twice, even with the same value, it is a 400 keyed by its name, like limit (docs/limits.md)
      for (const query of [`apiKey=${f.key}&apiKey=${f.key}`, `apiKey=${f.key}&APIKEY=${f.key}`]) {
        const repeated = await f.call('POST', '', { key: null, query, payload: project(',"Code":"CASE-2"') });
        assert.equal(repeated.statusCode, 400, repeated.body);
        assert.deepEqual(repeated.json(), { apiKey: ['apiKey is given more than once; give it once.'] });
      }
      assert.equal((await read(`apiKey=${f.key}&apiKey=${f.key}`)).statusCode, 400);
    });
  });
}
