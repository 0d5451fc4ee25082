// S5: 32 clients, each creating a project and assigning an economic unit, a building and a use unit (durable).
import { openDatabase } from '../../src/db/database.ts';
import type { Scenario } from '../context.ts';

export default {
  name: 'S5',
  async run(b) {
    const database = openDatabase(b.prepared.env.DATABASE_URL);
    const uu = await database.db
      .selectFrom('use_units')
      .select(['id', 'economic_unit_id', 'building_id', 'company_code_id'])
      .where('building_id', 'is not', null)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    await database.close();
    const r = await b.load(b.pid, 'projects-load.ts', {
      connections: 32,
      base: b.server.base,
      prefix: '/service/v1.2/AccountancyProjectEdit',
      token: b.token,
      apiKey: b.prepared.apiKey,
      ledger: uu.company_code_id,
      economicUnit: uu.economic_unit_id,
      building: uu.building_id,
      useUnit: uu.id,
    });
    b.record('S5 project create + 3 assigns (projects/s, 32 clients)', r, 'rps = projects/s, cpuMs per project');
  },
} satisfies Scenario;
