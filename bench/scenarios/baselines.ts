// B1: a bare node:http server answering with the same bytes as S2 (the machine's ceiling for that response size).
// B2: S2a through the same app without authentication and ledger scoping (what they cost).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, freePort } from '../harness.ts';
import type { Scenario } from '../context.ts';
import { s2Path } from './allocation-group-bases.ts';

export default {
  name: 'B',
  async run(b) {
    const body = await (await fetch(`${b.server.base}${s2Path(b)}`, { headers: b.headers })).arrayBuffer();
    const bodyFile = path.join(b.workdir, 's2.json');
    fs.writeFileSync(bodyFile, Buffer.from(body));
    const b1port = await freePort();
    const b1 = await b.spawn(
      ['--import', 'tsx', `${ROOT}bench/baseline-server.ts`, String(b1port), bodyFile],
      {},
      `http://127.0.0.1:${b1port}/`,
    );
    b.record(
      'B1 bare node:http, same bytes as S2',
      await b.load(b1.pid, 'load.ts', { url: `http://127.0.0.1:${b1port}/` }),
      `${body.byteLength} bytes`,
    );
    await b1.stop();

    const b2port = await freePort();
    const b2 = await b.spawn(
      ['--import', 'tsx', `${ROOT}bench/noauth-server.ts`, String(b2port)],
      b.prepared.env,
      `http://127.0.0.1:${b2port}/health/ready`,
    );
    b.record(
      'B2 S2a without auth and scoping',
      await b.load(b2.pid, 'load.ts', { url: `http://127.0.0.1:${b2port}${s2Path(b)}` }),
    );
    await b2.stop();
  },
} satisfies Scenario;
