/**
 * Which webhook URLs Ponte will call. Any endpoint URL is http(s) without credentials. Where private
 * addresses are not allowed (in either environment, unless configured otherwise), the host must resolve only to
 * public addresses: checked when the endpoint is created and again before every attempt, against the
 * address the request then connects to, so a name that later resolves to an internal address (DNS
 * rebinding) is refused too.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Ranges that are never a partner's public server: private, loopback, link-local, CGNAT, reserved. */
const NON_PUBLIC: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", including the unspecified 0.0.0.0
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, including cloud metadata services
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, including broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'],
  // IPv6 forms that carry an IPv4 address inside: whatever that address is, a request to them reaches
  // IPv4 through a translator or tunnel, past the IPv4 checks above
  ['::', 96, 'ipv6'], // IPv4-compatible (deprecated)
  ['::ffff:0:0:0', 96, 'ipv6'], // IPv4-translated (SIIT: ::ffff:0:a.b.c.d)
  ['64:ff9b::', 96, 'ipv6'], // NAT64 well-known prefix
  ['2001::', 32, 'ipv6'], // Teredo
  ['2002::', 16, 'ipv6'], // 6to4
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64
  ['100::', 64, 'ipv6'], // discard
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['fc00::', 7, 'ipv6'], // unique-local
  ['fe80::', 10, 'ipv6'], // link-local
  ['fec0::', 10, 'ipv6'], // site-local (deprecated)
  ['ff00::', 8, 'ipv6'], // multicast
];

const blocked = blockListOf(NON_PUBLIC);

function blockListOf(subnets: typeof NON_PUBLIC): BlockList {
  const list = new BlockList();
  for (const [network, prefix, family] of subnets) list.addSubnet(network, prefix, family);
  return list;
}

/**
 * True for an address a webhook may be sent to. IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) are
 * judged by the IPv4 address they carry; every other IPv6 form that carries an IPv4 address (translated,
 * compatible, NAT64, 6to4, Teredo) is refused whatever that address is.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !blocked.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

export type ResolvedAddress = { address: string; family: 4 | 6 };

/** Resolves a host name to every address it has; [] when the name does not exist. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

export const systemResolver: Resolver = async (hostname) => {
  try {
    const found = await lookup(hostname, { all: true, verbatim: true });
    return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
  } catch (error) {
    if (NOT_FOUND.has((error as { code?: string }).code ?? '')) return [];
    throw error;
  }
};

/** The problem with a URL as an endpoint address, or null when its shape is acceptable. */
export function urlShapeProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use https or http';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  if (hostOf(url) === '') return 'must name a host';
  return null;
}

/** The host of a URL as a resolver or `isIP` expects it (IPv6 literals without brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

export type Target = { ok: true; address: ResolvedAddress } | { ok: false; reason: string };

/**
 * The address a request to `url` connects to. With `allowPrivate` false, every address the host
 * resolves to must be public; the request then connects to the first one, the one just checked.
 * Resolver failures other than "no such name" are thrown: they say nothing about the URL.
 */
export async function resolveTarget(url: URL, allowPrivate: boolean, resolve: Resolver): Promise<Target> {
  const host = hostOf(url);
  const literal = isIP(host);
  const addresses: ResolvedAddress[] =
    literal === 0 ? await resolve(host) : [{ address: host, family: literal === 6 ? 6 : 4 }];
  const first = addresses[0];
  if (!first) return { ok: false, reason: 'host not found' };
  // The address itself is not named: the answer must not tell what an internal name resolves to.
  if (!allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address))) {
    return { ok: false, reason: 'address not allowed (private, loopback or link-local)' };
  }
  return { ok: true, address: first };
}

/**
 * Whether endpoints of an environment may point at private addresses: only where configured
 * (PONTE_WEBHOOK_ALLOW_PRIVATE_URLS for production, PONTE_SANDBOX_WEBHOOK_ALLOW_PRIVATE_URLS for the
 * sandbox, which local development sets to receive webhooks on the same machine).
 */
export function privateUrlsAllowed(
  environment: 'sandbox' | 'production',
  config: { allowPrivateUrls: boolean; sandboxAllowPrivateUrls: boolean },
): boolean {
  return environment === 'sandbox' ? config.sandboxAllowPrivateUrls : config.allowPrivateUrls;
}
