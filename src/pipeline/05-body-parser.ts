// Step 5: bodies are JSON only, in UTF-8 (a JSON text sent as text/plain gets the content-type message), a malformed body
// is answered with the parser's own words, which name the position, and prototype poisoning is refused. Before the
// schema sees a body, the input rules of src/http/input-rules.ts hold: nesting depth at most MAX_BODY_DEPTH, no
// control characters or lone surrogates in its strings (docs/limits.md).
// Query strings, path parameters and bodies are then validated by the route schemas (src/http/validation.ts).
import { isUtf8 } from 'node:buffer';
import fp from 'fastify-plugin';
import secureJson from 'secure-json-parse';
import type { App } from '../app-types.ts';
import { ApiError, type ErrorMap } from '../http/errors.ts';
import { MAX_BODY_DEPTH, bodyTextProblems, boundErrorMap, messagesAt, nestedDeeperThan } from '../http/input-rules.ts';
import { validatorCompiler } from '../http/validation.ts';

export default fp(
  async (app: App) => {
    app.setValidatorCompiler(validatorCompiler);
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, raw, done) => {
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
        parsed = secureJson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' });
      } catch (err) {
        done(
          new ApiError(400, 'bad_request', { $: [`The body is not valid JSON: ${(err as Error).message}.`] }),
          undefined,
        );
        return;
      }
      const { problems, total } = bodyTextProblems(parsed);
      if (total === 0) return done(null, parsed);
      const map: ErrorMap = {};
      for (const p of problems) messagesAt(map, p.path).push(p.message);
      done(new ApiError(400, 'bad_request', boundErrorMap(map, total)), undefined);
    });
  },
  { name: 'body-parser', dependencies: ['errors'] },
);
