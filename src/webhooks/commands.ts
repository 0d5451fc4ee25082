// Webhook writes: create, change, delete, test, retry. Each validates every field (one 400 with the error map),
// checks the URL against the SSRF guard (before its transaction: resolving a name may take a while) and writes in
// one transaction. Shared by the API and the CLI.
import type { Config } from '../config.ts';
import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';
import { inTransaction, type Writer } from '../db/write-queue.ts';
import { ErrorCollector, badRequest, notFound } from '../http/errors.ts';
import { bodyErrors } from '../http/validation.ts';
import { ACTIONS, payload } from './model.ts';
import { WebhookChangeBody, WebhookCreateBody, type WebhookChange, type WebhookCreate } from './schemas.ts';
import { MAX_URL_LENGTH, UrlRefused, checkTarget } from './ssrf.ts';
import { newSigningSecret } from './signing.ts';
import { send, type SendResult } from './sender.ts';
import { eventId } from '../events/event-id.ts';
import { findWebhook, type WebhookRow } from './queries.ts';
import type { WebhookAccess } from './scope.ts';

/** Who registers: the owning key, the user (whose ledger grant narrows the key's), the rules of this server. A change
 *  also needs the caller's access (scope.ts: which webhooks it may see). */
export interface WebhookContext {
  apiKeyId?: number;
  ownerUserId: number | null;
  allowPrivate: boolean;
  now: Date;
}

/** Headers a custom authentication may not set: the delivery's own, and those that change how HTTP carries it. */
const RESERVED_HEADERS =
  /^(host|content-.*|transfer-encoding|connection|keep-alive|upgrade|te|trailer|expect|user-agent|proxy-connection|webhook-.*)$/i;

type Auth = NonNullable<WebhookCreate['Authentication']>;

const CHAR_NAMES: Record<string, string> = { '\r': 'a carriage return', '\n': 'a line feed', '\0': 'a NUL character' };

/** What makes `value` unfit for an HTTP header line: CR, LF, other control characters, and characters beyond ASCII
 *  (the sender writes header values as UTF-8, which a receiver reads as Latin-1: they would not arrive as sent).
 *  Names the first offending character, never the (secret) value. */
