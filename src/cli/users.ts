// wohnapi user add|list|disable|enable|passwd
import type { Command } from 'commander';
import { addUser, disableUser, enableUser, listUsers, setPassword } from '../auth/users.ts';
import { ALL_PERMISSIONS } from '../auth/permissions.ts';
import { collect, out, parseId, requireExistingDatabase, withDatabase } from './context.ts';
import { readPassword } from './password.ts';
import { loadConfig } from '../config.ts';

export function registerUserCommands(program: Command): void {
  const user = program.command('user').description('manage users and their endpoint permissions');

  user
    .command('add <name>')
    .description('create a user; the password is asked for (no echo) or read from standard input')
    .option('--password <pw>', 'password (at least 8 characters); better left out (shell history, ps)')
    .option(
      '--permission <p>',
      `endpoint permission, repeatable; one of: ${ALL_PERMISSIONS.map((p) => `"${p}"`).join(', ')}`,
      collect,
    )
    .option('--ledger <companyCodeId>', 'restrict the user to this ledger, repeatable (default: all ledgers)', collect)
    .action(async (name: string, given: { password?: string; permission?: string[]; ledger?: string[] }) => {
      const opts = { ...given, permission: given.permission ?? [], ledger: given.ledger ?? [] };
      requireExistingDatabase(loadConfig().databaseUrl); // before asking for a password
      const password = await readPassword(opts.password, name);
      await withDatabase(async ({ db }) => {
        await addUser(db, {
          name,
          password,
          permissions: opts.permission,
          ledgers: opts.ledger.map(parseId),
        });
      });
      out(`user '${name}' created with ${opts.permission.length} permission(s)`);
    });

  user
    .command('list')
    .description('list users, their permissions and ledgers')
    .action(async () => {
      const users = await withDatabase(({ db }) => listUsers(db));
      out(['NAME', 'STATUS', 'LEDGERS', 'PERMISSIONS'].join('\t'));
      for (const u of users) {
        out(
          [
            u.name,
            u.disabled ? 'disabled' : 'active',
            u.ledgers === 'all' ? 'all' : u.ledgers.join(','),
            u.permissions.join(', '),
          ].join('\t'),
        );
      }
    });

  user
    .command('disable <name>')
    .description('disable a user; its tokens stop working at once')
    .action(async (name: string) => {
      await withDatabase(({ db }) => disableUser(db, name));
      out(`user '${name}' disabled`);
    });

  user
    .command('enable <name>')
    .description(
      'enable a disabled user again: it may log in (its old tokens stay ended), its webhooks are delivered to',
    )
    .action(async (name: string) => {
      await withDatabase(({ db }) => enableUser(db, name));
      out(`user '${name}' enabled`);
    });

  user
    .command('passwd <name>')
    .description(
      "change a user's password (asked for without echo, or the first line of standard input); its tokens stop working",
    )
    .option('--password <pw>', 'the new password; better left out (shell history, ps)')
    .action(async (name: string, opts: { password?: string }) => {
      requireExistingDatabase(loadConfig().databaseUrl);
      const password = await readPassword(opts.password, name);
      await withDatabase(({ db }) => setPassword(db, name, password));
      out(`password of '${name}' changed`);
    });
}
