// Area: webhooks (controller WebHook, v1.2, decisions.md section 5). Every route needs the permission 'Web Hook' and
// the caller's apiKey: a caller sees and changes only its key's webhooks that deliver within its own ledgers
// (scope.ts); any other id is a 404.
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-types.ts';
import { PERMISSIONS } from '../auth/permissions.ts';
import { ErrorMapSchema, errorResponses } from '../http/schemas.ts';
import { notFound } from '../http/errors.ts';
import {
  DeliveryResponse,
  KeyQuery,
  ListQuery,
  TestResponse,
  WebhookChangeBody,
  WebhookCreateBody,
  WebhookIdParams,
  WebhookResponse,
  WebhookTestBody,
} from './schemas.ts';
import { changeWebhook, createWebhook, deleteWebhook, testWebhook, type WebhookContext } from './commands.ts';
import { findWebhook, listAttempts, listWebhooks } from './queries.ts';
import { presentAttempt, presentWebhook } from './presenters.ts';
import type { WebhookAccess } from './scope.ts';

/** Change and Test name the webhook in the body: an Id the caller may not see is a 404 (the OpenAPI lists it). */
const UNKNOWN_ID = { ...ErrorMapSchema, description: 'No webhook with this Id among those the caller may see.' };
const BASE = '/v1.2/WebHook/WebHook';
const TAGS = ['WebHook'];
const auth = { auth: { permissions: [PERMISSIONS.webhook], apiKey: 'required' as const } };

/** The caller: its key and its scope (the key's ledgers within the user's grant). */
const access = (request: FastifyRequest): WebhookAccess => ({ apiKeyId: request.apiKey!.id, scope: request.scope });

/** Bodies are checked by the commands (shape and rules in one 400, shared with the CLI); path and query here. */
function context(request: FastifyRequest, app: App): WebhookContext & WebhookAccess {
  const invalid = request.validationError;
  if (invalid && invalid.validationContext !== 'body') throw invalid;
  return {
    ...access(request),
    ownerUserId: request.principal?.userId ?? null,
    allowPrivate: app.config.webhookAllowPrivate,
    now: app.now(),
  };
}

export default async function webhooksArea(app: App): Promise<void> {
  app.get(
    BASE,
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'List webhooks',
        description:
          "A page of the caller key's webhooks, ordered by Id: those whose ledgers are all within the caller's " +
          '(the key narrowed by the user grant). Credentials and signing secrets are never shown.',
        querystring: ListQuery,
        response: { 200: { type: 'array', items: WebhookResponse }, ...errorResponses },
      },
    },
    async (request) => {
      const rows = await listWebhooks(
        app.db,
        { access: access(request) },
        { limit: request.query.limit ?? 20, offset: request.query.offset ?? 0 },
      );
      return rows.map((r) => presentWebhook(r));
    },
  );

  app.get(
    `${BASE}/:id`,
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Read a webhook',
        params: WebhookIdParams,
        querystring: KeyQuery,
        response: { 200: WebhookResponse, ...errorResponses },
      },
    },
    async (request) => {
      const row = await findWebhook(app.db, request.params.id, access(request));
      if (!row) throw notFound('id', `Webhook ${request.params.id} does not exist.`);
      return presentWebhook(row);
    },
  );

  app.post(
    BASE,
    {
      config: auth,
      attachValidation: true,
      schema: {
        tags: TAGS,
        summary: 'Create a webhook',
        description:
          'Registers a URL for the events of an entity. The URL must be http(s), without user:password, and resolve to ' +
          'public addresses. 201 with the webhook and its signing secret (whsec_...), shown only here.',
        querystring: KeyQuery,
        body: WebhookCreateBody,
        response: { 201: WebhookResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { row, signingSecret } = await createWebhook(app.writes, context(request, app), request.body);
      return reply
        .code(201)
        .header('location', `${request.routeOptions.url}/${row.id}`)
        .send(presentWebhook(row, signingSecret));
    },
  );

  app.put(
    `${BASE}/Change`,
    {
      config: auth,
      attachValidation: true,
      schema: {
        tags: TAGS,
        summary: 'Change a webhook',
        description:
          'Changes the properties present (Id names the webhook). Authentication, when present, replaces the stored one. ' +
          'RotateSecret=true answers a new signing secret, once.',
        querystring: KeyQuery,
        body: WebhookChangeBody,
        response: { 200: WebhookResponse, ...errorResponses, 404: UNKNOWN_ID },
      },
    },
    async (request) => {
      const { row, signingSecret } = await changeWebhook(app.writes, context(request, app), request.body);
      return presentWebhook(row, signingSecret);
    },
  );

  app.post(
    `${BASE}/Test`,
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Send a test delivery',
        description:
          "Sends a signed test event (entityName 'WebHook', id = the webhook's Id) now, logs it, and answers what the receiver said.",
        querystring: KeyQuery,
        body: WebhookTestBody,
        response: { 200: TestResponse, ...errorResponses, 404: UNKNOWN_ID },
      },
    },
    async (request) => {
      const r = await testWebhook(
        { db: app.db, writer: app.writes },
        app.config,
        request.body.Id,
        access(request),
        app.now(),
        request.principal?.userId ?? null,
      );
      return { Success: r.ok, EventId: r.eventId, StatusCode: r.statusCode, Error: r.error, DurationMs: r.durationMs };
    },
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Delete a webhook',
        description:
          'Deletes the webhook with its pending deliveries and log; the same URL can be registered again at once.',
        params: WebhookIdParams,
        querystring: KeyQuery,
        response: { 200: WebhookResponse, ...errorResponses },
      },
    },
    async (request) => presentWebhook(await deleteWebhook(app.writes, request.params.id, access(request))),
  );

  app.get(
    `${BASE}/:id/Deliveries`,
    {
      config: auth,
      schema: {
        tags: TAGS,
        summary: 'Delivery log of a webhook',
        description:
          'Attempts, ordered by Id ascending (the newest on the last page): event id, entity, action, attempt number, time, status code or error, duration.',
        params: WebhookIdParams,
        querystring: ListQuery,
        response: { 200: { type: 'array', items: DeliveryResponse }, ...errorResponses },
      },
    },
    async (request) => {
      const row = await findWebhook(app.db, request.params.id, access(request));
      if (!row) throw notFound('id', `Webhook ${request.params.id} does not exist.`);
      const rows = await listAttempts(app.db, row.id, {
        limit: request.query.limit ?? 20,
        offset: request.query.offset ?? 0,
      });
      return rows.map(presentAttempt);
    },
  );
}
