/**
 * The address a request is attributed to (rate limiting, logs). Directly connected, it is the
 * socket peer and nothing the client writes can change it. Behind trusted reverse proxies it is
 * the right-most X-Forwarded-For hop that is not a trusted proxy: every proxy appends the address
 * it received the connection from, so the hops right of that one were written by our own proxies
 * and everything left of it may be forged. A client that prepends fake hops therefore still lands
 * on its real address.
 */
import { BlockList, isIP } from 'node:net';

/** Tells whether an address (already normalised) belongs to a trusted proxy. */
export type ProxyMatcher = (address: string) => boolean;

const MAPPED_V4_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * The canonical text of an IP address as it may appear in a socket or an X-Forwarded-For hop
 * (`[v6]`, `[v6]:port`, `v4:port`, IPv4-mapped IPv6, mixed case, zone ids), or undefined when
 * it is not an address at all. Canonical, so `::1` and `0:0::1` share one rate-limit bucket.
 */
export function normalizeAddress(raw: string): string | undefined {
  let text = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  text = text.replace(/%.*$/, ''); // an IPv6 zone names a local interface, not a different host
  const family = isIP(text);
  if (family === 4) return text;
  if (family !== 6) return undefined;
  const canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  const mapped = MAPPED_V4_HEX.exec(canonical);
  if (!mapped) return canonical;
  const [hi, lo] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

interface ProxyEntry {
  address: string;
  family: 'ipv4' | 'ipv6';
  prefix?: number;
}

function parseProxyEntry(entry: string): ProxyEntry | string {
  const [addressText = '', prefixText, extra] = entry.trim().split('/');
  // Plain addresses only: a port or brackets in the configuration is a mistake worth naming.
  const address = isIP(addressText) === 0 ? undefined : normalizeAddress(addressText);
  if (extra !== undefined || address === undefined) {
    return `"${entry}" is not an IP address or CIDR range (like 10.0.0.0/8 or fd00::/8)`;
  }
  const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, family };
  const max = family === 'ipv4' ? 32 : 128;
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!(prefix >= 0 && prefix <= max)) return `"${entry}" has a prefix length outside 0..${max}`;
  return { address, family, prefix };
}

/** Why a TRUST_PROXY entry is invalid, or undefined when it is a valid address or CIDR. */
export function proxyEntryProblem(entry: string): string | undefined {
  const parsed = parseProxyEntry(entry);
  return typeof parsed === 'string' ? parsed : undefined;
}

/** A matcher for trusted proxy addresses and CIDR ranges; throws on an invalid entry. */
export function trustedProxies(entries: readonly string[]): ProxyMatcher {
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = parseProxyEntry(entry);
    if (typeof parsed === 'string') throw new Error(parsed);
    if (parsed.prefix === undefined) list.addAddress(parsed.address, parsed.family);
    else list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return (address) => list.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
}

/** Splits X-Forwarded-For (one header or several, which Node joins with commas) into hops. */
function forwardedHops(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  return (Array.isArray(header) ? header.join(',') : header).split(',');
}

/**
 * The client address of a request. Without a matcher (standalone mode) the peer is the client
 * and X-Forwarded-For is ignored. With one, hops are walked from the right while they belong to
 * trusted proxies; the first untrusted hop is the client. A malformed hop can only have been
 * written by the trusted proxy right of it (anything further left is the client's own text), so
 * the walk stops there and charges that proxy's address: conservative, never a fresh bucket.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  isTrusted: ProxyMatcher | undefined,
): string {
  const direct = peer === undefined ? 'unknown' : (normalizeAddress(peer) ?? peer);
  if (isTrusted === undefined || !isTrusted(direct)) return direct;
  const hops = forwardedHops(forwardedFor);
  let client = direct;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(hops[i]!);
    if (hop === undefined) return client;
    client = hop;
    if (!isTrusted(hop)) return hop;
  }
  return client;
}
