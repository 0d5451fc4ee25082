// The interface's areas, each a folder with its routes. Registered under /service and, for clients of the
// vendor interface, again under /openwowi (hidden from the OpenAPI document).
import type { App } from './app-types.ts';
import runningCostArea from './running-cost/index.ts';
import projectsArea from './projects/index.ts';
import rentAccountingArea from './rent-accounting/index.ts';
import webhooksArea from './webhooks/index.ts';
import masterDataArea from './master-data/index.ts';

type AreaPlugin = (app: App) => Promise<void>;

/** Every area of the interface. Add an area here once; both prefixes get it. */
const AREAS: AreaPlugin[] = [runningCostArea, projectsArea, rentAccountingArea, webhooksArea, masterDataArea];

export const API_PREFIXES = ['/service', '/openwowi'] as const;

export default async function apiRoutes(app: App): Promise<void> {
  for (const prefix of API_PREFIXES) {
    await app.register(
      async (scope: App) => {
        scope.addHook('onRoute', (route) => {
          if (prefix !== '/service') route.schema = { ...route.schema, hide: true };
        });
        for (const area of AREAS) await scope.register(area);
      },
      { prefix },
    );
  }
}
