// Step 5: bodies are JSON only (a JSON text sent as text/plain gets the content-type message), a malformed body
// is answered with the parser's own words, which name the position, and prototype poisoning is refused.
// Query strings, path parameters and bodies are then validated by the route schemas (src/http/validation.ts).
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import type { App } from '../app-types.ts';
import { ApiError } from '../http/errors.ts';
import { validatorCompiler } from '../http/validation.ts';

export default fp(
  async (app: App) => {
    app.setValidatorCompiler(validatorCompiler);
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, secureJson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' }));
      } catch (err) {
        done(
          new ApiError(400, 'bad_request', { $: [`The body is not valid JSON: ${(err as Error).message}.`] }),
          undefined,
        );
      }
    });
  },
  { name: 'body-parser', dependencies: ['errors'] },
);
