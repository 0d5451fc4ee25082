// The docs page (/docs) as a person uses it, in headless Chromium (Debian's `chromium`, driven by playwright-core;
// nothing is downloaded): log in under Authorize (OAuth2 password flow and the apiKey), call DistributionPeriods and
// create a project with the example body through "Try it out". Screenshot: test/artifacts/docs-page.png.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startDemoServer, type DemoServer } from './support/demo-server.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(fs.existsSync);
const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

/** Runs an operation with "Try it out" (enabled by default on the page) and returns the status and body shown. */
async function tryItOut(page: Page, method: string, path: string): Promise<{ status: string; body: string }> {
  const operation = page.locator(`.opblock-${method}`, { has: page.locator(`[data-path="${path}"]`) });
  await operation.locator('.opblock-summary').click();
  await operation.locator('button.execute').click();
  const row = operation.locator('.live-responses-table tbody .response').first();
  await row.waitFor({ timeout: 30_000 });
  return {
    status: (await row.locator('.response-col_status').textContent())?.trim() ?? '',
    body: (await row.locator('.response-col_description pre').first().textContent()) ?? '',
  };
}

describe('the docs page in headless Chromium', () => {
  let server: DemoServer;
  let browser: Browser;
  let page: Page;
  before(async () => {
    assert.ok(CHROMIUM, 'Chromium is not installed: apt-get install -y chromium (or set CHROMIUM_PATH)');
    server = await startDemoServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${server.base}/docs`);
    await page.waitForSelector('.opblock', { timeout: 60_000 });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the product's name and intro, one group per controller and version, the token form", async () => {
    assert.equal(await page.title(), 'wohnapi: API documentation');
    assert.match(await page.locator('.info').innerText(), /wohnapi[\s\S]*Authorize/);
    const tags = await page.locator('.opblock-tag-section h3').allInnerTexts();
    for (const tag of ['RentAccounting v1.0', 'RentAccounting v1.2', 'AccountancyProjectEdit v1.2', 'OAuth 2.0'])
      assert.ok(
        tags.some((t) => t.startsWith(tag)),
        `group ${tag} in ${tags.join(' | ')}`,
      );
    const token = page.locator('.opblock-post', { has: page.locator('[data-path="/oauth2/token"]') });
    await token.locator('.opblock-summary').click();
    assert.match(await token.innerText(), /grant_type[\s\S]*username[\s\S]*password/);
    await token.locator('.opblock-summary').click();
  });

  it('logs in under Authorize (token and key), lists distribution periods and creates a project', async () => {
    await page.click('.auth-wrapper .authorize');
    const oauth = page.locator('.auth-container').filter({ hasText: 'OAuth2, password' });
    await oauth.locator('#oauth_username').fill(server.user);
    await oauth.locator('#oauth_password').fill(server.password);
    await oauth.locator('button.authorize').click();
    await oauth.locator('button[aria-label="Remove authorization"]').waitFor({ timeout: 30_000 });
    const apiKey = page.locator('.auth-container').filter({ hasText: 'In: query' });
    await apiKey.locator('#api_key_value').fill(server.key);
    await apiKey.locator('button.authorize').click();
    await apiKey.locator('button[aria-label="Remove authorization"]').waitFor();
    await page.click('.modal-ux button.close-modal');

    const periods = await tryItOut(page, 'get', '/service/v1.2/RunningCostDistributionRead/DistributionPeriods');
    assert.equal(periods.status, '200', periods.body);
    assert.ok((JSON.parse(periods.body) as unknown[]).length > 0);

    const created = await tryItOut(page, 'post', '/service/v1.2/AccountancyProjectEdit/Project');
    assert.equal(created.status, '201', created.body);
    const project = JSON.parse(created.body) as { Id: number; Name: string };
    assert.ok(project.Id > 0);

    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}docs-page.png` });

    // The project exists for the API too, not only on the page.
    const login = await fetch(`${server.base}/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', username: server.user, password: server.password }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const read = await fetch(`${server.base}/service/v1.2/AccountancyProjectEdit/Project/${project.Id}`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    assert.equal(read.status, 200);
    assert.equal(((await read.json()) as { Name: string }).Name, project.Name);

    // Nothing of the login is left in the browser's storage: no password, key or token
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    for (const secret of [server.password, server.key, access_token.slice(0, 20)])
      assert.equal(stored.includes(secret), false, 'a credential is in the browser storage');
  });
});
