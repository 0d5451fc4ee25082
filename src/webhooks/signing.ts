// Standard Webhooks signatures: `v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with
// the bytes whose base64 follows `whsec_` in the signing secret.
import crypto from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: whsec_ + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return PREFIX + crypto.randomBytes(32).toString('base64');
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** Whether any `v1,` signature of a space-separated header matches (what a receiver does). */
export function verify(secret: string, id: string, timestamp: number, body: string, header: string): boolean {
  const expected = Buffer.from(sign(secret, id, timestamp, body));
  return header.split(' ').some((s) => {
    const got = Buffer.from(s);
    return got.length === expected.length && crypto.timingSafeEqual(got, expected);
  });
}
