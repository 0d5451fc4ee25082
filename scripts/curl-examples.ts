// docs/examples.md: a curl example for every operation of the served OpenAPI document (so it cannot drift from the
// route table), in an order that runs as one shell session against `serve --demo`: log in, read every list, create,
// read and change the created record, its actions, delete it. `npm run examples:generate` rewrites the file;
// test/examples.test.ts runs every command against a demo server and checks the file is current.
import { writeFileSync } from 'node:fs';
import { servedDocument } from './openapi-document.ts';
import { singular } from '../src/ops/openapi-operations.ts';

type Schema = Record<string, unknown>;
interface Operation {
  operationId: string;
  summary?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { example?: unknown; schema?: Schema }> };
  responses: Record<string, unknown>;
}

export interface CurlExample {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  /** The shell command; it uses $BASE, $TOKEN, $KEY and the ids captured by earlier commands. */
  command: string;
}

export const EXAMPLES_FILE = new URL('../docs/examples.md', import.meta.url).pathname;

/** The shell variable holding the id a path parameter names: {id} of /Project/{id} and {projectId} -> PROJECT_ID. */
const idVariable = (path: string) => {
  const segment = path.split('/').filter((s) => s && !s.startsWith('{'))[3] ?? 'RECORD';
  return `${singular(segment)
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toUpperCase()}_ID`;
};

/** Lists, then creates, reads by id, changes, actions, deletes: each step can use what the earlier ones made. */
function rank(method: string, path: string, op: Operation): number {
  const byId = path.includes('{');
  if (method === 'get') return byId ? 3 : 1;
  if (method === 'post') return byId ? 5 : op.responses['201'] ? 2 : 2.5; // creates first, then actions (…/Test)
  if (method === 'put' || method === 'patch') return 4;
  return 6;
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function command(method: string, path: string, op: Operation): string {
  const secured = (op.security ?? []).length > 0;
  const query: string[] = [];
  if (method === 'get' && op.parameters?.some((p) => p.name === 'limit')) query.push('limit=2');
  if (secured) query.push('apiKey=$KEY');
  const url = `$BASE${path.replace(/\{[^}]+\}/g, () => `$${idVariable(path)}`)}${query.length ? `?${query.join('&')}` : ''}`;
  const parts = ['curl -sS --fail-with-body'];
  if (method !== 'get') parts.push(`-X ${method.toUpperCase()}`);
  if (secured) parts.push('-H "Authorization: Bearer $TOKEN"');
  const json = op.requestBody?.content['application/json'];
  if (json) {
    const schema = json.schema ?? {};
    const body = (json.example ?? (schema.type === 'array' ? [] : {})) as unknown;
    // A body naming the record by Id (…/WebHook/Change, …/WebHook/Test) uses the id captured when it was created.
    const named = body !== null && typeof body === 'object' && !Array.isArray(body) && 'Id' in body;
    const text = JSON.stringify(named ? { ...body, Id: '__ID__' } : body);
    parts.push(
      `-H 'Content-Type: application/json' -d ${text
        .split('"__ID__"')
        .map(quote)
        .join(`"$${idVariable(path)}"`)}`,
    );
  }
  parts.push(`"${url}"`);
  const curl = parts.join(' ');
  if (method === 'post' && !path.includes('{') && op.responses['201'])
    return `${idVariable(`${path}/{id}`)}=$(${curl} | sed -E 's/.*"Id":([0-9]+).*/\\1/') && echo "created $${idVariable(`${path}/{id}`)}"`;
  return curl;
}

/**
 * For a read by id whose record no earlier example creates (…/Person/{id}, …/Loan/{loanId}/RepaymentPlan), a command
 * that takes the id of the first record of the matching list (…/Persons, …/Loan) first; otherwise the command as it is.
 */
function withIdFromList(paths: Record<string, Record<string, Operation>>, method: string, path: string, curl: string) {
  // …/Person/{id}, or a list below one record (…/Loan/{loanId}/RepaymentPlan): the list before the parameter
  const at = path.indexOf('/{');
  if (method !== 'get' || at < 0) return curl;
  const base = path.slice(0, at);
  if (paths[base]?.post?.responses['201']) return curl;
  const list = [base, `${base}s`].find((p) => paths[p]?.get);
  if (!list) return curl;
  const take = `curl -sS --fail-with-body -H "Authorization: Bearer $TOKEN" "$BASE${list}?limit=1&apiKey=$KEY"`;
  const sed = 'sed -E \'s/^\\[\\{"Id":([0-9]+).*/\\1/\'';
  return `${idVariable(path)}=$(${take} | ${sed}) && ${curl}`;
}

export async function curlExamples(): Promise<CurlExample[]> {
  const doc = (await servedDocument()) as { paths: Record<string, Record<string, Operation>> };
  const list: (CurlExample & { rank: number })[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (path === '/oauth2/token') continue; // the login step of the session, written out below
      list.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? '',
        command: withIdFromList(doc.paths, method, path, command(method, path, op)),
        rank: rank(method, path, op),
      });
    }
  }
  return list.sort((a, b) => a.rank - b.rank).map(({ rank: _rank, ...example }) => example);
}

export const LOGIN = [
  'BASE=http://localhost:8080 USER=demo PASSWORD=... KEY=wk_...   # printed by `wohnapi serve --demo`',
  'TOKEN=$(curl -sS --fail-with-body "$BASE/oauth2/token" -d grant_type=password -d "username=$USER" --data-urlencode "password=$PASSWORD" | sed -E \'s/.*"access_token":"([^"]+)".*/\\1/\')',
];

export async function examplesMarkdown(): Promise<string> {
  const lines = [
    '# curl examples',
    '',
    'Generated from the OpenAPI document by `npm run examples:generate` (scripts/curl-examples.ts); do not edit.',
    'Every endpoint, in an order that works as one shell session against `WEBHOOK_ALLOW_PRIVATE=true wohnapi serve --demo`',
    '(test/examples.test.ts runs them): log in, read the lists, create a project, read, change, assign and remove,',
    'delete it. The webhook examples register a receiver at 127.0.0.1, a private address, which a server accepts only',
    'with `WEBHOOK_ALLOW_PRIVATE=true` (docs/webhooks.md, "SSRF guard"); without it they answer 400 on `Url`.',
    '',
    '## Log in',
    '',
    '```sh',
    ...LOGIN,
    '```',
    '',
  ];
  for (const example of await curlExamples()) {
    lines.push(`## ${example.operationId}`, '', `${example.method} \`${example.path}\`: ${example.summary}`, '');
    lines.push('```sh', example.command, '```', '');
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(EXAMPLES_FILE, await examplesMarkdown());
  console.log(`wrote ${EXAMPLES_FILE}`);
}
