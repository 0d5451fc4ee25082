// wohnapi import <file> | export <file> | demo load [--scale N] [--seed S]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline, Transform, type Readable } from 'node:stream';
import type { Command } from 'commander';
import { CommandError } from '../auth/users.ts';
import { out, withDatabase } from './context.ts';
import { progressBar, type Progress } from './progress.ts';

/** How many problems the one-line error names (all of them are on stdout). */
const NAMED_PROBLEMS = 3;

/** The unit the import bar counts the file in: MB for large files, KB for small ones. */
const unitOf = (bytes: number): [string, number] => (bytes >= 10 * 1024 * 1024 ? ['MB', 1024 * 1024] : ['KB', 1024]);

/** The file as a stream that reports the bytes read so far to the progress bar, with the file size as total. */
function readWithProgress(file: string, bar: Progress, scale: number): Readable {
  const total = Math.max(1, Math.ceil(fs.statSync(file).size / scale));
  let read = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      read += chunk.length;
      bar.update(Math.min(total, Math.round(read / scale)), total);
      done(null, chunk);
    },
  });
  // pipeline, not pipe: an error of the file (a disk that fails) ends the import with it instead of leaving it waiting
  return pipeline(fs.createReadStream(file, { highWaterMark: 1 << 20 }), counter, () => undefined);
}

/** Files from this size on are parsed in a worker thread while the import writes, when there is a second core for it
 * (docs/performance.md, S6); a worker's start costs more than it saves on smaller files. */
const PARSE_THREAD_MIN_BYTES = 4 * 1024 * 1024;
const parseInThread = (file: string) =>
  fs.statSync(file).size >= PARSE_THREAD_MIN_BYTES && os.availableParallelism() > 1;

const positiveInt =
  (name: string) =>
  (value: string): number => {
    if (!/^[1-9][0-9]{0,8}$/.test(value))
      throw new CommandError(`${name} must be a positive integer, got '${value}'; e.g. ${name} 10`);
    return Number(value);
  };

/** Why a file could not be created in `folder`, and what to do, in words. */
function cannotCreate(folder: string, err: NodeJS.ErrnoException): string {
  let kind: fs.Stats | undefined;
  try {
    kind = fs.statSync(folder, { throwIfNoEntry: false });
  } catch {
    kind = undefined; // a path through a file (ENOTDIR): there is no such folder
  }
  if (!kind) return `the folder ${folder} does not exist; create the folder or choose another path`;
  if (!kind.isDirectory()) return `${folder} is not a folder; choose another path`;
  if (err.code === 'EACCES' || err.code === 'EPERM')
    return `no permission to create files in ${folder}; choose another path`;
  if (err.code === 'EROFS') return `${folder} is on a read-only file system; choose another path`;
  return `the folder ${folder} does not take new files (${err.code ?? err.message}); choose another path`;
}

