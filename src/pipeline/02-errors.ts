// Step 2 (at any point of the request): every failure becomes the documented answer, a status and an error map
// { key: [messages] } (src/http/errors.ts); unknown routes get 404 with an error map; a bug gets 500 without internals.
import fp from 'fastify-plugin';
import type { App } from '../app-types.ts';
import { errorHandler, notFoundHandler } from '../http/errors.ts';

export default fp(
  async (app: App) => {
    app.setErrorHandler(errorHandler);
    app.setNotFoundHandler(notFoundHandler);
  },
  { name: 'errors' },
);
