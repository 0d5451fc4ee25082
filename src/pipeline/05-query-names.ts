// Step 5b (before authentication, which reads apiKey): query parameter names match regardless of case, as on the
// vendor's server (.NET model binding): a received name whose lower-case form is that of a parameter the route's
// querystring schema declares is renamed to the declared spelling, for every route, including routes added later.
// Two spellings of one name (`limit=2&Limit=3`) count as that parameter sent twice (400 for a single-valued one).
// Names the schema does not declare in any case are left alone and ignored, as the vendor does (docs/limits.md).
import fp from 'fastify-plugin';
import type { App } from '../app-types.ts';

const lookups = new WeakMap<object, Map<string, string>>();

/** Lower-case name -> declared name, for one querystring schema (computed once per schema). */
function lookupOf(schema: object): Map<string, string> {
  let lookup = lookups.get(schema);
  if (!lookup) {
    const names = Object.keys((schema as { properties?: object }).properties ?? {});
    lookup = new Map(names.map((name) => [name.toLowerCase(), name]));
    lookups.set(schema, lookup);
  }
  return lookup;
}

/**
 * Renames the keys of a parsed query string to the declared spelling, in place. Values of two spellings of one name
 * keep the order in which the names came in the URL (`Limit=1&limit=2` is limit ['1', '2']).
 */
export function matchQueryNames(query: Record<string, unknown>, schema: object): void {
  const lookup = lookupOf(schema);
  const keys = Object.keys(query);
  const named = keys.map((key) => lookup.get(key.toLowerCase()) ?? key);
  if (named.every((name, i) => name === keys[i])) return;
  const values = keys.map((key) => query[key]);
  for (const key of keys) delete query[key];
  named.forEach((name, i) => {
    query[name] = Object.hasOwn(query, name) ? [query[name], values[i]].flat() : values[i];
  });
}

export default fp(
  async (app: App) => {
    app.addHook('onRequest', (request, _reply, done) => {
      const schema = request.routeOptions.schema?.querystring;
      const query = request.query as Record<string, unknown> | undefined;
      if (schema && typeof schema === 'object' && query && typeof query === 'object') matchQueryNames(query, schema);
      done();
    });
  },
  { name: 'query-names' },
);
