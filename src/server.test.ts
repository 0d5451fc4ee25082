// The request URL as logged never carries a secret of the query string, however the parameter's name is written.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { redactUrl } from './server.ts';

describe('redactUrl', () => {
  it('replaces the values of apiKey, access_token, refresh_token and password in any spelling the server reads', () => {
    for (const name of ['apiKey', 'APIKEY', 'api%4Bey', 'api%4bEY', '%61piKey', 'access_token', 'Refresh_Token'])
      assert.equal(redactUrl(`/p?limit=1&${name}=s3cret&x=2`), `/p?limit=1&${name}=[redacted]&x=2`, name);
    assert.equal(redactUrl('/p?password=a&b=c'), '/p?password=[redacted]&b=c');
  });

  it('leaves other parameters, bad escapes and URLs without a query as they are', () => {
    assert.equal(redactUrl('/p'), '/p');
    assert.equal(redactUrl('/p?apiKeys=1&%zz=2&apiKey'), '/p?apiKeys=1&%zz=2&apiKey');
  });
});
