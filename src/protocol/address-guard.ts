/**
 * Which IP addresses a discovery fetch may connect to (R-N4, R-P3).
 *
 * Profile and schema URLs come from strangers, so a fetch must never reach the
 * Business's own network: loopback, private and link-local space (including the
 * cloud-metadata address 169.254.169.254), shared/CGNAT space, and every other
 * special-use block of RFC 6890 and its successors. The check runs on the
 * *resolved* address, immediately before connecting to exactly that address,
 * which is what defeats DNS rebinding.
 *
 * Policy, stricter than a deny-list on purpose:
 *  - IPv4: refused when in the table below, and also when ipaddr.js names the
 *    address as anything but `unicast` (defence in depth against a forgotten row);
 *  - IPv6: only global unicast (2000::/3) minus its special blocks is allowed;
 *    the transition forms that embed an IPv4 address (IPv4-mapped, NAT64
 *    64:ff9b::/96, 6to4, Teredo) are judged by the IPv4 address(es) they carry.
 */
import ipaddr from 'ipaddr.js';

/** Why an address is refused; `global` means publicly routable and allowed. */
export type AddressRange =
  | 'global'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared-cgnat'
  | 'link-local'
  | 'ietf-protocol'
  | 'documentation'
  | 'benchmarking'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'unique-local'
  | 'site-local'
  | 'discard'
  | 'nat64-local'
  | 'not-global-unicast'
  | 'invalid';

/** How the address was reached when it embeds an IPv4 address. */
export type EmbeddingKind = 'ipv4-mapped' | 'nat64' | '6to4' | 'teredo';

export interface AddressVerdict {
  allowed: boolean;
  /** The address in canonical text form (IPv6 without brackets). */
  address: string;
  family: 4 | 6;
  /** The classification that decided; for embedded forms, that of the embedded IPv4 address. */
  range: AddressRange;
  /** Set when the decision came from an IPv4 address embedded in an IPv6 one. */
  via?: EmbeddingKind;
}

export interface AddressGuardOptions {
  /**
   * Local development only: allow loopback targets (127.0.0.0/8, ::1, ::ffff:127.x).
   * Never enable on a deployed Business (R-N4 allows loopback only when the
   * verifier itself runs on that loopback interface).
   */
  allowLoopback?: boolean;
}

type Row<A> = readonly [cidr: [A, number], range: AddressRange];

function v4rows(rows: readonly (readonly [string, AddressRange])[]): readonly Row<ipaddr.IPv4>[] {
  return rows.map(([cidr, range]) => [ipaddr.IPv4.parseCIDR(cidr), range] as const);
}
function v6rows(rows: readonly (readonly [string, AddressRange])[]): readonly Row<ipaddr.IPv6>[] {
  return rows.map(([cidr, range]) => [ipaddr.IPv6.parseCIDR(cidr), range] as const);
}

// First matching row wins, so the more specific rows come first.
const IPV4_SPECIAL = v4rows([
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'shared-cgnat'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'ietf-protocol'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', 'reserved'], // former 6to4 relay anycast (RFC 7526)
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
]);

const IPV6_SPECIAL = v6rows([
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'nat64-local'], // RFC 8215: local-use NAT64, translates into private space
  ['100::/64', 'discard'],
  ['2001:db8::/32', 'documentation'],
  ['2001::/23', 'ietf-protocol'], // after Teredo (2001::/32) is unwrapped, see below
  ['3fff::/20', 'documentation'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
]);

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const MAPPED = ipaddr.IPv6.parseCIDR('::ffff:0:0/96');
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');
const TEREDO = ipaddr.IPv6.parseCIDR('2001::/32');

/** True when `host` (a URL hostname, IPv6 possibly in brackets) is an IP literal. */
export function isIpLiteral(host: string): boolean {
  const text = stripBrackets(host);
  return (text.includes(':') && ipaddr.IPv6.isValid(text)) || ipaddr.IPv4.isValidFourPartDecimal(text);
}

export function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** Classifies one IP address (text form) and decides whether a fetch may connect to it. */
export function checkAddress(address: string, options: AddressGuardOptions = {}): AddressVerdict {
  const text = stripBrackets(address);
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // `parse` (not `process`) so that ::ffff:a.b.c.d stays IPv6 and is unwrapped below, on purpose.
    parsed = ipaddr.parse(text);
  } catch {
    return { allowed: false, address: text, family: text.includes(':') ? 6 : 4, range: 'invalid' };
  }
  if (parsed.kind() === 'ipv4') {
    const range = classifyV4(parsed as ipaddr.IPv4);
    return decide({ address: parsed.toString(), family: 4, range }, options);
  }
  const v6 = parsed as ipaddr.IPv6;
  const base = { address: v6.toString(), family: 6 as const };
  const embedded = classifyEmbedded(v6);
  if (embedded) return decide({ ...base, ...embedded }, options);
  return decide({ ...base, range: classifyV6(v6) }, options);
}

function decide(verdict: Omit<AddressVerdict, 'allowed'>, options: AddressGuardOptions): AddressVerdict {
  // Loopback through NAT64/6to4/Teredo would be the *gateway's* loopback, never ours: always refused.
  const localLoopback = verdict.range === 'loopback' && (verdict.via === undefined || verdict.via === 'ipv4-mapped');
  const allowed = verdict.range === 'global' || (localLoopback && options.allowLoopback === true);
  return { ...verdict, allowed };
}

function classifyV4(ip: ipaddr.IPv4): AddressRange {
  for (const [cidr, range] of IPV4_SPECIAL) if (ip.match(cidr)) return range;
  // ipaddr.js keeps its own list (AS112, AMT, …); anything it calls special is refused too.
  return ip.range() === 'unicast' ? 'global' : 'reserved';
}

function classifyV6(ip: ipaddr.IPv6): AddressRange {
  for (const [cidr, range] of IPV6_SPECIAL) if (ip.match(cidr)) return range;
  if (!ip.match(GLOBAL_UNICAST_V6)) return 'not-global-unicast';
  return ip.range() === 'unicast' ? 'global' : 'reserved';
}

/** For IPv6 forms carrying IPv4 addresses: the verdict of the worst embedded address. */
function classifyEmbedded(ip: ipaddr.IPv6): { range: AddressRange; via: EmbeddingKind } | undefined {
  const p = ip.parts;
  const v4 = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([(hi >> 8) & 0xff, hi & 0xff, (lo >> 8) & 0xff, lo & 0xff]);
  const at = (i: number): number => p[i] ?? 0;
  if (ip.match(MAPPED)) return { range: classifyV4(v4(at(6), at(7))), via: 'ipv4-mapped' };
  if (ip.match(NAT64)) return { range: classifyV4(v4(at(6), at(7))), via: 'nat64' };
  if (ip.match(SIX_TO_FOUR)) return { range: classifyV4(v4(at(1), at(2))), via: '6to4' };
  if (ip.match(TEREDO)) {
    // RFC 4380: server IPv4 in bits 32–63, client IPv4 bit-inverted in bits 96–127.
    const server = classifyV4(v4(at(2), at(3)));
    const client = classifyV4(v4(~at(6) & 0xffff, ~at(7) & 0xffff));
    return { range: server !== 'global' ? server : client, via: 'teredo' };
  }
  return undefined;
}
