/**
 * The identity budgets are kept under for a network peer (rate-limits.ts, the discovery shares).
 *
 * An IPv4 address is one key. An IPv6 peer is keyed by its /64 prefix: a single host or subscriber
 * is routinely given a whole /64 and can pick any address in it, so keying by full address would
 * hand it 2^64 budgets (and 2^64 shares of everyone else's). IPv4-mapped IPv6 addresses
 * (`::ffff:192.0.2.1`, what a dual-stack socket reports) are their IPv4 address.
 */
import { isIP } from 'node:net';

export function clientKey(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  const bare = address.split('%')[0] ?? address; // drop a zone id (fe80::1%eth0)
  const lower = bare.toLowerCase();
  if (lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4) return lower.slice(7);
  if (isIP(lower) !== 6) return lower;
  return `${ipv6Groups(lower).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, as lower-case hex without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const part = (text: string): string[] => {
    if (text === '') return [];
    const groups = text.split(':');
    const last = groups[groups.length - 1] ?? '';
    // A trailing dotted IPv4 (64:ff9b::192.0.2.1) fills the last two groups.
    if (isIP(last) === 4) {
      const [a = 0, b = 0, c = 0, d = 0] = last.split('.').map(Number);
      groups.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
    }
    return groups;
  };
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - front.length - back.length).fill('0');
  return [...front, ...zeros, ...back].map((g) => parseInt(g, 16).toString(16));
}
