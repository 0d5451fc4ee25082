// wohnapi serve [--demo] [--workers N] and wohnapi migrate. The server's modules load only when `serve` runs.
import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { out } from './context.ts';

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
      if (runtime.isWorker()) {
        // A worker (src/runtime/cluster.ts): the primary has migrated and set up the demo already.
        const banner = runtime.workerBanner();
        const { startServer } = await import('../server.ts');
        await startServer(config, {
          beforeListen: async () => banner ?? [],
          ...(banner ? {} : { print: () => {} }),
        }).then(runtime.reportReady, runtime.reportStartFailure);
        return;
      }
      const workers = runtime.workerCount(opts.workers, config);
      const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
      const database = openDatabase(config.databaseUrl, { poolSize: 1 });
      let bannerExtra: string[] = [];
      try {
        await migrateToLatest(database);
        if (opts.demo) {
          const { setUpDemo } = await import('./demo-setup.ts');
          const { loadDemoData } = await import('./demo-data.ts');
          bannerExtra = await setUpDemo(database, base, loadDemoData);
        }
      } finally {
        await database.close();
      }
      await runtime.runPrimary(config, { workers, bannerExtra });
    });

  program
    .command('migrate')
    .description('bring the database schema up to date (DATABASE_URL)')
    .action(async () => {
      const config = loadConfig();
      const database = openDatabase(config.databaseUrl);
      try {
        const { applied } = await migrateToLatest(database);
        out(
          applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database is up to date',
        );
      } finally {
        await database.close();
      }
    });
}
