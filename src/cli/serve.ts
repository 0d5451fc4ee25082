// wohnapi serve [--demo] and wohnapi migrate
import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { startServer } from '../server.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { setUpDemo } from './demo-setup.ts';
import { loadDemoData } from './demo-data.ts';
import { out } from './context.ts';

export function registerServeCommands(program: Command): void {
  program
    .command('serve')
    .description('serve the API (PORT, HOST, DATABASE_URL, ...; see .env.example); migrates the database first')
    .option('--demo', 'on an empty database: load demo data and create a demo user and API key, printing them')
    .action(async (opts: { demo?: boolean }) => {
      const config = loadConfig();
      const base = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
      await startServer(config, {
        beforeListen: opts.demo ? (app) => setUpDemo(app.database, base, loadDemoData) : undefined,
      });
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
