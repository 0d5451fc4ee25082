import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { freshDatabase } from '../../test/support/db.ts';

describe('route config', () => {
  for (const flag of ['cache', 'keepNulls'] as const) {
    it(`refuses at boot a route with ${flag} but no auth, and accepts it with auth`, async () => {
      const database = await freshDatabase('sqlite');
      try {
        const app = await buildApp({ database, config: loadConfig({}) });
        assert.throws(
          () => app.get('/service/v1.2/Probe/NoAuth', { config: { [flag]: true } }, () => []),
          new RegExp(`${flag} need\\(s\\) config.auth`),
        );
        app.get(
          '/service/v1.2/Probe/WithAuth',
          { config: { [flag]: true, auth: { permissions: [PERMISSIONS.runningCostRead], apiKey: 'optional' } } },
          () => [],
        );
        await app.ready();
        await app.close();
      } finally {
        await database.drop();
      }
    });
  }
});