export function registerDataCommands(program: Command): void {
  program
    .command('import <file>')
    .description(
      'load a JSON document in the import format (docs/import-format.md) in one transaction: records are upserted by Id; on any problem nothing is stored and every problem is listed',
    )
    .action(async (file: string) => {
      if (file === '') throw new CommandError('the file path is empty; give the path of the JSON file to import');
      if (!fs.existsSync(file))
        throw new CommandError(
          `no such file: ${path.resolve(file)}; check the path (relative paths start at ${process.cwd()})`,
        );
      if (!fs.statSync(file).isFile())
        throw new CommandError(
          `${path.resolve(file)} is not a file (a folder or a device); give the path of the JSON file to import`,
        );
      const started = performance.now();
      const [unit, scale] = unitOf(fs.statSync(file).size);
      const bar = progressBar('import', unit);
      const input = readWithProgress(file, bar, scale);
      // The parsing thread starts first: it reads and parses while this thread loads the importer and opens the database
      const { ParseThread } = await import('../dataset/import/parse-thread.ts');
      const thread = parseInThread(file) ? new ParseThread(input) : undefined;
      // The dataset modules load when a command runs, not for `--help`.
      const { importData, ImportFailed } = await import('../dataset/import/importer.ts');
      const { formatProblemWithLine } = await import('../dataset/import/lookup.ts');
      try {
        const summary = await withDatabase((database) => importData(database, thread ?? input)).finally(() => {
          bar.stop();
          void thread?.stop(); // it stops once read; this is for an import that failed before (no database, say)
        });
        const seconds = (performance.now() - started) / 1000;
        out(
          `imported ${summary.records.toLocaleString('en')} records from ${file} in ${seconds.toFixed(1)} s (${Math.round(summary.records / seconds).toLocaleString('en')} records/s), ${summary.events} event(s)`,
        );
      } catch (err) {
        if (!(err instanceof ImportFailed)) throw err;
        // The problems are the command's report, one per line on stdout; stderr gets the one-line error (decisions
        // §1), naming the first problems and where the rest are.
        const lines = err.problems.map(formatProblemWithLine);
        for (const line of lines) out(line);
        if (err.total > lines.length) out(`... and ${err.total - lines.length} more`);
        const named = lines.slice(0, NAMED_PROBLEMS).join('; ');
        const listed = err.total > lines.length ? ` (the first ${lines.length.toLocaleString('en')})` : '';
        const rest =
          err.total > NAMED_PROBLEMS ? `; and ${err.total - NAMED_PROBLEMS} more, listed on stdout${listed}` : '';
        throw new CommandError(err.summary(`${named}${rest}`));
      }
    });

  program
    .command('export <file>')
    .description(
      'write every record in the import format, sorted by Id (export -> import into an empty database -> export is byte-identical)',
    )
    .action(async (file: string) => {
      if (file === '') throw new CommandError('the file path is empty; give the path of the file to write');
      const { exportData } = await import('../dataset/export.ts');
      // The export is written beside the target and renamed over it: only over a file, never a folder or a device
      let existing: fs.Stats | undefined;
      try {
        existing = fs.statSync(file, { throwIfNoEntry: false });
      } catch {
        existing = undefined; // a path through a file: opening it below says so
      }
      if (existing && !existing.isFile())
        throw new CommandError(
          `${path.resolve(file)} exists and is not a file (a folder or a device); choose a file path for the export`,
        );
      const tmp = `${file}.partial`;
      let fd: number;
      try {
        fd = fs.openSync(tmp, 'w');
      } catch (err) {
        throw new CommandError(
          `cannot write ${file}: ${cannotCreate(path.dirname(path.resolve(file)), err as NodeJS.ErrnoException)}`,
        );
      }
      const stream = fs.createWriteStream(tmp, { fd });
      const bar = progressBar('export', 'records');
      try {
        const summary = await withDatabase((database) =>
          exportData(database, stream, { progress: (n) => bar.update(n) }),
        ).finally(() => bar.stop());
        await new Promise<void>((resolve, reject) =>
          stream.end((err?: Error | null) => (err ? reject(err) : resolve())),
        );
        fs.renameSync(tmp, file);
        out(`exported ${summary.records.toLocaleString('en')} records to ${file}`);
      } catch (err) {
        stream.destroy();
        fs.rmSync(tmp, { force: true });
        throw err;
      }
    });

  const demo = program.command('demo').description('demo data');
  demo
    .command('load')
    .description('generate a deterministic demo data set of a German housing company into an empty database')
    .option('--scale <n>', 'size factor: 1 = a few hundred use units, grows linearly', positiveInt('--scale'), 1)
    .option('--seed <s>', 'random seed; the same seed gives the same data', positiveInt('--seed'), 1)
    .action(async (opts: { scale: number; seed: number }) => {
      const { loadDemo } = await import('../dataset/demo/load.ts');
      const started = performance.now();
      const bar = progressBar('demo load', 'rows');
      const summary = await withDatabase(
        (database) => loadDemo(database, { scale: opts.scale, seed: opts.seed, progress: (n) => bar.update(n) }),
        { create: true },
      ).finally(() => bar.stop());
      out(
        `demo data loaded: scale ${opts.scale}, seed ${opts.seed}, ${summary.rows.toLocaleString('en')} rows (${summary.useUnits.toLocaleString('en')} use units) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    });
}
