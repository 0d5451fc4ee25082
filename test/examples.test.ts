// docs/examples.md and the Postman collection are generated from the served document and current; every curl example
// runs, in the file's order, as one shell session against `serve --demo`; every list request of the collection works.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { curlExamples, examplesMarkdown, EXAMPLES_FILE, LOGIN } from '../scripts/curl-examples.ts';
import { fileText, POSTMAN_DIR, postmanFiles } from '../scripts/postman.ts';
import { startDemoServer, type DemoServer } from './support/demo-server.ts';

const exec = promisify(execFile);

interface PostmanRequest {
  method: string;
  auth?: { type: string };
  url: { path: string[]; query?: { key: string; value: string; disabled: boolean }[] };
}
type Folder = { name: string; item: { name: string; request: PostmanRequest }[] };

describe('curl examples and the Postman collection', () => {
  let server: DemoServer;
  before(async () => {
    // The webhook example registers a receiver on the loopback address (nothing listens there: its test delivery fails
    // fast), which only a server that allows private addresses accepts.
    server = await startDemoServer({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000' });
  });
  after(() => server.stop());

  it('docs/examples.md and clients/postman are current (else: npm run examples:generate, npm run postman:generate)', async () => {
    assert.equal(readFileSync(EXAMPLES_FILE, 'utf8'), await examplesMarkdown());
    for (const [name, value] of Object.entries(await postmanFiles()))
      assert.equal(readFileSync(`${POSTMAN_DIR}${name}`, 'utf8'), fileText(value), name);
  });

  it('every curl example succeeds against the demo server, in order', async () => {
    const examples = await curlExamples();
    assert.ok(examples.length >= 49);
    const script = [
      `BASE=${server.base} USER=${server.user} PASSWORD='${server.password}' KEY=${server.key}`,
      LOGIN[1],
      ...examples.flatMap((e) => [`${e.command} > /dev/null`, `echo "@@ $? ${e.operationId}"`]),
    ].join('\n');
    const { stdout } = await exec('bash', ['-c', script], { maxBuffer: 64 * 1024 * 1024 });
    const results = stdout
      .split('\n')
      .filter((l) => l.startsWith('@@ '))
      .map((l) => l.slice(3));
    assert.equal(results.length, examples.length);
    assert.deepEqual(
      results.filter((r) => !r.startsWith('0 ')),
      [],
    );
  });

  it('the collection has every operation, and each list request of it answers 200', async () => {
    const files = await postmanFiles();
    const collection = files['wohnapi.postman_collection.json'] as { item: Folder[]; event: unknown[] };
    const requests = collection.item.flatMap((f) => f.item.map((i) => i.request));
    assert.equal(requests.length, (await curlExamples()).length + 1); // + the token endpoint
    assert.equal(collection.event.length, 1, 'the pre-request login');
    const login = await fetch(`${server.base}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', username: server.user, password: server.password }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    for (const request of requests.filter((r) => r.method === 'GET' && !r.url.path.some((s) => s.startsWith(':')))) {
      const query = (request.url.query ?? [])
        .filter((q) => !q.disabled)
        .map((q) => `${q.key}=${q.value.replace('{{apiKey}}', server.key)}`);
      const url = `${server.base}/${request.url.path.join('/')}${query.length ? `?${query.join('&')}` : ''}`;
      const res = await fetch(url, {
        headers: request.auth?.type === 'noauth' ? {} : { authorization: `Bearer ${access_token}` },
      });
      assert.equal(res.status, 200, url);
    }
  });
});
