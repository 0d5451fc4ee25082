// S7: the token endpoint (password grant; scrypt is the bound by design).
import type { Scenario } from '../context.ts';

export default {
  name: 'S7',
  async run(b) {
    b.record(
      'S7 token endpoint (password grant)',
      await b.load(b.pid, 'load.ts', {
        url: `${b.server.base}/oauth2/token`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=password&username=bench&password=bench-password',
      }),
    );
  },
} satisfies Scenario;
