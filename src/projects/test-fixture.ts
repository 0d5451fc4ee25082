// Shared set-up of the project tests: an app on a fresh database with a two-ledger world, a user with the project
// permission, an all-ledgers API key, and a small HTTP client for the project endpoints.
import type { LightMyRequestResponse } from 'fastify';
import { bearer, testApp, type TestApp } from '../../test/helpers/app.ts';
import type { DialectName } from '../db/database.ts';
import { buildWorld, type World, type WorldLedger } from '../dataset/factories.ts';
import { PERMISSIONS } from '../auth/permissions.ts';

export const PROJECTS_URL = '/service/v1.2/AccountancyProjectEdit/Project';

export interface CallOptions {
  body?: unknown;
  /** Raw payload (sent as is, with Content-Type application/json unless `contentType` says otherwise). */
  payload?: string;
  contentType?: string;
  /** apiKey query value; null = none. Default: the fixture's all-ledgers key. */
  key?: string | null;
  token?: string;
  query?: string;
}

export interface ProjectsFixture {
  t: TestApp;
  token: string;
  key: string;
  world: World;
  /** The two ledgers of the world. */
  A: WorldLedger;
  B: WorldLedger;
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  /** POST a create body; returns the response. */
  create(body: Record<string, unknown>, options?: CallOptions): Promise<LightMyRequestResponse>;
  /** Creates a project in ledger A (or as overridden) and returns its id. */
  createId(body?: Record<string, unknown>): Promise<number>;
  /** GET the project back (200 body) or throw. */
  read(id: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

let codes = 0;

export async function projectsFixture(dialect: DialectName): Promise<ProjectsFixture> {
  const t = await testApp(dialect);
  const world = await buildWorld(t.database.db, { ledgers: 2 });
  const [A, B] = world.ledgers;
  const token = await t.login({ permissions: [PERMISSIONS.projectEdit] });
  const key = await t.apiKey('all');
  const call: ProjectsFixture['call'] = (method, path, o = {}) => {
    const params = new URLSearchParams(o.query ?? '');
    const key_ = o.key === undefined ? key : o.key;
    if (key_ !== null) params.set('apiKey', key_);
    const qs = params.toString();
    const headers: Record<string, string> = { ...bearer(o.token ?? token) };
    let payload: string | undefined;
    if (o.payload !== undefined) payload = o.payload;
    else if (o.body !== undefined) payload = JSON.stringify(o.body);
    if (payload !== undefined || o.contentType) headers['content-type'] = o.contentType ?? 'application/json';
    return t.app.inject({ method, url: `${PROJECTS_URL}${path}${qs ? `?${qs}` : ''}`, headers, payload });
  };
  const create: ProjectsFixture['create'] = (body, options = {}) => call('POST', '', { ...options, body });
  return {
    t,
    token,
    key,
    world,
    A,
    B,
    call,
    create,
    async createId(body = {}) {
      const res = await create({
        CompanyCodeId: A.companyCodeId,
        ProjectLifeTimeFrom: '2025-01-01',
        Code: `T${++codes}`,
        Name: 'Test project',
        ...body,
      });
      if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
      return res.json().Id as number;
    },
    async read(id) {
      const res = await call('GET', `/${id}`);
      if (res.statusCode !== 200) throw new Error(`read failed: ${res.statusCode} ${res.body}`);
      return res.json();
    },
    close: () => t.close(),
  };
}
