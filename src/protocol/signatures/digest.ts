/**
 * RFC 9530 `Content-Digest` over the raw body bytes: the bytes as they travel, never a re-serialised
 * JSON value, so a signer and a verifier agree without canonicalisation.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseDictionary, serializeDictionary, type Dictionary } from 'structured-headers';
import { causeMessage } from '../../errors.js';
import { SignatureError } from './errors.js';

/** The digest algorithms understood here; UCP requires signers to send `sha-256`. */
export type DigestAlgorithm = 'sha-256' | 'sha-512';

const NODE_HASH: Readonly<Record<DigestAlgorithm, string>> = { 'sha-256': 'sha256', 'sha-512': 'sha512' };

function isDigestAlgorithm(name: string): name is DigestAlgorithm {
  return name === 'sha-256' || name === 'sha-512';
}

/** The raw digest of `body` with `algorithm`. */
export function digestBytes(body: Uint8Array, algorithm: DigestAlgorithm): Buffer {
  return createHash(NODE_HASH[algorithm]).update(body).digest();
}

/**
 * The `Content-Digest` field value for `body`, e.g. `sha-256=:X48E9q…=:` (one member per algorithm,
 * in the order given).
 */
export function contentDigest(body: Uint8Array, algorithms: readonly DigestAlgorithm[] = ['sha-256']): string {
  if (algorithms.length === 0) throw new RangeError('contentDigest needs at least one algorithm');
  const members: Dictionary = new Map();
  for (const algorithm of algorithms) members.set(algorithm, [digestBytes(body, algorithm), new Map()]);
  return serializeDictionary(members);
}

/**
 * Checks `header` (a `Content-Digest` value) against `body`. Every member in an algorithm known
 * here must match; members of other algorithms are ignored (RFC 9530 §2), but at least one known
 * member is required. Throws `SignatureError('digest_mismatch')` saying what differs.
 */
export function verifyContentDigest(header: string | undefined, body: Uint8Array): void {
  if (header === undefined || header.trim() === '') {
    throw new SignatureError(
      'digest_mismatch',
      'The Content-Digest header is missing; send Content-Digest: sha-256=:<base64 of the SHA-256 of the body bytes>:.',
    );
  }
  let dictionary: Dictionary;
  try {
    dictionary = parseDictionary(header);
  } catch (cause) {
    throw new SignatureError('digest_mismatch', `The Content-Digest header is not an RFC 8941 dictionary (${causeMessage(cause)}).`, {
      cause,
    });
  }
  let checked = 0;
  for (const [name, member] of dictionary) {
    if (!isDigestAlgorithm(name)) continue;
    const value: unknown = member[0];
    if (!(value instanceof ArrayBuffer)) {
      throw new SignatureError('digest_mismatch', `The Content-Digest member ${name} must be a byte sequence (${name}=:<base64>:).`);
    }
    const received = Buffer.from(value);
    const expected = digestBytes(body, name);
    if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
      throw new SignatureError(
        'digest_mismatch',
        `The Content-Digest ${name} does not match the ${body.byteLength} body bytes received; digest the exact bytes sent, without re-serialising them.`,
      );
    }
    checked += 1;
  }
  if (checked === 0) {
    throw new SignatureError('digest_mismatch', 'The Content-Digest header names no supported algorithm; send a sha-256 member.');
  }
}
