import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentDigest, verifyContentDigest } from './digest.js';
import { SignatureError } from './errors.js';

const HELLO = Buffer.from('{"hello": "world"}');

function codeOf(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof SignatureError ? error.code : `not a SignatureError: ${String(error)}`;
  }
}

describe('Content-Digest (RFC 9530, R-SIG2)', () => {
  it('gives the RFC 9530 example digests for {"hello": "world"}', () => {
    expect(contentDigest(HELLO)).toBe('sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:');
    expect(contentDigest(HELLO, ['sha-512'])).toBe(
      'sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:',
    );
    expect(contentDigest(HELLO, ['sha-256', 'sha-512'])).toMatch(/^sha-256=:X48E9q[^,]+:, sha-512=:WZDPaV[^,]+:$/);
  });

  it('accepts the matching digest and ignores members of algorithms it does not know', () => {
    expect(codeOf(() => verifyContentDigest('sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:', HELLO))).toBeUndefined();
    expect(codeOf(() => verifyContentDigest('md5=:AAAA:, sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:', HELLO))).toBeUndefined();
  });

  it('refuses a digest of other bytes, a missing or malformed header, or one with no known algorithm as digest_mismatch', () => {
    const other = Buffer.from('{"hello":"world"}'); // same JSON value, other bytes: no canonicalisation
    expect(codeOf(() => verifyContentDigest(contentDigest(HELLO), other))).toBe('digest_mismatch');
    expect(codeOf(() => verifyContentDigest(undefined, HELLO))).toBe('digest_mismatch');
    expect(codeOf(() => verifyContentDigest('sha-256=X48E9q', HELLO))).toBe('digest_mismatch');
    expect(codeOf(() => verifyContentDigest('sha-256="X48E9q"', HELLO))).toBe('digest_mismatch');
    expect(codeOf(() => verifyContentDigest('md5=:AAAA:', HELLO))).toBe('digest_mismatch');
    // Every known member must match, not just one.
    const mixed = `${contentDigest(HELLO)}, ${contentDigest(other, ['sha-512'])}`;
    expect(codeOf(() => verifyContentDigest(mixed, HELLO))).toBe('digest_mismatch');
  });

  it('verifies its own digest of any bytes, and no digest survives a changed byte (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 512 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (bytes, at, flip) => {
        const header = contentDigest(bytes, ['sha-256', 'sha-512']);
        expect(codeOf(() => verifyContentDigest(header, bytes))).toBeUndefined();
        const changed = Uint8Array.from(bytes);
        const i = at % changed.length;
        changed[i] = (changed[i] ?? 0) ^ flip;
        expect(codeOf(() => verifyContentDigest(header, changed))).toBe('digest_mismatch');
      }),
    );
  });
});
