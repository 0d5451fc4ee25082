// wohnapi webhook add|list|remove|test|deliveries|retry: operators manage every key's webhooks (the API lets a client
// manage its own key's). Secrets are never printed, except the signing secret once, on add.
import type { Command } from 'commander';
import { CommandError } from '../auth/users.ts';
import { loadConfig } from '../config.ts';
import type { ListedWebhook } from '../webhooks/queries.ts';
import { ENTITY_NAMES } from '../webhooks/model.ts';
import type { Executor } from '../db/database.ts';
import { UsageError } from './errors.ts';
import { collect, out, parseCount, parseId, withDatabase } from './context.ts';

/** The webhook modules, loaded when a webhook command runs: not for every other command (they took ~0.1 s to load). */
const load = async () => ({
  ...(await import('../webhooks/commands.ts')),
  ...(await import('../webhooks/queries.ts')),
});

/** An API error as one line for the operator: its messages, flattened, and what to do next. */
async function operator<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const { ApiError } = await import('../http/errors.ts');
    if (err instanceof ApiError) {
      const next =
        err.status === 404
          ? "see the webhooks with 'wohnapi webhook list'"
          : "correct the value and run the command again (options: 'wohnapi webhook add --help')";
      const said = Object.values(err.errors).flat().join(' ') || err.code;
      throw new CommandError(`${said.replace(/\.$/, '')}; ${next}`);
    }
    throw err;
  }
}

async function keyId(db: Executor, name: string): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select('id')
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw new CommandError(`no active API key named '${name}'; see the keys with 'wohnapi apikey list'`);
  return row.id;
}

interface AddOptions {
  key: string;
  url: string;
  entity: string;
  name?: string;
  purpose?: string;
  action?: string[];
  inactive?: boolean;
  auth?: string;
  token?: string;
  user?: string;
  password?: string;
  headerName?: string;
  headerValue?: string;
}

function authOf(o: AddOptions): Record<string, string> | undefined {
  if (!o.auth) {
    if (o.token ?? o.user ?? o.password ?? o.headerName ?? o.headerValue)
      throw new UsageError(
        'give --auth bearer|basic|custom with its credentials (--token, --user and --password, or --header-name and --header-value)',
      );
    return undefined;
  }
  const type = { none: 'None', bearer: 'Bearer', basic: 'Basic', custom: 'Custom' }[o.auth.toLowerCase()];
  if (!type) throw new UsageError(`unknown --auth '${o.auth}' (none, bearer, basic, custom)`);
  const auth: Record<string, string> = { Type: type };
  const set = (k: string, v?: string) => v !== undefined && (auth[k] = v);
  set('Token', o.token);
  set('User', o.user);
  set('Password', o.password);
  set('HeaderName', o.headerName);
  set('HeaderValue', o.headerValue);
  return auth;
}

/** Whether the webhook is delivered to: inactive, or active but not delivered (revoked key, disabled owner). */
function status(r: ListedWebhook): string {
  if (r.key_revoked_at !== null) return 'inactive (key revoked)';
  if (r.user_disabled === 1) return 'inactive (owner disabled)';
  return r.active ? 'active' : 'inactive';
}

