// wohnapi: the operator CLI. Every command honours DATABASE_URL; errors are one line on stderr, exit code 1.
import { Command, CommanderError } from 'commander';
import { registerServeCommands } from './serve.ts';
import { registerUserCommands } from './users.ts';
import { registerApiKeyCommands } from './apikeys.ts';
import { VERSION } from './version.ts';

const program = new Command('wohnapi')
  .description(
    'wohnapi: property-management data interface server (running-cost distribution, projects, rent accounting)',
  )
  .version(VERSION, '-V, --version', 'print the version')
  .exitOverride();

registerServeCommands(program);
registerUserCommands(program);
registerApiKeyCommands(program);
(await import('./data.ts')).registerDataCommands(program);
(await import('./webhooks.ts')).registerWebhookCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exit(err.exitCode);
  }
  // Domain (CommandError), configuration (ConfigError) and usage (UsageError) errors carry a message meant for
  // the operator; anything else is shown by its message too, on one line.
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`wohnapi: error: ${message.split('\n')[0]}\n`);
  process.exit(1);
}
