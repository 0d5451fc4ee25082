// Step 6: routes with config.auth need a bearer token, their permissions and (where required) an API key:
// 401 (credentials) before 403 (permission) before 400 (validation, which runs after this step). Sets
// request.principal, request.apiKey and request.scope (the ledgers the request may see) for the steps after it.
import fp from 'fastify-plugin';
import type { App } from '../app-types.ts';
import { bearerAuthentication, type Authenticator } from '../auth/authenticate.ts';

export interface AuthenticationOptions {
  /** How requests are checked; the default is the bearer token, permission and API-key check. */
  authenticate?: Authenticator;
}

export default fp<AuthenticationOptions>(
  async (app: App, options) => {
    const authenticate = options.authenticate ?? bearerAuthentication;
    app.decorateRequest('principal', null);
    app.decorateRequest('apiKey', null);
    app.decorateRequest('scope', null as never);
    app.addHook('onRequest', (request, _reply, done) => {
      const auth = request.routeOptions.config.auth;
      if (!auth) return done();
      authenticate(app, request, auth).then(() => done(), done);
    });
  },
  { name: 'authentication', dependencies: ['errors', 'query-names'] },
);
