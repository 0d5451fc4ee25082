// The OpenAPI document as generated clients and the docs page need it, derived centrally for every route.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { testApp, type TestApp } from '../../test/support/app.ts';
import { registerProbe, PROBE_URL } from '../../test/support/probe-route.ts';
import { operationId, singular, tagOf } from './openapi-operations.ts';

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: Rec;
  const operations = () =>
    Object.entries(doc.paths as Rec).flatMap(([path, item]) =>
      Object.entries(item as Rec)
        .filter(([m]) => METHODS.includes(m))
        .map(([method, op]) => ({ path, method, op: op as Rec })),
    );
  before(async () => {
    t = await testApp('sqlite', {}, registerProbe);
    doc = (await t.app.inject({ url: '/service/openapi.json', headers: { host: 'api.test:9000' } })).json();
  });
  after(() => t.close());

  it('every operation has a unique operationId in the Controller_Method style', () => {
    const ids = operations().map(({ op }) => op.operationId as string);
    assert.ok(ids.length > 50);
    for (const id of ids) assert.match(id, /^[A-Z][A-Za-z0-9]*(V\d+_\d+)?_[A-Z][A-Za-z0-9]*$/);
    assert.equal(new Set(ids).size, ids.length, 'operation ids are unique');
    const byPath = (path: string, method: string) => doc.paths[path][method].operationId;
    assert.equal(
      byPath('/service/v1.2/RunningCostDistributionRead/AllocationGroupBases', 'get'),
      'RunningCostDistributionRead_GetAllocationGroupBases',
    );
    assert.equal(
      byPath('/service/v1.0/RentAccounting/RentalUpperLimit', 'get'),
      'RentAccountingV1_0_GetRentalUpperLimit',
    );
    assert.equal(
      byPath('/service/v1.2/AccountancyProjectEdit/Project/{id}', 'put'),
      'AccountancyProjectEdit_PutProjectById',
    );
  });

  it('derives ids, tags and record names from the path alone (what a new route gets)', () => {
    assert.equal(operationId('GET', '/service/v1.2/Webhooks/Subscriptions/:id'), 'Webhooks_GetSubscriptionsById');
    assert.equal(operationId('POST', '/service/v1.2/A/Project/:projectId/AssignLand'), 'A_PostProjectAssignLand');
    assert.deepEqual(tagOf('/service/v1.0/RentAccounting/X'), ['RentAccounting v1.0']);
    assert.deepEqual(
      [singular('AllocationGroupBases'), singular('Properties'), singular('Taxes')],
      ['AllocationGroupBase', 'Property', 'Tax'],
    );
  });

  it('a route registered without any OpenAPI detail gets id, tag, security, errors and a named record', () => {
    const get = doc.paths[PROBE_URL].get;
    assert.equal(get.operationId, 'Probe_GetItems');
    assert.deepEqual(get.tags, ['Probe v1.2']);
    assert.deepEqual(get.security, [{ oauth2: [], apiKey: [] }, { oauth2: [] }]);
    assert.deepEqual(doc.paths[`${PROBE_URL}/WithKey`].get.security, [{ oauth2: [], apiKey: [] }]);
    // no path parameter, no 404 (a filter naming an unknown id answers [], decisions §3)
    assert.deepEqual(Object.keys(get.responses).sort(), ['200', '400', '401', '403', '429', '500']);
    assert.deepEqual(Object.keys(doc.paths[PROBE_URL].post.responses).sort(), [
      '200',
      '400',
      '401',
      '403',
      '413',
      '429',
      '500',
    ]);
    const periods = doc.paths['/service/v1.2/RunningCostDistributionRead/DistributionPeriods'].get.responses;
    assert.equal(periods[404], undefined);
    assert.equal(get.responses[200].content['application/json'].schema.items.$ref, '#/components/schemas/Item');
    assert.ok(doc.components.schemas.Item.properties.Nested);
    assert.ok(doc.tags.some((tag: Rec) => tag.name === 'Probe v1.2' && tag.description));
  });

  it('record types are named component schemas, with examples from the demo data', () => {
    const schemas = doc.components.schemas as Rec;
    for (const name of ['AllocationGroupBase', 'DistributionPeriod', 'Project', 'ProjectCreate', 'CodeRef', 'ErrorMap'])
      assert.ok(schemas[name], name);
    const list = doc.paths['/service/v1.2/RunningCostDistributionRead/AllocationGroupBases'].get.responses[200];
    assert.equal(list.content['application/json'].schema.items.$ref, '#/components/schemas/AllocationGroupBase');
    assert.equal(list.content['application/json'].example[0].Id, schemas.AllocationGroupBase.example.Id);
    const create =
      doc.paths['/service/v1.2/AccountancyProjectEdit/Project'].post.requestBody.content['application/json'];
    assert.equal(create.schema.$ref, '#/components/schemas/ProjectCreate');
    assert.equal(typeof create.example.CompanyCodeId, 'number');
    const project = doc.paths['/service/v1.2/AccountancyProjectEdit/Project'].post;
    assert.equal(project.requestBody.required, true);
    assert.equal(project.responses[201].headers.Location.schema.type, 'string', 'a create names what it made');
    for (const op of ['AssignBuilding', 'RemoveUseUnit']) {
      const assignment = doc.paths[`/service/v1.2/AccountancyProjectEdit/Project/{projectId}/${op}`].post;
      assert.equal(assignment.requestBody.required, false, `${op}: the body is optional (interface.md)`);
      assert.equal(JSON.stringify(assignment).includes('x-optional-body'), false);
      assert.equal(assignment.responses[op.startsWith('Assign') ? 201 : 200].headers, undefined);
    }
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses as Rec)) {
        assert.notEqual(response.description, 'Default Response', `${method} ${path} ${status}`);
        const media = response.content?.['application/json'];
        if (status.startsWith('2') && path.startsWith('/service/v1') && !path.includes('Probe'))
          assert.ok(media?.example !== undefined, `example for ${method} ${path} ${status}`);
      }
    }
  });

  it('a nullable record reference admits null under OpenAPI 3.0.3 (nullable widens only the type beside it)', () => {
    // A strict reading of 3.0.3: `nullable: true` adds null to the `type` in the same object and does nothing else.
    const strict = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(strict);
      if (!node || typeof node !== 'object') return node;
      const { nullable, example: _example, ...rest } = node as Rec;
      const out: Rec = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, strict(v)]));
      if (typeof out.$ref === 'string') out.$ref = out.$ref.replace('#/components/schemas/', '#/definitions/');
      if (nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
      return out;
    };
    const ajv = new Ajv({ strict: false });
    const validate = ajv.compile({
      definitions: strict(doc.components.schemas) as Rec,
      $ref: '#/definitions/AllocationGroup',
    });
    const group = { Id: 1, Code: 'AG1', PreviousAllocationGroup: null, Owner: null, CompanyCode: { Id: 1 } };
    assert.ok(validate(group), JSON.stringify(validate.errors));
    assert.ok(validate({ ...group, PreviousAllocationGroup: { Id: 2, Code: 'AG0' } }));
    assert.equal(validate({ ...group, PreviousAllocationGroup: 'AG0' }), false);
    assert.equal(JSON.stringify(doc).includes('"allOf"'), false, 'no allOf beside nullable');
  });

  it('AllocationGroups declares the Deprecation, Sunset and Link headers it sends (410: Link only)', () => {
    const responses = doc.paths['/service/v1.2/RunningCostDistributionRead/AllocationGroups'].get.responses as Rec;
    for (const status of ['200', '400', '401', '403'])
      for (const name of ['Deprecation', 'Sunset', 'Link']) assert.ok(responses[status].headers?.[name], status);
    assert.deepEqual(Object.keys(responses['410'].headers), ['Link']);
    assert.equal(responses['200'].headers.Sunset.schema.type, 'string');
    assert.equal(JSON.stringify(doc).includes('responseHeaders'), false);
  });

  it('every operation but the health probes declares a 4xx; 401 and 429 declare their headers; three media types', () => {
    for (const { path, method, op } of operations()) {
      const statuses = Object.keys(op.responses as Rec);
      if (path.startsWith('/health')) {
        assert.deepEqual(
          statuses.filter((s) => s.startsWith('4')),
          [],
          `${path}: outside the rate limit`,
        );
        continue;
      }
      assert.ok(
        statuses.some((s) => s.startsWith('4')),
        `${method} ${path}`,
      );
      if (op.responses[401]) assert.ok(op.responses[401].headers['WWW-Authenticate'], `${method} ${path}`);
      if (op.responses[429]) assert.ok(op.responses[429].headers['Retry-After'], `${method} ${path}`);
      if (op.responses[401] && op.responses[200])
        assert.deepEqual(Object.keys(op.responses[200].content), ['application/json', 'text/json', 'text/plain']);
    }
    // the ErrorMap component says what an error map is, not what one status means
    assert.match(doc.components.schemas.ErrorMap.description, /^Maps a query parameter/);
  });

  it('each error status has its own description and example', () => {
    const responses = doc.paths['/service/v1.2/AccountancyProjectEdit/Project/{id}'].put.responses;
    const texts = ['400', '403', '404', '413', '429', '500'].map((s) => responses[s].description);
    assert.equal(new Set(texts).size, texts.length);
    assert.deepEqual(Object.keys(responses[404].content['application/json'].example), ['id']);
    assert.match(responses[403].content['application/json'].example.$[0], /permission/);
    assert.equal(responses[401].content, undefined);
  });

  it('public routes need nothing; apiKey is a security scheme, not a parameter; no internal keys', () => {
    for (const path of ['/health/live', '/health/ready']) assert.deepEqual(doc.paths[path].get.security, []);
    const token = doc.paths['/oauth2/token'].post;
    assert.deepEqual(token.security, []);
    const form = token.requestBody.content['application/x-www-form-urlencoded'];
    assert.equal(form.schema.$ref, '#/components/schemas/TokenRequest');
    assert.deepEqual(Object.keys(doc.components.schemas.TokenRequest.properties).sort(), [
      'grant_type',
      'password',
      'refresh_token',
      'username',
    ]);
    for (const { op } of operations()) assert.ok(!(op.parameters ?? []).some((p: Rec) => p.name === 'apiKey'));
    assert.doesNotMatch(JSON.stringify(doc), /"x-[a-z]/);
    assert.deepEqual(doc.servers, [{ url: 'http://api.test:9000', description: 'this server' }]);
  });

  it('every integer is an int32 (interface.md: "int = integer int32")', () => {
    const integers: Rec[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        const v = value as Rec;
        if (v.type === 'integer') integers.push(v);
        Object.values(v).forEach(walk);
      }
    };
    walk(doc);
    assert.ok(integers.length > 100, `${integers.length} integer schemas`);
    assert.deepEqual(
      integers.filter((s) => s.format !== 'int32'),
      [],
    );
    const period = doc.components.schemas.DistributionPeriod.properties;
    assert.equal(period.Id.format, 'int32');
    const limit = doc.paths['/service/v1.2/RunningCostDistributionRead/AllocationGroupBases'].get.parameters.find(
      (p: Rec) => p.name === 'limit',
    );
    assert.equal(limit.schema.format, 'int32');
  });
});
