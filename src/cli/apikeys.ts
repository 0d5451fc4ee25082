// wohnapi apikey create|list|revoke
import type { Command } from 'commander';
import { createApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys.ts';
import { UsageError } from './errors.ts';
import { collect, out, parseId, withDatabase } from './context.ts';

export function registerApiKeyCommands(program: Command): void {
  const apikey = program
    .command('apikey')
    .description('manage API keys (they identify client applications and scope ledgers)');

  apikey
    .command('create')
    .description('create an API key; the key is printed once, alone on the last line')
    .requiredOption('--name <n>', 'a unique name for the key')
    .option('--ledger <companyCodeId>', 'a ledger the key may see, repeatable', collect)
    .option('--all-ledgers', 'the key may see every ledger')
    .action(async (given: { name: string; ledger?: string[]; allLedgers?: boolean }) => {
      const opts = { ...given, ledger: given.ledger ?? [] };
      if (opts.allLedgers && opts.ledger.length)
        throw new UsageError('give either --ledger or --all-ledgers, not both');
      if (!opts.allLedgers && opts.ledger.length === 0)
        throw new UsageError('give --ledger <companyCodeId> (repeatable) or --all-ledgers');
      const ledgers = opts.allLedgers ? ('all' as const) : [...new Set(opts.ledger.map(parseId))];
      const key = await withDatabase(({ db }) => createApiKey(db, { name: opts.name, ledgers }));
      out(
        `API key '${opts.name}' created for ${ledgers === 'all' ? 'all ledgers' : `ledger(s) ${ledgers.join(', ')}`}. Store it now; it is not shown again:`,
      );
      out(key);
    });

  apikey
    .command('list')
    .description('list API keys (names, ledgers, creation date; never the secret)')
    .action(async () => {
      const keys = await withDatabase(({ db }) => listApiKeys(db));
      out(['NAME', 'LEDGERS', 'CREATED', 'STATUS'].join('\t'));
      for (const k of keys)
        out(
          [
            k.name,
            k.ledgers === 'all' ? 'all' : k.ledgers.join(','),
            k.createdAt,
            k.revoked ? 'revoked' : 'active',
          ].join('\t'),
        );
    });

  apikey
    .command('revoke <name>')
    .description('revoke an API key; requests with it get 401 at once')
    .action(async (name: string) => {
      await withDatabase(({ db }) => revokeApiKey(db, name));
      out(`API key '${name}' revoked`);
    });
}
