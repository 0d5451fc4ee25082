// The Postman collection (v2.1) and environment, generated from the served OpenAPI document:
// `npm run postman:generate` writes clients/postman/. One folder per tag, every operation with its example body;
// a collection-level pre-request script logs in with the password grant (environment: baseUrl, username,
// password, apiKey) and keeps the token until shortly before it expires.
import { mkdirSync, writeFileSync } from 'node:fs';
import { servedDocument } from './openapi-document.ts';

type Schema = Record<string, unknown>;
interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { example?: unknown; schema?: Schema }> };
}

export const POSTMAN_DIR = new URL('../clients/postman/', import.meta.url).pathname;

const LOGIN_SCRIPT = [
  '// Logs in with the password grant of the environment when there is no token or it is about to expire.',
  "const expires = Number(pm.environment.get('accessTokenExpires') || 0);",
  "if (pm.request.url.getPath() !== '/oauth2/token' && (!pm.environment.get('accessToken') || Date.now() > expires)) {",
  '  pm.sendRequest({',
  "    url: pm.environment.get('baseUrl') + '/oauth2/token',",
  "    method: 'POST',",
  '    body: {',
  "      mode: 'urlencoded',",
  '      urlencoded: [',
  "        { key: 'grant_type', value: 'password' },",
  "        { key: 'username', value: pm.environment.get('username') },",
  "        { key: 'password', value: pm.environment.get('password') },",
  '      ],',
  '    },',
  '  }, (err, res) => {',
  "    if (err || res.code !== 200) throw new Error('login failed: ' + (err || res.text()));",
  '    const tokens = res.json();',
  "    pm.environment.set('accessToken', tokens.access_token);",
  "    pm.environment.set('accessTokenExpires', String(Date.now() + (tokens.expires_in - 30) * 1000));",
  '  });',
  '}',
];

function request(method: string, path: string, op: Operation) {
  const secured = (op.security ?? []).length > 0;
  const query = (op.parameters ?? [])
    .filter((p) => p.in === 'query')
    .map((p) => ({ key: p.name, value: '', description: p.description, disabled: true }));
  if (secured) query.unshift({ key: 'apiKey', value: '{{apiKey}}', description: 'API key', disabled: false });
  const variable = (op.parameters ?? [])
    .filter((p) => p.in === 'path')
    .map((p) => ({ key: p.name, value: '1', description: p.description }));
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/^\{(.+)\}$/, ':$1'));
  const json = op.requestBody?.content['application/json'];
  const form = op.requestBody?.content['application/x-www-form-urlencoded'];
  const body = json
    ? {
        mode: 'raw',
        raw: JSON.stringify(json.example ?? (json.schema?.type === 'array' ? [] : {}), null, 2),
        options: { raw: { language: 'json' } },
      }
    : form
      ? {
          mode: 'urlencoded',
          urlencoded: [
            { key: 'grant_type', value: 'password' },
            { key: 'username', value: '{{username}}' },
            { key: 'password', value: '{{password}}' },
          ],
        }
      : undefined;
  return {
    name: op.summary ?? op.operationId,
    request: {
      method: method.toUpperCase(),
      description: `${op.operationId}: ${op.description ?? ''}`.trim(),
      ...(secured ? {} : { auth: { type: 'noauth' } }),
      header: json ? [{ key: 'Content-Type', value: 'application/json' }] : [],
      ...(body ? { body } : {}),
      url: {
        raw: `{{baseUrl}}/${segments.join('/')}`,
        host: ['{{baseUrl}}'],
        path: segments,
        ...(query.length ? { query } : {}),
        ...(variable.length ? { variable } : {}),
      },
    },
  };
}

export async function postmanFiles(): Promise<Record<string, unknown>> {
  const doc = (await servedDocument()) as {
    info: { title: string; version: string; description: string };
    paths: Record<string, Record<string, Operation>>;
  };
  const folders = new Map<string, unknown[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = op.tags?.[0] ?? 'Other';
      if (!folders.has(tag)) folders.set(tag, []);
      folders.get(tag)!.push(request(method, path, op));
    }
  }
  const collection = {
    info: {
      name: `wohnapi ${doc.info.version}`,
      description: doc.info.description,
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{accessToken}}', type: 'string' }] },
    event: [{ listen: 'prerequest', script: { type: 'text/javascript', exec: LOGIN_SCRIPT } }],
    item: [...folders].sort(([a], [b]) => a.localeCompare(b)).map(([name, item]) => ({ name, item })),
  };
  const environment = {
    name: 'wohnapi (local demo)',
    values: [
      { key: 'baseUrl', value: 'http://localhost:8080', enabled: true },
      { key: 'username', value: 'demo', enabled: true },
      { key: 'password', value: '', type: 'secret', enabled: true },
      { key: 'apiKey', value: '', type: 'secret', enabled: true },
      { key: 'accessToken', value: '', type: 'secret', enabled: true },
      { key: 'accessTokenExpires', value: '0', enabled: true },
    ],
  };
  return { 'wohnapi.postman_collection.json': collection, 'wohnapi.postman_environment.json': environment };
}

export const fileText = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(POSTMAN_DIR, { recursive: true });
  for (const [name, value] of Object.entries(await postmanFiles()))
    writeFileSync(`${POSTMAN_DIR}${name}`, fileText(value));
  console.log(`wrote ${POSTMAN_DIR}`);
}
