// A protected route used only by the foundation tests, before (and independently of) the interface's areas.
import { Type } from '@sinclair/typebox';
import type { App } from '../../src/app-types.ts';
import { PERMISSIONS } from '../../src/auth/permissions.ts';
import { PagingQuery, errorResponses, WireObject } from '../../src/http/schemas.ts';
import { ledgerCondition } from '../../src/auth/ledger-scope.ts';

export const PROBE_URL = '/service/v1.2/Probe/Items';

export async function registerProbe(app: App): Promise<void> {
  for (const [apiKey, method] of [
    ['optional', 'GET'],
    ['required', 'GET'],
    ['optional', 'POST'],
  ] as const) {
    app.route({
      method,
      url: apiKey === 'required' ? `${PROBE_URL}/WithKey` : PROBE_URL,
      config: { auth: { permissions: [PERMISSIONS.runningCostRead], apiKey } },
      schema: {
        querystring: Type.Object(PagingQuery),
        ...(method === 'POST'
          ? {
              body: Type.Object(
                { Name: Type.String(), Count: Type.Integer(), Items: Type.Optional(Type.Array(Type.Integer())) },
                { additionalProperties: false },
              ),
            }
          : {}),
        response: {
          200: Type.Array(
            WireObject({
              Id: Type.Integer(),
              Name: Type.String(),
              Nested: WireObject({ Code: Type.String() }),
              Scope: Type.String(),
            }),
          ),
          ...errorResponses,
        },
      },
      handler: async (request) => {
        const q = request.query as { limit: number; offset: number };
        const scope = request.scope.all ? 'all' : request.scope.ids.join(',');
        return [{ Id: q.limit * 1000 + q.offset, Name: null, Nested: { Code: null }, Scope: scope }];
      },
    });
  }
}

/** A cacheable GET of the ledgers the request may see ({Id, Name}), for the page-cache and front-door tests. */
export function ledgerProbe(url: string) {
  return async (app: App): Promise<void> => {
    app.get(url, {
      config: { auth: { permissions: [PERMISSIONS.runningCostRead], apiKey: 'optional' }, cache: true },
      schema: {
        response: {
          200: Type.Array(Type.Object({ Id: Type.Integer(), Name: Type.Union([Type.String(), Type.Null()]) })),
        },
      },
      handler: async (request) => {
        const rows = await app.db
          .selectFrom('company_codes')
          .select(['id', 'name'])
          .where((eb) => ledgerCondition(eb.ref('id'), request.scope))
          .orderBy('id')
          .execute();
        return rows.map((r) => ({ Id: r.id, Name: r.name }));
      },
    });
  };
}
