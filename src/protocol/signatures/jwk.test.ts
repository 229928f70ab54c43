import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors.js';
import { algorithmOf, generateSigningJwk, isSignatureCapable, jwkThumbprint, publicJwk, readSigningKeySet } from './jwk.js';

/** The draft's OKP example key (RFC 9421 test-key-ed25519): its kid is its RFC 7638 thumbprint. */
const DRAFT_OKP = {
  kid: 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U',
  kty: 'OKP',
  crv: 'Ed25519',
  x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
  use: 'sig',
  alg: 'EdDSA',
};

/** The draft's EC example key. */
const DRAFT_EC = {
  kid: 'key-2024-01-15',
  kty: 'EC',
  crv: 'P-256',
  x: 'WKn-ZIGevcwGIyyrzFoZNBdaq9_TsqzGl96oc0CWuis',
  y: 'y77t-RvAHRKTsSGdIYUfweuOvwrvDD-Q3Hv5J0fSKbE',
  use: 'sig',
  alg: 'ES256',
};

describe('JWKs for signatures (R-SIG1)', () => {
  it('computes the RFC 7638 thumbprint the draft publishes as the Ed25519 example kid', () => {
    expect(jwkThumbprint(DRAFT_OKP)).toBe(DRAFT_OKP.kid);
    // Only required members count: kid, use, alg and member order change nothing.
    expect(jwkThumbprint({ x: DRAFT_OKP.x, crv: 'Ed25519', kty: 'OKP' })).toBe(DRAFT_OKP.kid);
  });

  it('gives a private key and its public part one thumbprint, and refuses keys it cannot describe', () => {
    const priv = generateSigningJwk();
    expect(priv['kid']).toBe(jwkThumbprint(priv));
    expect(jwkThumbprint(publicJwk(priv))).toBe(priv['kid']);
    expect(() => jwkThumbprint({ kty: 'EC', crv: 'P-256', x: 'a' })).toThrow(/needs "y"/);
    expect(() => jwkThumbprint({ kty: 'XYZ' })).toThrow(/kty "XYZ"/);
  });

  it('derives the algorithm from kty/crv: ES256 for the draft EC example, EdDSA for the OKP one; others are unusable, not errors', () => {
    expect(algorithmOf(DRAFT_EC)).toBe('ES256');
    expect(algorithmOf(DRAFT_OKP)).toBe('EdDSA');
    expect(algorithmOf({ ...DRAFT_EC, crv: 'P-384', alg: 'ES384' })).toBe('ES384');
    expect(algorithmOf({ ...DRAFT_EC, crv: 'secp256k1' })).toBeUndefined();
    expect(algorithmOf({ ...DRAFT_EC, alg: 'ES384' })).toBeUndefined(); // alg contradicts the curve
    expect(algorithmOf({ kty: 'RSA', n: 'AQAB', e: 'AQAB' })).toBeUndefined();
    expect(algorithmOf('not a key')).toBeUndefined();
  });

  it('treats use:"enc" and key_ops without "verify" as not signature-capable (RFC 7517 §4.2, §4.3)', () => {
    expect(isSignatureCapable(DRAFT_EC)).toBe(true);
    expect(isSignatureCapable({ ...DRAFT_EC, use: undefined })).toBe(true);
    expect(isSignatureCapable({ ...DRAFT_EC, use: 'enc' })).toBe(false);
    expect(isSignatureCapable({ ...DRAFT_EC, key_ops: ['encrypt'] })).toBe(false);
    expect(isSignatureCapable({ ...DRAFT_EC, key_ops: ['verify'] })).toBe(true);
  });

  it('publishes only public members: a private key never leaks its "d" (R-SIG1)', () => {
    const priv = generateSigningJwk();
    const pub = publicJwk({ ...priv, key_ops: ['sign'], p: 'x', q: 'y', k: 'z' });
    expect(Object.keys(pub).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    expect(JSON.stringify(pub)).not.toContain(priv['d']);
    expect(publicJwk({ kty: 'EC', crv: 'P-256', x: DRAFT_EC.x, y: DRAFT_EC.y }).kid).toBe(jwkThumbprint(DRAFT_EC));
  });

  it('reads a single private JWK: it signs and is the one key published', () => {
    const priv = generateSigningJwk();
    const set = readSigningKeySet(priv, 'key.json');
    expect(set.signing.kid).toBe(priv['kid']);
    expect(set.signing.algorithm).toBe('ES256');
    expect(set.published).toEqual([publicJwk(priv)]);
  });

  it('reads a JWK Set for rotation: the first private key signs, every key is published, public parts only', () => {
    const next = generateSigningJwk();
    const current = generateSigningJwk();
    const retired = publicJwk(generateSigningJwk());
    const set = readSigningKeySet({ keys: [retired, current, next] }, 'keys.json');
    expect(set.signing.kid).toBe(current['kid']);
    expect(set.published.map((k) => k.kid)).toEqual([current['kid'], retired.kid, next['kid']]);
    expect(JSON.stringify(set.published)).not.toMatch(/"d"/);
  });

  it('refuses key files it cannot sign with, naming the file and what to change', () => {
    const priv = generateSigningJwk();
    const refuse = (json: unknown) => {
      try {
        readSigningKeySet(json, 'k.json');
        return 'accepted';
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return error instanceof Error ? error.message : '';
      }
    };
    expect(refuse([])).toMatch(/^k\.json: expected a JWK or a JWK Set/);
    expect(refuse(publicJwk(priv))).toMatch(/not a private JWK/);
    expect(refuse({ keys: [] })).toMatch(/non-empty array/);
    expect(refuse({ keys: [publicJwk(priv)] })).toMatch(/no private key/);
    expect(refuse({ ...priv, crv: 'P-521' })).toMatch(/sign with an EC P-256 key/);
    expect(refuse({ ...priv, d: 'AAAA' })).toMatch(/cannot be loaded|does not match/);
    expect(refuse({ ...priv, d: generateSigningJwk()['d'] })).toMatch(/does not match the key's public part/);
    expect(refuse({ keys: [priv, { ...publicJwk(generateSigningJwk()), kid: priv['kid'] }] })).toMatch(/share kid/);
    expect(refuse({ keys: [priv, { kty: 'oct', k: 'secret' }] })).toMatch(/keys\[1\]/);
  });
});
