import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local, unique-local and unspecified ranges (SPEC §17.1), IPv4 and IPv6. */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is loopback, private, link-local or unique-local (IPv4-mapped IPv6 addresses as IPv4). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return false;
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why an endpoint URL is refused (absolute http/https only), or null. */
export function urlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an absolute http or https URL';
  if (parsed.username || parsed.password) return 'must not carry credentials';
  return null;
}

/**
 * Why an endpoint's host may not be delivered to: a loopback, private, link-local or unique-local address, given
 * or resolved (every address the name resolves to is checked), or a name that does not resolve; null when it may.
 */
export async function hostProblem(url: string): Promise<string | null> {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      return `the host ${host} does not resolve`;
    }
  }
  const internal = addresses.find(isInternalAddress);
  return internal ? `resolves to ${internal}, a loopback, private, link-local or unique-local address (WEBHOOK_ALLOW_PRIVATE=true allows it)` : null;
}
