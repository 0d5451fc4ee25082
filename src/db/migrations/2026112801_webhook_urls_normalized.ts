// Webhook URLs are stored as the URL standard writes them (src/webhooks/commands.ts), so that spellings of one
// receiver are one URL for the duplicate check. This rewrites the URLs stored before that rule. An active webhook
// whose rewritten URL would be that of another active webhook of the same key, registrant and entity (the duplicate
// the rule now prevents) keeps its spelling: choosing which of the two to deactivate is the operator's call.
// A URL that is not one any more, or longer than 2000 characters rewritten, is left as it is. Idempotent.
import type { Kysely } from 'kysely';

const MAX_URL_LENGTH = 2000;

interface Row {
  id: number;
  url: string;
  api_key_id: number;
  owner_user_id: number | null;
  entity_name: string;
  active: number;
}

function normalized(url: string): string | undefined {
  try {
    const href = new URL(url).href;
    return href.length <= MAX_URL_LENGTH ? href : undefined;
  } catch {
    return undefined;
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  const rows = (await db
    .selectFrom('webhooks')
    .select(['id', 'url', 'api_key_id', 'owner_user_id', 'entity_name', 'active'])
    .orderBy('id')
    .execute()) as Row[];
  const keyOf = (r: Row, url: string) => `${r.api_key_id}|${r.owner_user_id ?? 0}|${r.entity_name}|${url}`;
  // what the unique index holds now: every active webhook's stored URL
  const taken = new Set(rows.filter((r) => r.active === 1).map((r) => keyOf(r, r.url)));
  for (const r of rows) {
    const href = normalized(r.url);
    if (href === undefined || href === r.url) continue;
    if (r.active === 1) {
      if (taken.has(keyOf(r, href))) continue;
      taken.delete(keyOf(r, r.url));
      taken.add(keyOf(r, href));
    }
    await db.updateTable('webhooks').set({ url: href }).where('id', '=', r.id).execute();
  }
}

export async function down(): Promise<void> {
  // the spellings as registered are not kept: nothing to undo
}
