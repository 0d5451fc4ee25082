// Who sees a webhook: only the callers whose own ledgers (key ∩ user grant) cover every ledger it delivers for
// (decisions.md §2: a record outside the caller's ledgers is treated as if it did not exist).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../test/support/db.ts';
import { WEBHOOK_URL, webhooksFixture, type WebhooksFixture } from '../../test/fixtures/webhooks.ts';
import { PERMISSIONS } from '../auth/permissions.ts';

const PERMS = [PERMISSIONS.webhook, PERMISSIONS.projectEdit];

for (const dialect of DIALECTS) {
  describe(`WebHook API: visibility by ledger [${dialect}]`, () => {
    let f: WebhooksFixture;
    before(async () => (f = await webhooksFixture(dialect)));
    after(() => f.close());

    /** Every route naming the webhook answers 404 with the error map, and the list leaves it out. */
    async function invisible(id: number, key: string, token: string) {
      for (const [method, url, body] of [
        ['GET', `${WEBHOOK_URL}/${id}`, undefined],
        ['GET', `${WEBHOOK_URL}/${id}/Deliveries`, undefined],
        ['PUT', `${WEBHOOK_URL}/Change`, { Id: id, Url: `${f.receiver.url}/stolen`, RotateSecret: true }],
        ['POST', `${WEBHOOK_URL}/Test`, { Id: id }],
        ['DELETE', `${WEBHOOK_URL}/${id}`, undefined],
      ] as const) {
        const res = await f.call(method, url, { body, key, token });
        assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
        assert.match(Object.values(res.json<Record<string, string[]>>()).flat().join(' '), /does not exist/);
      }
      const list = await f.call('GET', WEBHOOK_URL, { key, token, query: 'limit=100' });
      assert.equal(list.statusCode, 200);
      assert.ok(!list.json().some((w: { Id: number }) => w.Id === id), list.body);
    }

    it("a user limited to another ledger can neither see nor take over the all-ledgers key's webhook", async () => {
      const hook = await f.register({ Url: `${f.receiver.url}/owner`, EntityName: 'Project' });
      await f.call('POST', `${WEBHOOK_URL}/Test`, { body: { Id: hook.Id } });
      const before = await f.t.database.db.selectFrom('webhooks').selectAll().where('id', '=', hook.Id).execute();
      const hook2 = await f.t.login({ permissions: PERMS, ledgers: [f.B.companyCodeId] });
      await invisible(hook.Id, f.key, hook2);
      const after = await f.t.database.db.selectFrom('webhooks').selectAll().where('id', '=', hook.Id).execute();
      assert.deepEqual(after, before, 'nothing changed, the secret not rotated, the webhook not deleted');
      assert.equal(f.receiver.received.filter((r) => r.path === '/stolen').length, 0);
      // The hidden webhook's URL and entity are no twin of hook2's registration or change (a 400 naming it would say
      // it exists); the owner's own second registration of them still is.
      const same = { Url: `${f.receiver.url}/owner`, EntityName: 'Project' };
      const hers = await f.call('POST', WEBHOOK_URL, { token: hook2, body: same });
      assert.equal(hers.statusCode, 201, hers.body);
      assert.equal((await f.call('POST', WEBHOOK_URL, { body: same })).statusCode, 400);
      const other = await f.call('POST', WEBHOOK_URL, { token: hook2, body: { Url: `${f.receiver.url}/o2` } });
      const moved = await f.call('PUT', `${WEBHOOK_URL}/Change`, {
        token: hook2,
        body: { Id: other.json().Id, ...same },
      });
      assert.match(moved.json().Url?.[0] ?? '', /already calls/, 'her own twin, not the hidden one');
      await f.call('DELETE', `${WEBHOOK_URL}/${hers.json().Id}`, { token: hook2 });
      await f.call('DELETE', `${WEBHOOK_URL}/${other.json().Id}`, { token: hook2 });
      // Its own registration delivers for ledger B only: hook2 sees it (first on a page of one), so does the owner.
      const own = await f.register({ Url: `${f.receiver.url}/mine` }, f.key);
      const mine = await f.call('POST', WEBHOOK_URL, { token: hook2, body: { Url: `${f.receiver.url}/hook2` } });
      assert.equal(mine.statusCode, 201, mine.body);
      const page = await f.call('GET', WEBHOOK_URL, { token: hook2, query: 'limit=1' });
      assert.deepEqual(
        page.json().map((w: { Id: number }) => w.Id),
        [mine.json().Id],
      );
      assert.equal((await f.call('GET', `${WEBHOOK_URL}/${mine.json().Id}`, { token: hook2 })).statusCode, 200);
      const change = await f.call('PUT', `${WEBHOOK_URL}/Change`, { token: hook2, body: { Id: mine.json().Id } });
      assert.equal(change.statusCode, 200, change.body);
      const all = await f.call('GET', WEBHOOK_URL, { query: 'limit=100' });
      const ids = all.json().map((w: { Id: number }) => w.Id);
      assert.ok(ids.includes(mine.json().Id) && ids.includes(own.Id) && ids.includes(hook.Id));
    });

    it("with a key outside the user's grant nothing is visible; a user whose grant covers the key's sees it", async () => {
      const hook = await f.register({ Url: `${f.receiver.url}/ledger-a` }, f.keyA);
      const tested = await f.call('POST', `${WEBHOOK_URL}/Test`, { key: f.keyA, body: { Id: hook.Id } });
      assert.equal(tested.statusCode, 200, tested.body);
      const onlyB = await f.t.login({ permissions: PERMS, ledgers: [f.B.companyCodeId] });
      await invisible(hook.Id, f.keyA, onlyB);
      const both = await f.t.login({ permissions: PERMS, ledgers: [f.A.companyCodeId, f.B.companyCodeId] });
      const read = await f.call('GET', `${WEBHOOK_URL}/${hook.Id}/Deliveries`, { key: f.keyA, token: both });
      assert.equal(read.statusCode, 200, read.body);
      assert.equal(read.json().length, 1);
    });

    it('a webhook registered by a user of ledger A is hidden from a user of ledger B on the same key', async () => {
      const onlyA = await f.t.login({ permissions: PERMS, ledgers: [f.A.companyCodeId] });
      const created = await f.call('POST', WEBHOOK_URL, { token: onlyA, body: { Url: `${f.receiver.url}/by-a` } });
      assert.equal(created.statusCode, 201, created.body);
      const onlyB = await f.t.login({ permissions: PERMS, ledgers: [f.B.companyCodeId] });
      await invisible(created.json().Id, f.key, onlyB);
      assert.equal((await f.call('GET', `${WEBHOOK_URL}/${created.json().Id}`)).statusCode, 200);
    });
  });
}
