/**
 * Per-tenant cursor keys. Every tenant of one process seals its pagination cursors with its own
 * key, derived by HKDF (RFC 5869) from the process's cursor secret with the tenant's domain as
 * `info`: a cursor one tenant issued cannot be opened at another (`invalid_cursor`), and every
 * instance of a fleet sharing the process secret derives the same key for the same tenant.
 */
import { hkdfSync } from 'node:crypto';

/** Fixed salt: it names the purpose, so keys derived for anything else from the same secret differ. */
const SALT = 'ucp-location tenant cursor key v1';
const KEY_BYTES = 32;

/** The cursor secret for `domain` (hex), derived from the process secret. */
export function tenantCursorSecret(processSecret: string, domain: string): string {
  return Buffer.from(hkdfSync('sha256', processSecret, SALT, domain, KEY_BYTES)).toString('hex');
}
