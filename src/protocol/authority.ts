/**
 * Authority binding (R-N2, R-N3): a `schema` URL proves provenance only when its host, with the
 * labels reversed, equals the entity name or is a label-aligned prefix of it. Pure: parses with
 * the WHATWG parser built into Node (`URL`), never resolves or fetches anything. This is not a
 * fetch-safety check (R-N4 is separate and checks resolved addresses).
 */
import { isReverseDomainName } from './names.js';

export type AuthorityBinding = { ok: true; kind: 'exact' | 'prefix'; authorityPrefix: string } | { ok: false; reason: string };

export type AuthorityPrefix = { ok: true; authorityPrefix: string; host: string } | { ok: false; reason: string };

/** DNS limits (RFC 1035): 63 octets a label, 253 characters for the dotted name. */
const MAX_LABEL = 63;
const MAX_HOST = 253;
/** LDH label: letters, digits, interior hyphens (A-labels such as `xn--bcher-kva` included). */
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
/** What the WHATWG parser emits for every IPv4 spelling (`0x7f.1`, `2130706433`, `127.1`, …). */
const DOTTED_QUAD = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * True when the raw string carries a userinfo component, even an empty one (`https://@host`,
 * `https://:@host`): the parser drops empty credentials from `href`, so `URL.username` alone
 * cannot see them. Mirrors the WHATWG steps for special schemes: outer C0/space is trimmed,
 * tabs and newlines vanish anywhere, any run of `/` or `\` after the scheme is skipped, and the
 * authority ends at the first `/`, `\`, `?` or `#`.
 */
function hasUserinfo(raw: string): boolean {
  // eslint-disable-next-line no-control-regex
  const cleaned = raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(cleaned);
  if (scheme === null) return false;
  const rest = cleaned.slice(scheme[0].length).replace(/^[/\\]+/, '');
  const end = rest.search(/[/\\?#]/);
  const authority = end === -1 ? rest : rest.slice(0, end);
  return authority.includes('@');
}

/**
 * Derives `authority_prefix` from a schema URL: https, no userinfo, a domain of at least two
 * LDH labels (no IP literal), lower-case, one trailing dot removed, A-label form, labels
 * reversed. The port, path, query and fragment play no part.
 */
export function deriveAuthorityPrefix(schemaUrl: string): AuthorityPrefix {
  let url: URL;
  try {
    url = new URL(schemaUrl);
  } catch {
    return {
      ok: false,
      reason: `schema URL ${JSON.stringify(schemaUrl)} does not parse as a URL; expected an absolute https URL such as "https://example.com/schemas/x.json"`,
    };
  }
  if (url.protocol !== 'https:') {
    return { ok: false, reason: `schema URL ${JSON.stringify(schemaUrl)} uses "${url.protocol.slice(0, -1)}"; only https is accepted` };
  }
  if (url.username !== '' || url.password !== '' || hasUserinfo(schemaUrl)) {
    return {
      ok: false,
      reason: `schema URL ${JSON.stringify(schemaUrl)} contains userinfo ("…@"); remove it — the authority is the host after "@" (${JSON.stringify(url.hostname)}), never text before it`,
    };
  }
  // The parser has already lower-cased ASCII, mapped IDNs to A-labels and normalised IPv4 spellings.
  const hostname = url.hostname;
  if (hostname.startsWith('[')) {
    return {
      ok: false,
      reason: `schema URL ${JSON.stringify(schemaUrl)} has an IPv6 literal host ${hostname}; an authority must be a registered domain name`,
    };
  }
  if (DOTTED_QUAD.test(hostname)) {
    return {
      ok: false,
      reason: `schema URL ${JSON.stringify(schemaUrl)} has an IPv4 host (${hostname} once normalised); an authority must be a registered domain name`,
    };
  }
  // Exactly one trailing dot (the DNS root) may be dropped; a second one leaves an empty label.
  const host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  const labels = host.split('.');
  if (labels.some((l) => l === '')) {
    return {
      ok: false,
      reason: `schema URL host ${JSON.stringify(hostname)} has an empty label; expected a domain name such as "example.com"`,
    };
  }
  if (labels.length < 2) {
    return {
      ok: false,
      reason: `schema URL host ${JSON.stringify(hostname)} is a single label; an authority must be a registered domain of at least two labels, e.g. "example.com"`,
    };
  }
  if (host.length > MAX_HOST) {
    return { ok: false, reason: `schema URL host is ${host.length} characters long; a domain name has at most ${MAX_HOST}` };
  }
  const bad = labels.find((l) => l.length > MAX_LABEL || !LDH_LABEL.test(l));
  if (bad !== undefined) {
    return {
      ok: false,
      reason: `schema URL host ${JSON.stringify(hostname)} has label ${JSON.stringify(bad)} that is not a DNS host label (letters, digits and interior hyphens, at most ${MAX_LABEL} characters)`,
    };
  }
  return { ok: true, authorityPrefix: labels.reverse().join('.'), host };
}

/**
 * Authority binding of `name` to `schemaUrl` (R-N2). `exact`: the reversed host is the name
 * (`com.example.pay` from `pay.example.com`); `prefix`: the reversed host followed by `.` starts
 * the name (`dev.ucp.common.location.search` from `ucp.dev`). The `.` keeps the match on a label
 * boundary so `example.com` never vouches for `com.examplecorp.*`. No Public Suffix List.
 */
export function checkAuthorityBinding(name: string, schemaUrl: string): AuthorityBinding {
  if (!isReverseDomainName(name)) {
    return {
      ok: false,
      reason: `entity name ${JSON.stringify(name)} is not a reverse-domain name (e.g. "com.example.shopping.loyalty"), so it cannot be bound to a schema host`,
    };
  }
  const derived = deriveAuthorityPrefix(schemaUrl);
  if (!derived.ok) return derived;
  const prefix = derived.authorityPrefix;
  if (name === prefix) return { ok: true, kind: 'exact', authorityPrefix: prefix };
  if (name.startsWith(`${prefix}.`)) return { ok: true, kind: 'prefix', authorityPrefix: prefix };
  const apex = name.split('.').slice(0, 2).reverse().join('.');
  return {
    ok: false,
    reason:
      `schema host ${JSON.stringify(derived.host)} (authority "${prefix}") does not own ${JSON.stringify(name)}: ` +
      `expected a host whose labels, reversed, equal the name or a label-aligned prefix of it ` +
      `(for example "${apex}", or a subdomain that follows the name's labels)`,
  };
}
