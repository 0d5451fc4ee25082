// The typed client package (clients/typescript) against a real server with the demo data, and its generated types
// against the document the server serves.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createWohnapiClient, LoginError, type Schemas } from '../clients/typescript/src/index.ts';
import { generatedSchema, SCHEMA_FILE } from '../scripts/client-generate.ts';
import { startDemoServer, type DemoServer } from './support/demo-server.ts';

const BASES = '/service/v1.2/RunningCostDistributionRead/AllocationGroupBases';

describe('the typed client', () => {
  let server: DemoServer;
  before(async () => {
    server = await startDemoServer();
  });
  after(() => server.stop());

  const client = () =>
    createWohnapiClient({ baseUrl: server.base, username: server.user, password: server.password, apiKey: server.key });

  it('the committed generated types are those of the served document (else: npm run client:generate)', async () => {
    assert.equal(readFileSync(SCHEMA_FILE, 'utf8'), await generatedSchema());
  });

  it('logs in by itself and makes typed calls with the apiKey', async () => {
    const wohnapi = client();
    const { data, response } = await wohnapi.api.GET('/service/v1.2/RunningCostDistributionRead/DistributionPeriods', {
      params: { query: { limit: 2 } },
    });
    assert.equal(response.status, 200);
    assert.ok(new URL(response.url).searchParams.get('apiKey'), 'the key is sent');
    const periods: Schemas['DistributionPeriod'][] = data!;
    assert.equal(periods.length, 2);
    assert.equal(typeof periods[0]!.Code, 'string');
    assert.ok(wohnapi.tokens?.access_token);
  });

  it('creates a project (the key is required for writes) and reads it back', async () => {
    const wohnapi = client();
    const created = await wohnapi.api.POST('/service/v1.2/AccountancyProjectEdit/Project', {
      body: { CompanyCodeId: 1, ProjectLifeTimeFrom: '2026-07-01', Name: 'Client test' },
    });
    assert.equal(created.response.status, 201);
    const id = created.data!.Id!;
    const read = await wohnapi.api.GET('/service/v1.2/AccountancyProjectEdit/Project/{id}', {
      params: { path: { id } },
    });
    assert.equal(read.data?.Name, 'Client test');
    const bad = await wohnapi.api.POST('/service/v1.2/AccountancyProjectEdit/Project', {
      body: { CompanyCodeId: 1, ProjectLifeTimeFrom: '2026-02-30' },
    });
    assert.equal(bad.response.status, 400);
    assert.ok(bad.error && 'ProjectLifeTimeFrom' in bad.error);
  });

  it('refreshes on 401 and retries once', async () => {
    const wohnapi = client();
    await wohnapi.login();
    const before = wohnapi.tokens!;
    wohnapi.tokens = { ...before, access_token: 'revoked-or-expired' };
    const { response } = await wohnapi.api.GET(BASES, { params: { query: { limit: 1 } } });
    assert.equal(response.status, 200);
    assert.notEqual(wohnapi.tokens.access_token, 'revoked-or-expired');
    assert.notEqual(wohnapi.tokens.refresh_token, before.refresh_token, 'the refresh grant was used');
  });

  it('refreshes with given tokens and no password; a spent refresh token gives the 401 back', async () => {
    const tokens = await client().login();
    const wohnapi = createWohnapiClient({ baseUrl: server.base, apiKey: server.key });
    wohnapi.tokens = { ...tokens, access_token: 'expired' };
    const { response } = await wohnapi.api.GET(BASES, { params: { query: { limit: 1 } } });
    assert.equal(response.status, 200);
    assert.notEqual(wohnapi.tokens.refresh_token, tokens.refresh_token, 'the refresh grant was used');
    const spent = createWohnapiClient({ baseUrl: server.base, apiKey: server.key });
    spent.tokens = { ...tokens, access_token: 'expired' }; // its refresh token was used above
    assert.equal((await spent.api.GET(BASES, { params: { query: { limit: 1 } } })).response.status, 401);
  });

  it('paginate refuses a path with a path parameter (the types do too)', async () => {
    const wohnapi = client();
    // @ts-expect-error -- a path with a parameter to fill is not a ListPath
    const pages = wohnapi.paginate('/service/v1.2/WebHook/WebHook/{id}/Deliveries');
    await assert.rejects(pages.next(), /has a path parameter; use api.GET with params.path/);
  });

  it('pages through a whole list endpoint', async () => {
    const wohnapi = client();
    const ids: number[] = [];
    for await (const base of wohnapi.paginate(BASES, { includeUseUnits: false }, 7)) ids.push(base.Id!);
    const all: number[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await wohnapi.api.GET(BASES, { params: { query: { limit: 100, offset } } });
      all.push(...page.data!.map((b) => b.Id!));
      if (page.data!.length < 100) break;
    }
    assert.ok(all.length > 7, 'more than one page');
    assert.deepEqual(ids, all);
  });

  it('a wrong password is a LoginError', async () => {
    const wohnapi = createWohnapiClient({ baseUrl: server.base });
    await assert.rejects(
      wohnapi.login(server.user, 'wrong'),
      (e: unknown) => e instanceof LoginError && e.status === 400,
    );
  });
});
