/**
 * JSON Web Keys (RFC 7517) for message signatures: which published keys can verify, which
 * algorithm a key implies (UCP derives it from `kty`/`crv`, never from the signature), RFC 7638
 * thumbprints, and the public part of a private key — the only part ever published or logged.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { causeMessage, ConfigError } from '../../errors.js';
import { isRecord } from '../guards.js';

/** The algorithms this implementation verifies and signs with. ES256 is the UCP baseline. */
export type SignatureAlgorithm = 'ES256' | 'ES384' | 'EdDSA';

/** A public JWK as published in a profile's `keys[]`: only public members. */
export interface PublicJwk {
  readonly kid: string;
  readonly kty: string;
  readonly crv?: string;
  readonly x?: string;
  readonly y?: string;
  readonly n?: string;
  readonly e?: string;
  readonly use?: string;
  readonly alg?: string;
}

/** The members that make up each key type's public part (RFC 7518 §6, RFC 8037 §2). */
const PUBLIC_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  EC: ['crv', 'x', 'y'],
  OKP: ['crv', 'x'],
  RSA: ['e', 'n'],
};

/** The RFC 9421 §6.2 algorithm name of each JWA algorithm, for an `alg` signature parameter. */
export const HTTP_SIGNATURE_ALGORITHM: Readonly<Record<SignatureAlgorithm, string>> = {
  ES256: 'ecdsa-p256-sha256',
  ES384: 'ecdsa-p384-sha384',
  EdDSA: 'ed25519',
};

