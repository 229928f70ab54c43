/**
 * A tenant's name is its domain: the host name its Platforms find `/.well-known/ucp` at, and the
 * name of its directory under `--tenants <dir>`. So it is checked once, here, for both jobs: a
 * host name DNS could resolve (letters, digits and hyphens in dot-separated labels, IDNA names in
 * their ASCII `xn--` form) can never be `..`, hold a `/`, or name anything outside its parent.
 */
import { domainToASCII } from 'node:url';
import { isIP } from 'node:net';
import { ConfigError } from '../errors.js';

/** RFC 1035: 63 octets a label, 253 characters a name written without its final dot. */
const MAX_LABEL = 63;
const MAX_NAME = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/**
 * The tenant name for `raw`: lower case, IDNA in punycode (`bäckerei.example` →
 * `xn--bckerei-5wa.example`), no trailing dot. Throws ConfigError saying what is wrong.
 */
export function normaliseDomain(raw: string): string {
  const trimmed = raw.trim().replace(/\.$/, '');
  const shown = JSON.stringify(raw.slice(0, 100));
  if (trimmed === '' || /[/\\%@:?#\s]/.test(trimmed)) {
    throw new ConfigError(`${shown} is not a domain name; give the host name the business is known by, e.g. stores.brand.example.`);
  }
  if (isIP(trimmed) !== 0) {
    throw new ConfigError(
      `${shown} is an IP address; a tenant is named by its domain (e.g. stores.brand.example), which its profile is served at.`,
    );
  }
  // WHATWG's domainToASCII lower-cases, maps and punycodes; '' means the name is not valid IDNA.
  const ascii = domainToASCII(trimmed);
  if (ascii === '' || ascii.length > MAX_NAME) {
    throw new ConfigError(`${shown} is not a valid domain name (IDNA); check its spelling.`);
  }
  const labels = ascii.split('.');
  if (labels.length < 2) {
    throw new ConfigError(`${shown} has a single label; give the full domain, e.g. ${ascii}.example.`);
  }
  for (const label of labels) {
    if (label.length > MAX_LABEL || !LABEL.test(label)) {
      throw new ConfigError(
        `${shown} is not a domain name: the label ${JSON.stringify(label)} must be 1–63 letters, digits or inner hyphens.`,
      );
    }
  }
  return ascii;
}