export function registerWebhookCommands(program: Command): void {
  const webhook = program
    .command('webhook')
    .description('manage webhooks: URLs called with signed events of an API key (see docs/webhooks.md)');

  webhook
    .command('add')
    .description(
      'register a webhook for an API key; prints its id and, once, alone on the last line, its signing secret',
    )
    .requiredOption('--key <apikey-name>', 'the API key the webhook belongs to (its ledgers scope the events)')
    .requiredOption('--url <url>', 'absolute http(s) URL the events are POSTed to')
    .requiredOption('--entity <name>', `${ENTITY_NAMES.slice(0, -1).join(', ')} or All`)
    .option('--name <name>', 'a name for the webhook (default: the URL host)')
    .option('--purpose <purpose>', 'Echt (default) or Test')
    .option('--action <action>', 'created, updated or deleted; repeatable (default: all three)', collect)
    .option('--inactive', 'register it inactive')
    .option('--auth <type>', 'callback authentication: none, bearer, basic, custom')
    .option('--token <token>', 'bearer token')
    .option('--user <user>', 'basic user')
    .option('--password <password>', 'basic password')
    .option('--header-name <name>', 'custom header name')
    .option('--header-value <value>', 'custom header value')
    .action(async (o: AddOptions) => {
      const body: Record<string, unknown> = { Url: o.url, EntityName: o.entity };
      if (o.name !== undefined) body.Name = o.name;
      if (o.purpose !== undefined) body.SystemPurpose = o.purpose;
      if (o.action?.length) body.Actions = o.action;
      if (o.inactive) body.Active = false;
      const auth = authOf(o);
      if (auth) body.Authentication = auth;
      const { createWebhook } = await load();
      const { row, signingSecret } = await withDatabase(async ({ db }, config) =>
        operator(async () =>
          createWebhook(
            db,
            {
              apiKeyId: await keyId(db, o.key),
              ownerUserId: null,
              allowPrivate: config.webhookAllowPrivate,
              now: new Date(),
            },
            body,
          ),
        ),
      );
      out(`webhook ${row.id} created for key '${o.key}': ${row.entity_name} ${row.actions} -> ${row.url}`);
      out('Signing secret (verify webhook-signature with it; it is not shown again):');
      out(signingSecret);
    });

  webhook
    .command('list')
    .description('list webhooks (never their credentials or secrets)')
    .option('--key <apikey-name>', 'only the webhooks of this API key')
    .action(async (o: { key?: string }) => {
      const { listWebhooks } = await load();
      const rows = await withDatabase(async ({ db }) =>
        listWebhooks(db, o.key === undefined ? {} : { apiKeyId: await keyId(db, o.key) }),
      );
      out(['ID', 'KEY', 'NAME', 'URL', 'ENTITY', 'ACTIONS', 'PURPOSE', 'STATUS', 'AUTH'].join('\t'));
      for (const r of rows)
        out(
          [r.id, r.key_name, r.name, r.url, r.entity_name, r.actions, r.system_purpose, status(r), r.auth_type].join(
            '\t',
          ),
        );
    });

  webhook
    .command('remove <id>')
    .description('delete a webhook with its pending deliveries and log')
    .action(async (id: string) => {
      const { deleteWebhook } = await load();
      const row = await withDatabase(({ db }) => operator(() => deleteWebhook(db, parseId(id))));
      out(`webhook ${row.id} removed (${row.url})`);
    });

  webhook
    .command('test <id>')
    .description('send a signed test delivery now and print what the receiver answered (exit 1 unless 2xx)')
    .action(async (id: string) => {
      const config = loadConfig();
      const { testWebhook } = await load();
      const r = await withDatabase(({ db }) =>
        operator(() => testWebhook({ db, writer: db }, config, parseId(id), undefined, new Date())),
      );
      if (!r.ok)
        throw new CommandError(
          `test delivery ${r.eventId} failed: ${r.statusCode !== null ? `HTTP ${r.statusCode}` : r.error} (${r.durationMs} ms); make the receiver answer 2xx, then run 'wohnapi webhook test ${id}' again`,
        );
      out(`test delivery ${r.eventId}: HTTP ${r.statusCode} in ${r.durationMs} ms`);
    });

  webhook
    .command('deliveries <id>')
    .description('the delivery log of a webhook, newest first')
    .option('--limit <n>', 'how many attempts, 1 to 1000', '20')
    .action(async (id: string, o: { limit: string }) => {
      const limit = parseCount('--limit', o.limit, 1000);
      const { findWebhook, listAttempts } = await load();
      const rows = await withDatabase(async ({ db }) => {
        const hook = await findWebhook(db, parseId(id));
        if (!hook) throw new CommandError(`no webhook ${id}; see the webhooks with 'wohnapi webhook list'`);
        return listAttempts(db, hook.id, { limit, offset: 0 }, 'desc');
      });
      out(['DELIVERY', 'EVENT', 'ENTITY', 'ACTION', 'ATTEMPT', 'TIME', 'RESULT', 'MS', 'STATUS'].join('\t'));
      for (const r of rows)
        out(
          [
            r.delivery_id,
            r.event_id,
            `${r.entity_type} ${r.entity_id}`,
            r.action,
            r.attempt,
            r.attempted_at,
            r.status_code !== null ? `HTTP ${r.status_code}` : (r.error ?? ''),
            r.duration_ms,
            r.status,
          ].join('\t'),
        );
    });

  webhook
    .command('retry <delivery-or-event-id>')
    .description(
      'deliver a failed delivery again (by delivery id, or the failed deliveries of an event id); delivered ones are not sent again',
    )
    .action(async (id: string) => {
      const { retryDeliveries } = await load();
      const n = await withDatabase(({ db }) => retryDeliveries(db, id, new Date()));
      if (n === 0)
        throw new CommandError(
          `no failed delivery '${id}' to retry; see them with 'wohnapi webhook deliveries <webhook id>'`,
        );
      out(`${n} deliver${n === 1 ? 'y' : 'ies'} scheduled again`);
    });
}
