// wohnapi: the operator CLI. Every command honours DATABASE_URL; errors are one line on stderr, exit code 1.
import { Command, CommanderError } from 'commander';
import { registerServeCommands } from './serve.ts';
import { registerUserCommands } from './users.ts';
import { registerApiKeyCommands } from './apikeys.ts';
import { VERSION } from './version.ts';
import { UsageError } from './errors.ts';
import { CommandError } from '../auth/users.ts';
import { ConfigError } from '../config.ts';

const program = new Command('wohnapi')
  .description(
    'wohnapi: property-management data interface server (running-cost distribution, projects, rent accounting)',
  )
  .version(VERSION, '-V, --version', 'print the version')
  .exitOverride()
  // commander's own errors (unknown command or option, missing argument) are printed below, with the next step; so is
  // a command group called without its command, for which commander would print the whole help to stderr
  .configureOutput({ outputError: () => {}, writeErr: () => {} });

/** Where the usage of the command named on the command line is: `wohnapi user add --help`. */
function usageHint(argv: string[]): string {
  const words: string[] = [];
  let command: Command = program;
  for (const word of argv.slice(2)) {
    const sub = command.commands.find((c) => c.name() === word);
    if (!sub) break;
    words.push(word);
    command = sub;
  }
  return `run 'wohnapi ${[...words, '--help'].join(' ')}' for the usage`;
}

// Output piped into a reader that stops early (`wohnapi webhook deliveries 4 | head`): the reader has all it wants,
// so the command ends quietly instead of with a stack trace of the broken pipe.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

registerServeCommands(program);
registerUserCommands(program);
registerApiKeyCommands(program);
(await import('./data.ts')).registerDataCommands(program);
(await import('./webhooks.ts')).registerWebhookCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    const shown = ['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(err.code);
    if (err.code === 'commander.help' && err.exitCode !== 0)
      process.stderr.write(`wohnapi: error: missing command; ${usageHint(process.argv)}\n`);
    else if (!shown && err.exitCode !== 0)
      process.stderr.write(
        `wohnapi: ${(err.message.split('\n')[0] ?? '').replace(/\.$/, '')}; ${usageHint(process.argv)}\n`,
      );
    process.exit(err.exitCode);
  }
  // Domain (CommandError), configuration (ConfigError) and usage (UsageError) errors carry a message meant for
  // the operator; anything else is shown by its message too, on one line.
  const message = err instanceof Error ? err.message : String(err);
  // ours name the next step themselves; anything else is a fault to report
  const ours = err instanceof CommandError || err instanceof UsageError || err instanceof ConfigError;
  const next = ours
    ? ''
    : "; this is unexpected: run the command again, and if it fails the same way, report it with the output of 'wohnapi --version'";
  process.stderr.write(`wohnapi: error: ${message.split('\n')[0]}${next}\n`);
  process.exit(1);
}
