// The SSRF guard: a webhook URL must be http(s) without credentials, and every address its host resolves to must be
// public (not private, loopback, link-local, multicast, unspecified or reserved; IPv4 and IPv6, IPv4-mapped
// included), unless the operator allows private addresses. The dispatcher connects to the address checked here.
import dns from 'node:dns/promises';
import net from 'node:net';

export class UrlRefused extends Error {}

/** The longest webhook URL, as sent and as the URL standard writes it (stored so, and indexed). */
export const MAX_URL_LENGTH = 2000;

const V4_BLOCKED: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this" network, unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];
const V6_BLOCKED: Array<[string, number]> = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['2002::', 16], // 6to4 (RFC 7526: deprecated), embeds an IPv4 address
  ['2001::', 32], // Teredo, embeds an (obfuscated) IPv4 address
];

const blocked = new net.BlockList();
for (const [a, p] of V4_BLOCKED) blocked.addSubnet(a, p, 'ipv4');
for (const [a, p] of V6_BLOCKED) blocked.addSubnet(a, p, 'ipv6');

/** The IPv4 address inside an IPv4-mapped, -compatible or NAT64 IPv6 address, if there is one. */
function embeddedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return undefined;
}

/** Whether an address may not be called unless private addresses are allowed. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedV4(address);
    if (v4 !== undefined) return blocked.check(v4, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

/** A URL's shape problem (scheme, credentials, host), or undefined when it may be resolved. */
export function urlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `The value '${text}' is not an absolute URL (scheme, host, an optional port from 1 to 65535, path).`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `The URL '${text}' must use http or https, not '${url.protocol.replace(':', '')}'.`;
  if (url.username || url.password)
    return `The URL must not contain a user name or password; use the callback authentication instead.`;
  if (!url.hostname) return `The URL '${text}' has no host.`;
  if (url.port === '0')
    return `The URL '${text}' names port 0, which no receiver listens on; give a port from 1 to 65535.`;
  if (text.length > MAX_URL_LENGTH) return `The URL is longer than ${MAX_URL_LENGTH} characters.`;
  return undefined;
}

export interface CheckedTarget {
  url: URL;
  /** The address to connect to: it passed the check. */
  address: string;
  family: 4 | 6;
}

/** Resolves the URL's host and checks every address; throws UrlRefused with a message for the operator or client. */
export async function checkTarget(text: string, allowPrivate: boolean): Promise<CheckedTarget> {
  const problem = urlProblem(text);
  if (problem) throw new UrlRefused(problem);
  const url = new URL(text);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await dns.lookup(host, { all: true, verbatim: true });
    } catch {
      throw new UrlRefused(`The host '${host}' of the URL does not resolve.`);
    }
  }
  if (addresses.length === 0) throw new UrlRefused(`The host '${host}' of the URL does not resolve.`);
  if (!allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad)
      throw new UrlRefused(
        `The host '${host}' resolves to ${bad.address}, a private, loopback, link-local or otherwise non-public address; ` +
          'webhooks may only call public addresses.',
      );
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
