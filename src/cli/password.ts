// Passwords for `user add` and `user passwd` without putting them on the command line (shell history, ps):
// typed at a prompt without echo on a terminal (twice, to catch typos), else the first line of standard input.
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { UsageError } from './errors.ts';

async function firstLineOfStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

async function ask(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = readline.createInterface({ input: process.stdin, output, terminal: true });
  try {
    process.stderr.write(question);
    muted = true;
    // Ctrl-C or Ctrl-D (end of input) at the prompt: a one-line error, not an exit without a word
    return await new Promise<string>((resolve, reject) => {
      const stop = (what: string) => () =>
        reject(new UsageError(`${what} at the password prompt; nothing was changed`));
      rl.on('SIGINT', stop('interrupted'));
      rl.on('close', stop('input ended'));
      rl.question('', resolve);
    });
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}

/** The password from the option, else from a prompt (terminal) or standard input. */
export async function readPassword(option: string | undefined, name: string): Promise<string> {
  if (option !== undefined) return option;
  let password: string;
  if (process.stdin.isTTY) {
    password = await ask(`password for '${name}': `);
    if (password !== (await ask('the same again: ')))
      throw new UsageError('the two passwords differ; run the command again and type the same password twice');
  } else {
    password = await firstLineOfStdin();
  }
  if (password === '')
    throw new UsageError(
      'no password given: type it at the prompt, pipe it on standard input (echo ... | wohnapi user ...), or pass --password',
    );
  return password;
}