function headerProblem(field: string, value: string | undefined): string | undefined {
  const bad = value === undefined ? undefined : /[^\t\x20-\x7e]/u.exec(value)?.[0];
  if (bad === undefined) return undefined;
  const code = `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const what = CHAR_NAMES[bad] ?? (bad.codePointAt(0)! < 0x80 ? 'a control character' : 'a character beyond ASCII');
  return (
    `Authentication.${field} contains ${what} (${code}), which an HTTP header cannot carry as it is; ` +
    'use visible ASCII characters, spaces and tabs only.'
  );
}

function checkAuth(auth: Auth | undefined, errors: ErrorCollector): void {
  if (!auth) return;
  const needs: Record<Auth['Type'], Array<keyof Auth>> = {
    None: [],
    Bearer: ['Token'],
    Basic: ['User', 'Password'],
    Custom: ['HeaderName', 'HeaderValue'],
  };
  const wanted = needs[auth.Type];
  for (const field of wanted)
    if (auth[field] === undefined)
      errors.add(`Authentication.${field}`, `Authentication.${field} is required for the type '${auth.Type}'.`);
  for (const field of ['Token', 'User', 'Password', 'HeaderName', 'HeaderValue'] as const)
    if (auth[field] !== undefined && !wanted.includes(field))
      errors.add(`Authentication.${field}`, `Authentication.${field} is not used with the type '${auth.Type}'.`);
  if (auth.Type === 'Basic' && auth.User?.includes(':'))
    errors.add('Authentication.User', 'A Basic user name must not contain a colon.');
  if (auth.Type === 'Custom' && auth.HeaderName && RESERVED_HEADERS.test(auth.HeaderName))
    errors.add('Authentication.HeaderName', `The header '${auth.HeaderName}' is set by the delivery itself.`);
  // Sent as header values as they are (Basic credentials are base64-encoded, so any character is safe there).
  for (const field of ['Token', 'HeaderValue'] as const) {
    const problem = wanted.includes(field) ? headerProblem(field, auth[field]) : undefined;
    if (problem) errors.add(`Authentication.${field}`, problem);
  }
}

function authColumns(auth: Auth | undefined) {
  if (!auth || auth.Type === 'None') return { auth_type: 'None', auth_name: null, auth_secret: null };
  if (auth.Type === 'Bearer') return { auth_type: 'Bearer', auth_name: null, auth_secret: auth.Token ?? null };
  if (auth.Type === 'Basic')
    return { auth_type: 'Basic', auth_name: auth.User ?? null, auth_secret: auth.Password ?? null };
  return { auth_type: 'Custom', auth_name: auth.HeaderName ?? null, auth_secret: auth.HeaderValue ?? null };
}

/**
 * Every problem of the body in one 400: the route schema's messages, the authentication rules (when the
 * Authentication object has the right shape) and the URL's target (when the Url is a well-formed URL; resolved).
 */
async function checkBody<T>(schema: object, body: unknown, allowPrivate: boolean): Promise<T> {
  const errors = new ErrorCollector();
  const shape = bodyErrors(schema, body) ?? {};
  for (const [key, messages] of Object.entries(shape)) for (const m of messages) errors.add(key, m);
  const shaped = (field: string) =>
    !Object.keys(shape).some((k) => k === '$' || k === field || k.startsWith(`${field}.`));
  const value = body as T & { Url?: string; Authentication?: Auth };
  if (shaped('Authentication')) checkAuth(value.Authentication, errors);
  if (shaped('Url') && value.Url !== undefined) {
    try {
      await checkTarget(value.Url, allowPrivate);
    } catch (err) {
      if (!(err instanceof UrlRefused)) throw err;
      errors.add('Url', err.message);
    }
  }
  // stored as the URL standard writes it (scheme and host in lower case, no default port, dot segments resolved,
  // IPv4 in dotted decimal), so one receiver is one URL for the duplicate check
  if (errors.errors.Url === undefined && value.Url !== undefined) {
    value.Url = new URL(value.Url).href;
    if (value.Url.length > MAX_URL_LENGTH)
      errors.add(
        'Url',
        `The URL is longer than ${MAX_URL_LENGTH} characters as the URL standard writes it (non-ASCII characters are percent-encoded).`,
      );
  }
  errors.throwIfAny();
  return value;
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

const duplicate = (url: string, entity: string) =>
  badRequest(
    'Url',
    `An active webhook of this API key that you registered already calls '${url}' for the entity '${entity}'.`,
  );

async function guardDuplicate<T>(url: string, entity: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate(url, entity);
    throw err;
  }
}

/** An active webhook of the same key AND the same registrant (user, or the operator's CLI: none) with this URL and
 *  entity. Webhooks of other registrants of the key may be hidden from the caller (docs/webhooks.md, "Who sees a
 *  webhook"), so they do not count: a refusal naming them would tell the caller they exist. */
async function activeTwin(
  db: Executor,
  apiKeyId: number,
  ownerUserId: number | null,
  url: string,
  entity: string,
  except = 0,
) {
  return db
    .selectFrom('webhooks')
    .select('id')
    .where('api_key_id', '=', apiKeyId)
    .where(sql<number>`coalesce(owner_user_id, 0)`, '=', ownerUserId ?? 0)
    .where('url', '=', url)
    .where('entity_name', '=', entity)
    .where('active', '=', 1)
    .where('id', '!=', except)
    .executeTakeFirst();
}

export async function createWebhook(
  db: Writer,
  ctx: WebhookContext & { apiKeyId: number },
  body: unknown,
): Promise<{ row: WebhookRow; signingSecret: string }> {
  const input = await checkBody<WebhookCreate>(WebhookCreateBody, body, ctx.allowPrivate);
  const entity = input.EntityName ?? 'All';
  const active = input.Active ?? true;
  const signingSecret = newSigningSecret();
  const stamp = ctx.now.toISOString();
  return inTransaction(db, async (trx) => {
    if (active && (await activeTwin(trx, ctx.apiKeyId, ctx.ownerUserId, input.Url, entity)))
      throw duplicate(input.Url, entity);
    const row = await guardDuplicate(input.Url, entity, () =>
      trx
        .insertInto('webhooks')
        .values({
          api_key_id: ctx.apiKeyId,
          owner_user_id: ctx.ownerUserId,
          name: input.Name ?? new URL(input.Url).host,
          url: input.Url,
          system_purpose: input.SystemPurpose ?? 'Echt',
          entity_name: entity,
          actions: (input.Actions ?? [...ACTIONS]).join(','),
          active: active ? 1 : 0,
          ...authColumns(input.Authentication),
          signing_secret: signingSecret,
          created_at: stamp,
          updated_at: stamp,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return { row, signingSecret };
  });
}

export async function changeWebhook(
  db: Writer,
  ctx: WebhookContext & WebhookAccess,
  body: unknown,
): Promise<{ row: WebhookRow; signingSecret?: string }> {
  const input = await checkBody<WebhookChange>(WebhookChangeBody, body, ctx.allowPrivate);
  const signingSecret = input.RotateSecret ? newSigningSecret() : undefined;
  return inTransaction(db, async (trx) => {
    const current = await findWebhook(trx, input.Id, ctx);
    if (!current) throw notFound('Id', `Webhook ${input.Id} does not exist.`);
    const url = input.Url ?? current.url;
    const entity = input.EntityName ?? current.entity_name;
    const active = input.Active ?? current.active === 1;
    if (active && (await activeTwin(trx, ctx.apiKeyId, current.owner_user_id, url, entity, current.id)))
      throw duplicate(url, entity);
    const row = await guardDuplicate(url, entity, () =>
      trx
        .updateTable('webhooks')
        .set({
          name: input.Name ?? current.name,
          url,
          system_purpose: input.SystemPurpose ?? current.system_purpose,
          entity_name: entity,
          actions: input.Actions ? input.Actions.join(',') : current.actions,
          active: active ? 1 : 0,
          ...(input.Authentication ? authColumns(input.Authentication) : {}),
          ...(signingSecret ? { signing_secret: signingSecret } : {}),
          updated_at: ctx.now.toISOString(),
        })
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return { row, signingSecret };
  });
}

/** Deletes the webhook and its pending deliveries and log: gone, the same URL may be registered again at once. */
export async function deleteWebhook(db: Writer, id: number, access?: WebhookAccess): Promise<WebhookRow> {
  return inTransaction(db, async (trx) => {
    const row = await findWebhook(trx, id, access);
    if (!row) throw notFound('id', `Webhook ${id} does not exist.`);
    await trx.deleteFrom('webhooks').where('id', '=', row.id).execute();
    return row;
  });
}

export interface TestResult extends SendResult {
  eventId: string;
}

/** Sends a test delivery now (entityName 'WebHook', the webhook's id), logs it and answers what the receiver said. */
export async function testWebhook(
  io: { db: Executor; writer: Writer },
  config: Readonly<Config>,
  id: number,
  access: WebhookAccess | undefined,
  now: Date,
  /** Who asked for the test (the API's caller; null for the CLI): the delivery's userId. */
  userId: number | null = null,
): Promise<TestResult> {
  const row = await findWebhook(io.db, id, access);
  if (!row) throw notFound('Id', `Webhook ${id} does not exist.`);
  const event = {
    eventId: eventId(),
    entityType: 'WebHook',
    entityId: row.id,
    action: 'updated',
    userId,
    createdAt: now.toISOString(),
  };
  const attemptedAt = new Date().toISOString();
  const result = await send(
    {
      url: row.url,
      eventId: event.eventId,
      body: payload(event, config),
      signingSecret: row.signing_secret,
      auth: { type: row.auth_type, name: row.auth_name, secret: row.auth_secret },
    },
    { allowPrivate: config.webhookAllowPrivate, timeoutMs: config.webhookTimeoutMs },
  );
  await inTransaction(io.writer, async (trx) => {
    const delivery = await trx
      .insertInto('webhook_deliveries')
      .values({
        webhook_id: row.id,
        event_id: event.eventId,
        entity_type: event.entityType,
        entity_id: event.entityId,
        action: event.action,
        user_id: userId,
        event_created_at: event.createdAt,
        status: result.ok ? 'delivered' : 'failed',
        attempts: 1,
        next_attempt_at: attemptedAt,
        last_status_code: result.statusCode,
        last_error: result.error,
        created_at: attemptedAt,
        finished_at: attemptedAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: delivery.id,
        webhook_id: row.id,
        attempt: 1,
        attempted_at: attemptedAt,
        status_code: result.statusCode,
        error: result.error,
        duration_ms: result.durationMs,
      })
      .execute();
  });
  return { ...result, eventId: event.eventId };
}

/** Schedules failed deliveries again, now, from attempt 1: by delivery id, or the failed ones of an event id.
 *  Delivered (and pending) deliveries are left alone. Answers how many were scheduled. */
export async function retryDeliveries(db: Writer, idOrEvent: string, now: Date): Promise<number> {
  return inTransaction(db, async (trx) => {
    let q = trx
      .updateTable('webhook_deliveries')
      .set({
        status: 'pending',
        attempts: 0,
        next_attempt_at: now.toISOString(),
        lease_owner: null,
        lease_until: null,
        finished_at: null,
      })
      .where('status', '=', 'failed');
    q = /^[0-9]{1,10}$/.test(idOrEvent) ? q.where('id', '=', Number(idOrEvent)) : q.where('event_id', '=', idOrEvent);
    const res = await q.executeTakeFirst();
    return Number(res.numUpdatedRows);
  });
}
