// wohnapi serve [--demo] [--workers N] and wohnapi migrate. The server's modules load only when `serve` runs.
import type { Command } from 'commander';
import { loadConfig, type Config } from '../config.ts';
import { out } from './context.ts';

/**
 * The one-off step before the workers start (src/runtime/cluster.ts runs it in a process of its own, so that the
 * primary stays small): migrations, a rebuild of each read model that is not fresh (an upgrade that changed its
 * format), and with --demo the demo set-up of an empty database. Returns the lines for the start banner.
 */
async function prepare(config: Readonly<Config>, demo: boolean): Promise<string[]> {
  const { openMigrated } = await import('./context.ts');
  const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const database = await openMigrated(config, 1);
  try {
    const { refreshReadModels } = await import('../dataset/read-models.ts');
    const lines = await refreshReadModels(database.db);
    if (!demo) return lines;
    const { setUpDemo } = await import('./demo-setup.ts');
    const { loadDemoData } = await import('./demo-data.ts');
    return [...lines, ...(await setUpDemo(database, base, loadDemoData))];
  } finally {
    await database.close();
  }
}

export function registerServeCommands(program: Command): void {
  program
    .command('serve')
    .description('serve the API (PORT, HOST, DATABASE_URL, ...; see .env.example); migrates the database first')
    .option('--demo', 'on an empty database: load demo data and create a demo user and API key, printing them')
    .option(
      '--workers <n>',
      'server processes sharing the port (WORKERS; default: one per core on PostgreSQL, 1 on SQLite)',
    )
    .action(async (opts: { demo?: boolean; workers?: string }) => {
      const config = loadConfig();
      const runtime = await import('../runtime/cluster.ts');
      if (runtime.role() === 'prepare') {
        await prepare(config, opts.demo ?? false).then(runtime.reportPrepared, runtime.reportStartFailure);
      } else if (runtime.role() === 'worker') {
        const banner = runtime.workerBanner();
        const { startServer } = await import('../server.ts');
        await startServer(config, {
          beforeListen: async () => banner ?? [],
          ...(banner ? {} : { print: () => {} }),
        }).then(runtime.reportReady, runtime.reportStartFailure);
      } else {
        const workers = runtime.workerCount(opts.workers, config);
        const bannerExtra = await runtime.runPrepare(config);
        await runtime.runPrimary(config, { workers, bannerExtra });
      }
    });

  program
    .command('migrate')
    .description('bring the database schema up to date (DATABASE_URL)')
    .action(async () => {
      const config = loadConfig();
      const { openDatabase } = await import('../db/database.ts');
      const { migrateToLatest } = await import('../db/migrate.ts');
      const { databaseOpenError } = await import('./context.ts');
      let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
      try {
        database = openDatabase(config.databaseUrl);
        const { applied, newer } = await migrateToLatest(database);
        out(
          applied.length
            ? `applied ${applied.length} migration(s): ${applied.join(', ')}`
            : newer.length
              ? `database is up to date for this release; it also has a newer release's migrations (${newer.join(', ')}), left as they are`
              : 'database is up to date',
        );
      } catch (err) {
        throw databaseOpenError(err, config.databaseUrl);
      } finally {
        await database?.close();
      }
    });
}
