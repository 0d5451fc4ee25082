// Builds the real application on a fresh database of either engine, with a clock the test can move.
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { App } from '../../src/app-types.ts';
import type { DialectName } from '../../src/db/database.ts';
import { addUser } from '../../src/auth/users.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { ALL_PERMISSIONS, type Permission } from '../../src/auth/permissions.ts';
import { freshDatabase, type TestDatabase } from './db.ts';

export interface TestApp {
  app: App;
  database: TestDatabase;
  clock: { now: Date; advance(seconds: number): void };
  /** Creates a user (default: every permission) and returns a fresh access token. */
  login(options?: {
    name?: string;
    permissions?: Permission[];
    ledgers?: number[];
    password?: string;
  }): Promise<string>;
  apiKey(ledgers: number[] | 'all', name?: string): Promise<string>;
  close(): Promise<void>;
}

let counter = 0;

export async function testApp(
  dialect: DialectName,
  env: Record<string, string> = {},
  prepare?: (app: App) => Promise<void>,
): Promise<TestApp> {
  const database = await freshDatabase(dialect);
  const config: Readonly<Config> = loadConfig({ ...env });
  const clock = {
    now: new Date(env.NOW || '2026-06-01T10:00:00Z'),
    advance(seconds: number) {
      this.now = new Date(this.now.getTime() + seconds * 1000);
    },
  };
  const app = await buildApp({ database, config, now: () => clock.now });
  if (prepare) await prepare(app);
  await app.ready();
  return {
    app,
    database,
    clock,
    async login(options = {}) {
      const name = options.name ?? `user${++counter}`;
      const password = options.password ?? 'correct horse battery';
      await addUser(database.db, {
        name,
        password,
        permissions: options.permissions ?? ALL_PERMISSIONS,
        ledgers: options.ledgers,
      });
      const res = await app.inject({
        method: 'POST',
        url: '/oauth2/token',
        payload: `grant_type=password&username=${encodeURIComponent(name)}&password=${encodeURIComponent(password)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      return res.json().access_token as string;
    },
    apiKey(ledgers, name = `key${++counter}`) {
      return createApiKey(database.db, { name, ledgers });
    },
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

/** POST form-encoded to the token endpoint. */
export function tokenRequest(
  app: App,
  form: Record<string, string>,
  url = '/oauth2/token',
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
