// Step 5: bodies are JSON only, in UTF-8 (a JSON text sent as text/plain gets the content-type message), a malformed body
// is answered with the parser's own words, which name the position, and prototype poisoning is refused (keyed by the
// property's place, as an unknown property), and so is a property name given twice in one object. Before the
// schema sees a body, the input rules of src/http/input-rules.ts hold: nesting depth at most MAX_BODY_DEPTH, no
// control characters or lone surrogates in its strings (docs/limits.md).
// A write route that declares no body schema (the DELETEs: interface.md, "Body: none") takes no body: absent, `null`
// or `{}` pass, an object's properties are unknown properties (decisions §3), anything else is a 400 on `$`.
// Query strings, path parameters and bodies are then validated by the route schemas (src/http/validation.ts).
import { isUtf8 } from 'node:buffer';
import fp from 'fastify-plugin';
import type { App } from '../app-types.ts';
import { ApiError, type ErrorMap } from '../http/errors.ts';
import {
  MAX_BODY_DEPTH,
  bodyTextProblems,
  boundErrorMap,
  duplicateProperties,
  messagesAt,
  nestedDeeperThan,
} from '../http/input-rules.ts';
import { validatorCompiler } from '../http/validation.ts';

export default fp(
  async (app: App) => {
    app.setValidatorCompiler(validatorCompiler);
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
      // A compressed body is not read as if it were plain text (its bytes would be taken for JSON, or refused as
      // not UTF-8 without a word about why)
      const encoding = request.headers['content-encoding']?.trim().toLowerCase();
      if (encoding && encoding !== 'identity') {
        const message = `The body is sent with Content-Encoding '${request.headers['content-encoding']}', which is not supported; send it uncompressed.`;
        return done(new ApiError(400, 'bad_request', { $: [message] }), undefined);
      }
      // JSON is UTF-8 (RFC 8259 §8.1): bytes that are not would otherwise be stored as U+FFFD without a word
      if (!isUtf8(raw as Buffer)) {
        const message = 'The body is not valid UTF-8; send JSON encoded as UTF-8.';
        return done(new ApiError(400, 'bad_request', { $: [message] }), undefined);
      }
      const body = (raw as Buffer).toString('utf8');
      // No content is no body, with or without a content type (a DELETE from a client that always sends one): the
      // route then answers as for a request without a body.
      if (body.trim() === '') return done(null, undefined);
      if (nestedDeeperThan(body, MAX_BODY_DEPTH)) {
        const message = `The body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels.`;
        return done(new ApiError(400, 'bad_request', { $: [message] }), undefined);
      }
      let parsed: unknown;
      try {
        // JSON.parse makes `__proto__` an own property (it does not set a prototype); bodyTextProblems refuses it
        parsed = JSON.parse(body);
      } catch (err) {
        done(
          new ApiError(400, 'bad_request', { $: [`The body is not valid JSON: ${(err as Error).message}.`] }),
          undefined,
        );
        return;
      }
      const { bodyName } = request.routeOptions.config;
      const { problems, total } = bodyTextProblems(parsed, bodyName);
      // a name given twice would lose its first value without a word (JSON.parse keeps the last)
      const twice = duplicateProperties(body, bodyName);
      if (total === 0 && twice.total === 0) return done(null, parsed);
      const map: ErrorMap = {};
      for (const p of [...twice.problems, ...problems]) messagesAt(map, p.path).push(p.message);
      done(new ApiError(400, 'bad_request', boundErrorMap(map, total + twice.total)), undefined);
    });

    // After authentication (401/403 first), before the route's own checks.
    app.addHook('preValidation', (request, _reply, done) => {
      const { method, body } = request;
      if (method === 'GET' || method === 'HEAD' || body === undefined || body === null) return done();
      if (request.routeOptions.schema?.body || !request.routeOptions.config.auth) return done();
      const map: ErrorMap = {};
      if (typeof body === 'object' && !Array.isArray(body))
        for (const name of Object.keys(body))
          messagesAt(map, name).push(
            `Unknown property '${name}': a ${method} takes no body (property names are case-sensitive).`,
          );
      else messagesAt(map, '$').push(`A ${method} takes no body; send none.`);
      done(Object.keys(map).length ? new ApiError(400, 'bad_request', boundErrorMap(map)) : undefined);
    });
  },
  { name: 'body-parser', dependencies: ['errors'] },
);
