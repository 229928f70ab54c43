/**
 * Signing and verifying a signature base with a key's algorithm. ECDSA signatures travel as the
 * fixed-width r‖s of RFC 9421 §3.3.1 (`ieee-p1363`), never DER; Ed25519 as RFC 8032 bytes.
 */
import { sign, verify, type KeyObject } from 'node:crypto';
import type { SignatureAlgorithm } from './jwk.js';

const DIGEST: Readonly<Record<SignatureAlgorithm, string | null>> = { ES256: 'sha256', ES384: 'sha384', EdDSA: null };

/** The signature of `base` (UTF-8) with `privateKey`. */
export function signBase(algorithm: SignatureAlgorithm, privateKey: KeyObject, base: string): Uint8Array {
  return sign(DIGEST[algorithm], Buffer.from(base, 'utf8'), { key: privateKey, dsaEncoding: 'ieee-p1363' });
}

/** Whether `signature` is a valid signature of `base` under `publicKey`; a malformed signature is simply not valid. */
export function verifyBase(algorithm: SignatureAlgorithm, publicKey: KeyObject, base: string, signature: Uint8Array): boolean {
  try {
    return verify(DIGEST[algorithm], Buffer.from(base, 'utf8'), { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature);
  } catch {
    return false;
  }
}
