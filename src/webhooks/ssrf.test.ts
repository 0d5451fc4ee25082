import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkTarget, isPrivateAddress, urlProblem } from './ssrf.ts';
import { MAX_ATTEMPTS, RETRY_FACTORS, retryDelayMs } from './model.ts';
import { sign, verify } from './signing.ts';

describe('SSRF guard', () => {
  it('classifies private, loopback, link-local, multicast, unspecified addresses (v4, v6, v4-mapped)', () => {
    for (const a of [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::7f00:1', // IPv4-compatible, as URL parsing writes [::127.0.0.1]
      '2002:7f00:1::', // 6to4
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
      '64:ff9b:1::a00:1', // local-use NAT64
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::ffff:a00:1',
      '64:ff9b::10.0.0.1',
    ])
      assert.equal(isPrivateAddress(a), true, a);
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      assert.equal(isPrivateAddress(a), false, a);
  });

  it('refuses non-http(s), relative and credential URLs', () => {
    assert.match(urlProblem('ftp://example.com/x') ?? '', /http or https/);
    assert.match(urlProblem('/relative/path') ?? '', /not an absolute URL/);
    assert.match(urlProblem('http://8.8.8.8:65536/') ?? '', /port from 1 to 65535/);
    assert.match(urlProblem('http://8.8.8.8:0/') ?? '', /port 0/);
    assert.equal(urlProblem('https://example.com:8443/hook?x=1'), undefined);
    assert.match(urlProblem('http://user:pw@example.com/') ?? '', /user name or password/);
    assert.match(urlProblem('javascript:alert(1)') ?? '', /http or https/);
    assert.equal(urlProblem('https://example.com/hook'), undefined);
  });

  it('refuses 127.0.0.1, ::1, 169.254.169.254, 10.x and a name resolving to loopback unless allowed', async () => {
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://[::1]:9/x',
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.7/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://localhost:9/x',
    ])
      await assert.rejects(checkTarget(url, false), /non-public address/, url);
    const allowed = await checkTarget('http://localhost:9/x', true);
    assert.ok(isPrivateAddress(allowed.address));
  });
});

describe('retry schedule', () => {
  it('grows 5 s, 30 s, 2 min, 10 min, 1 h, 2 h, 4 h, 8 h... for at least 24 h with +-20% jitter, then gives up', () => {
    const base = 5000;
    assert.deepEqual(
      RETRY_FACTORS.map((_, i) => retryDelayMs(i + 1, base, () => 0.5)),
      [5000, 30000, 120000, 600000, 3600000, 7200000, 14400000, 28800000, 28800000, 28800000],
    );
    const shortest = RETRY_FACTORS.reduce((sum, _, i) => sum + (retryDelayMs(i + 1, base, () => 0) ?? 0), 0);
    assert.ok(shortest >= 24 * 3600_000, `${shortest} ms`);
    assert.equal(
      retryDelayMs(1, base, () => 0),
      4000,
    );
    assert.equal(
      retryDelayMs(1, base, () => 1),
      6000,
    );
    assert.equal(retryDelayMs(MAX_ATTEMPTS, base), undefined);
  });
});

describe('Standard Webhooks signature', () => {
  it('is v1, + base64 HMAC-SHA256 of id.timestamp.body keyed by the base64 after whsec_', () => {
    // Test vector of the Standard Webhooks specification.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const body = '{"test": 2432232314}';
    assert.equal(sign(secret, id, 1614265330, body), 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    assert.ok(verify(secret, id, 1614265330, body, 'v1,bogus v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='));
    assert.ok(!verify(secret, id, 1614265331, body, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='));
  });
});
