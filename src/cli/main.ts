// wohnapi: the operator CLI. Every command honours DATABASE_URL; errors are one line on stderr, exit code 1.
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.ts';
import { CommandError } from '../auth/users.ts';
import { registerServeCommands } from './serve.ts';
import { registerUserCommands } from './users.ts';
import { registerApiKeyCommands } from './apikeys.ts';

const program = new Command('wohnapi')
  .description(
    'wohnapi: property-management data interface server (running-cost distribution, projects, rent accounting)',
  )
  .exitOverride();

registerServeCommands(program);
registerUserCommands(program);
registerApiKeyCommands(program);
(await import('./data.ts')).registerDataCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exit(err.exitCode);
  }
  const known = err instanceof CommandError || err instanceof ConfigError;
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`wohnapi: error: ${known ? message : `${message}`}\n`);
  process.exit(1);
}