function stringMember(jwk: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = jwk[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * A key a verifier may use for signatures (RFC 7517 §4.2, §4.3): not `use: "enc"`, and `key_ops`
 * either absent or including `verify`.
 */
export function isSignatureCapable(jwk: unknown): boolean {
  if (!isRecord(jwk)) return false;
  if (jwk['use'] === 'enc') return false;
  const ops = jwk['key_ops'];
  if (ops === undefined) return true;
  return Array.isArray(ops) && ops.includes('verify');
}

/**
 * The algorithm a JWK implies from `kty`/`crv`, or `undefined` when this implementation does not
 * support it (an unsupported key is unusable, never an error for the whole set). A stated `alg`
 * must agree with the curve.
 */
export function algorithmOf(jwk: unknown): SignatureAlgorithm | undefined {
  if (!isRecord(jwk)) return undefined;
  const kty = stringMember(jwk, 'kty');
  const crv = stringMember(jwk, 'crv');
  const alg = stringMember(jwk, 'alg');
  let implied: SignatureAlgorithm | undefined;
  if (kty === 'EC' && crv === 'P-256') implied = 'ES256';
  else if (kty === 'EC' && crv === 'P-384') implied = 'ES384';
  else if (kty === 'OKP' && crv === 'Ed25519') implied = 'EdDSA';
  if (implied === undefined) return undefined;
  if (alg !== undefined && alg !== implied) return undefined;
  return implied;
}

/**
 * The RFC 7638 SHA-256 thumbprint of a JWK (base64url): the hash of its required public members,
 * sorted, as compact JSON. Private members never take part, so a private key and its public part
 * share one thumbprint.
 */
export function jwkThumbprint(jwk: unknown): string {
  if (!isRecord(jwk)) throw new TypeError('a JWK must be a JSON object');
  const kty = stringMember(jwk, 'kty');
  if (kty === undefined) throw new TypeError('a JWK needs "kty"');
  const members = kty === 'oct' ? ['k'] : PUBLIC_MEMBERS[kty];
  if (members === undefined) throw new TypeError(`no RFC 7638 thumbprint is defined here for kty "${kty}"`);
  const required: Record<string, string> = { kty };
  for (const name of members) {
    const value = stringMember(jwk, name);
    if (value === undefined) throw new TypeError(`a ${kty} JWK needs "${name}"`);
    required[name] = value;
  }
  const canonical = JSON.stringify(Object.fromEntries(Object.entries(required).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  return createHash('sha256').update(canonical).digest('base64url');
}

/**
 * The public part of a JWK for publishing: `kid` (the key's own, else its thumbprint), the type's
 * public members, and `use`/`alg` when set. Every private member (`d`, `p`, `q`, …, `k`) is left out
 * by construction: only listed members are copied.
 */
export function publicJwk(jwk: unknown): PublicJwk {
  if (!isRecord(jwk)) throw new TypeError('a JWK must be a JSON object');
  const kty = stringMember(jwk, 'kty');
  const members = kty === undefined ? undefined : PUBLIC_MEMBERS[kty];
  if (kty === undefined || members === undefined)
    throw new TypeError(`a public key needs kty EC, OKP or RSA (got ${JSON.stringify(jwk['kty'])})`);
  const out: Record<string, string> = { kid: stringMember(jwk, 'kid') ?? jwkThumbprint(jwk), kty };
  for (const name of [...members, 'use', 'alg']) {
    const value = stringMember(jwk, name);
    if (value !== undefined) out[name] = value;
  }
  return { ...out, kid: out['kid'] ?? '', kty };
}

/** A JWK with a private part (`d`). */
export function isPrivateJwk(jwk: unknown): boolean {
  return isRecord(jwk) && typeof jwk['d'] === 'string';
}

function nodeJwk(jwk: object): JsonWebKey {
  const out: JsonWebKey = {};
  for (const [name, value] of Object.entries(jwk)) {
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

/** The Node key object of a published JWK, or `undefined` when it is not a usable public key. */
export function importPublicJwk(jwk: unknown): KeyObject | undefined {
  if (!isRecord(jwk)) return undefined;
  try {
    return createPublicKey({ key: nodeJwk(publicJwk(jwk)), format: 'jwk' });
  } catch {
    return undefined;
  }
}

/** A key this party signs with. `privateKey` never leaves the process; `publicJwk` is what others see. */
export interface SigningKey {
  readonly kid: string;
  readonly algorithm: SignatureAlgorithm;
  readonly privateKey: KeyObject;
  readonly publicJwk: PublicJwk;
}

/** A signing key and every key to publish (the signing key's public part first, then the others, for rotation). */
export interface SigningKeySet {
  readonly signing: SigningKey;
  readonly published: readonly PublicJwk[];
}

function keyPairMatches(algorithm: SignatureAlgorithm, privateKey: KeyObject, published: PublicJwk): boolean {
  const probe = Buffer.from('ucp key pair check');
  const digest = algorithm === 'EdDSA' ? null : algorithm === 'ES384' ? 'sha384' : 'sha256';
  try {
    const publicKey = createPublicKey({ key: nodeJwk(published), format: 'jwk' });
    return verify(digest, probe, publicKey, sign(digest, probe, privateKey));
  } catch {
    return false;
  }
}

/** A private JWK as a signing key. `source` names where it came from in error messages. */
export function signingKeyFromJwk(jwk: unknown, source: string): SigningKey {
  if (!isRecord(jwk) || !isPrivateJwk(jwk)) throw new ConfigError(`${source}: not a private JWK (it has no "d" member).`);
  const algorithm = algorithmOf(jwk);
  if (algorithm === undefined) {
    throw new ConfigError(
      `${source}: the key is kty ${JSON.stringify(jwk['kty'])}, crv ${JSON.stringify(jwk['crv'])}${jwk['alg'] === undefined ? '' : `, alg ${JSON.stringify(jwk['alg'])}`}; sign with an EC P-256 key (ES256), or P-384 / Ed25519.`,
    );
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: nodeJwk(jwk), format: 'jwk' });
  } catch (cause) {
    throw new ConfigError(`${source}: the private key cannot be loaded (${causeMessage(cause)}).`, { cause });
  }
  const published = publicJwk(jwk);
  // node:crypto loads a `d` that belongs to another key without complaint; signing with it would
  // publish one key and sign with another. A signature made with `d` must verify under x, y.
  if (!keyPairMatches(algorithm, privateKey, published)) {
    throw new ConfigError(`${source}: the private part "d" does not match the key's public part; export the key pair again.`);
  }
  return { kid: published.kid, algorithm, privateKey, publicJwk: published };
}

/**
 * A key file's content (parsed JSON) as a signing key set: a single private JWK, or a JWK Set
 * (`{"keys": [...]}`) whose first private key signs and whose every key is published (public part
 * only) so a rotation can announce the next key, or keep the last one verifying. Kids must be unique.
 */
export function readSigningKeySet(json: unknown, source: string): SigningKeySet {
  if (!isRecord(json)) throw new ConfigError(`${source}: expected a JWK or a JWK Set (a JSON object).`);
  const keys = json['keys'];
  if (keys === undefined) {
    const signing = signingKeyFromJwk(json, source);
    return { signing, published: [signing.publicJwk] };
  }
  if (!Array.isArray(keys) || keys.length === 0) throw new ConfigError(`${source}: "keys" must be a non-empty array of JWKs.`);
  const index = keys.findIndex(isPrivateJwk);
  if (index < 0) throw new ConfigError(`${source}: the JWK Set has no private key (a key with "d") to sign with.`);
  const signing = signingKeyFromJwk(keys[index], `${source} keys[${index}]`);
  const published: PublicJwk[] = [signing.publicJwk];
  keys.forEach((key, i) => {
    if (i === index) return;
    try {
      published.push(publicJwk(key));
    } catch (cause) {
      throw new ConfigError(`${source} keys[${i}]: ${causeMessage(cause)}.`, { cause });
    }
  });
  const kids = new Set<string>();
  for (const key of published) {
    if (kids.has(key.kid)) throw new ConfigError(`${source}: two keys share kid "${key.kid}"; give each key its own kid.`);
    kids.add(key.kid);
  }
  return { signing, published };
}

/** A new ES256 private JWK whose `kid` is its RFC 7638 thumbprint, marked `use: "sig"`, `alg: "ES256"`. */
export function generateSigningJwk(): Readonly<Record<string, string>> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  const { kty, crv, x, y, d } = jwk;
  if (kty === undefined || crv === undefined || x === undefined || y === undefined || d === undefined) {
    throw new Error('node:crypto exported an incomplete EC JWK');
  }
  return { kid: jwkThumbprint({ kty, crv, x, y }), kty, crv, x, y, d, use: 'sig', alg: 'ES256' };
}
