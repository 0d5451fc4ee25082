// Regenerates src/ops/openapi-examples.json: an example value per component schema of the OpenAPI document, taken
// from the answers of the real server over the demo data (`serve --demo`), and the example request bodies built from
// the same data. `npm run openapi:examples` after adding endpoints or changing the demo data set.
import { writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { buildApp } from '../src/app.ts';
import { stripNulls } from '../src/http/response.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { loadDemoData } from '../src/cli/demo-data.ts';
import { addUser } from '../src/auth/users.ts';
import { createApiKey } from '../src/auth/api-keys.ts';
import { ALL_PERMISSIONS } from '../src/auth/permissions.ts';

type Schema = Record<string, unknown>;
type Operation = { parameters?: { name: string; in: string }[]; responses: Record<string, Schema> };

const OUT = new URL('../src/ops/openapi-examples.json', import.meta.url);
const refName = (schema: Schema | undefined): string | undefined => {
  const ref = (schema?.$ref ?? (schema?.allOf as Schema[] | undefined)?.[0]?.$ref) as string | undefined;
  return ref?.split('/').at(-1);
};

/** Records `value` as the example of the schema's component and of every component nested in it. */
function collect(schema: Schema | undefined, value: unknown, components: Record<string, Schema>, out: Schema) {
  if (!schema || value === null || value === undefined) return;
  const name = refName(schema);
  if (name) {
    // Without nulls: a null where the schema references an object (a legal person's NaturalPerson) is not a valid
    // example of that object's schema.
    if (out[name] === undefined) out[name] = stripNulls(value);
    const component = components[name]!;
    const properties = (component.properties ?? {}) as Record<string, Schema>;
    for (const [key, sub] of Object.entries(properties)) collect(sub, (value as Schema)[key], components, out);
    return;
  }
  if (schema.type === 'array' && Array.isArray(value) && value.length) {
    collect(schema.items as Schema, value[0], components, out);
  }
}

const database = openDatabase('sqlite::memory:');
await migrateToLatest(database);
await loadDemoData(database);
await addUser(database.db, { name: 'examples', password: 'examples-password', permissions: ALL_PERMISSIONS });
const key = await createApiKey(database.db, { name: 'examples', ledgers: 'all' });
const app = await buildApp({
  database,
  config: loadConfig({ NOW: '2026-06-01T10:00:00Z', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '1000' }),
});
const login = await app.inject({
  method: 'POST',
  url: '/oauth2/token',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: 'grant_type=password&username=examples&password=examples-password',
});
const token = login.json<{ access_token: string }>().access_token;
const doc = (await app.inject({ url: '/service/openapi.json' })).json<{
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}>();
const components = doc.components.schemas;
const out: Schema = {};

// Request bodies: a project in the first ledger of the demo data (no Code, so it can be created again and again).
const ledger = await database.db
  .selectFrom('company_codes')
  .select(['id', 'name'])
  .orderBy('id')
  .executeTakeFirstOrThrow();
out.ProjectCreate = {
  Name: 'Dachsanierung Lindenstraße',
  ProjectManager: 'A. Becker',
  Description: `Neueindeckung und Dämmung, ${ledger.name ?? 'Ledger'}`,
  CompanyCodeId: ledger.id,
  ProjectLifeTimeFrom: '2026-07-01',
  ProjectLifeTimeTo: '2027-06-30',
};
out.ProjectChange = { ProjectManager: 'B. Schmitt', ProjectLifeTimeTo: '2027-12-31' };
out.TokenRequest = { grant_type: 'password', username: 'demo', password: 'the password printed by serve --demo' };
out.TokenResponse = { ...login.json<Schema>(), access_token: 'eyJhbGciOi...', refresh_token: 'rt_3f9c...' };
out.HealthStatus = { status: 'ok', database: 'sqlite' };
out.OAuthError = { error: 'invalid_grant', error_description: 'The user name or password is incorrect.' };

const created = await app.inject({
  method: 'POST',
  url: `/service/v1.2/AccountancyProjectEdit/Project?apiKey=${key}`,
  headers: { authorization: `Bearer ${token}` },
  payload: out.ProjectCreate as Schema,
});
if (created.statusCode !== 201) throw new Error(`creating the example project failed: ${created.body}`);
out.ProjectRef = created.json();

// A webhook of the example key (registered, tested and listed), so the WebHook operations have real answers.
const HOOKS = `/service/v1.2/WebHook/WebHook`;
const asKey = { authorization: `Bearer ${token}` };
out.WebhookCreate = {
  Name: 'Projekte an das ERP',
  Url: 'http://127.0.0.1:9/hooks/wohnapi',
  SystemPurpose: 'Test',
  EntityName: 'Project',
  Actions: ['created', 'updated', 'deleted'],
  Authentication: { Type: 'Bearer', Token: 'token-the-receiver-expects' },
};
out.Authentication = (out.WebhookCreate as Schema).Authentication;
const hook = await app.inject({
  method: 'POST',
  url: `${HOOKS}?apiKey=${key}`,
  headers: asKey,
  payload: out.WebhookCreate as Schema,
});
if (hook.statusCode !== 201) throw new Error(`creating the example webhook failed: ${hook.body}`);
const hookId = hook.json<{ Id: number }>().Id;
out.WebhookChange = { Id: hookId, Name: 'Projekte an das ERP (Test)', Active: true };
out.WebhookTest = { Id: hookId };
const tested = await app.inject({
  method: 'POST',
  url: `${HOOKS}/Test?apiKey=${key}`,
  headers: asKey,
  payload: out.WebhookTest as Schema,
});
if (tested.statusCode !== 200) throw new Error(`testing the example webhook failed: ${tested.body}`);
out.WebhookTestResult = tested.json();
const deliveries = await app.inject({ url: `${HOOKS}/${hookId}/Deliveries?apiKey=${key}`, headers: asKey });
if (deliveries.statusCode !== 200) throw new Error(`reading the example deliveries failed: ${deliveries.body}`);
out.WebhookDelivery = deliveries.json<Schema[]>()[0];
out.WebHook = { ...hook.json<Schema>(), SigningSecret: 'whsec_MfKQ9r8GKYqrTLJDbWMI9Rmxzdwb2ai1q5zXPWgD2pE=' };

for (const [path, operations] of Object.entries(doc.paths)) {
  const get = operations.get;
  if (!get || path.includes('{') || !path.startsWith('/service/')) continue;
  const includes = (get.parameters ?? []).filter((p) => p.in === 'query' && p.name.startsWith('include'));
  const query = ['limit=1', ...includes.map((p) => `${p.name}=true`), `apiKey=${key}`].join('&');
  const res = await app.inject({ url: `${path}?${query}`, headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${res.body}`);
  const schema = (get.responses['200']?.content as Record<string, { schema: Schema }> | undefined)?.['application/json']
    ?.schema;
  collect(schema, res.json(), components, out);
}

// Lists below one record (Loans/Loan/{loanId}/RepaymentPlan): the first loan of the demo data that has a plan.
const loan = await database.db
  .selectFrom('loan_repayment_plan_entries')
  .select('loan_id')
  .orderBy('loan_id')
  .executeTakeFirstOrThrow();
for (const [path, operations] of Object.entries(doc.paths)) {
  const get = operations.get;
  if (!get || !path.includes('{loanId}') || !path.startsWith('/service/')) continue;
  const url = `${path.replace('{loanId}', String(loan.loan_id))}?limit=1&apiKey=${key}`;
  const res = await app.inject({ url, headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${res.body}`);
  const schema = (get.responses['200']?.content as Record<string, { schema: Schema }> | undefined)?.['application/json']
    ?.schema;
  collect(schema, res.json(), components, out);
}

await app.close();
await database.close();
const sorted = Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(OUT, await format(JSON.stringify(sorted), { parser: 'json', ...(await resolveConfig(OUT)) }));
const missing = Object.keys(components).filter((name) => out[name] === undefined && components[name]!.properties);
console.log(`${Object.keys(sorted).length} examples written to src/ops/openapi-examples.json`);
if (missing.length) console.log(`no example in the demo data for: ${missing.join(', ')}`);
