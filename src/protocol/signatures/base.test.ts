import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { componentValue, signatureBase } from './base.js';
import { verifyBase } from './crypto.js';
import { SignatureError } from './errors.js';
import { parseSignatureField, parseSignatureInput } from './fields.js';

/** RFC 9421 Appendix B.1.3 test-key-ecc-p256 and B.1.4 test-key-ed25519, public parts. */
const ECC_P256 = createPublicKey(
  '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEqIVYZVLCrPZHGHjP17CTW0/+D9Lf\nw0EkjqF7xB4FivAxzic30tMM4GF+hR6Dxh71Z50VGGdldkkDXZCnTNnoXQ==\n-----END PUBLIC KEY-----',
);
const ED25519 = createPublicKey(
  '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=\n-----END PUBLIC KEY-----',
);

function only<T>(map: Map<string, T>, label: string): T {
  const value = map.get(label);
  if (value === undefined) throw new Error(`no ${label}`);
  return value;
}

describe('signature base (RFC 9421 §2.5)', () => {
  it('rebuilds the RFC 9421 B.2.4 response base, whose ES256 (r‖s) signature verifies with test-key-ecc-p256 (R-SIG1, R-SIG3)', () => {
    const headers = {
      'content-type': 'application/json',
      'content-digest': 'sha-512=:mEWXIS7MaLRuGgxOBdODa3xqM1XdEvxoYhvlCFJ41QJgJc4GTsPp29l5oGX69wWdXymyU0rjJuahq4l5aGgfLQ==:',
      'content-length': '23',
      'signature-input':
        'sig-b24=("@status" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-ecc-p256"',
      signature: 'sig-b24=:wNmSUAhwb5LxtOtOpNa6W5xj067m5hFrj0XQ4fvpaCLx0NKocgPquLgyahnzDnDAUy5eCdlYUEkLIj+32oiasw==:',
    };
    const input = only(parseSignatureInput(headers['signature-input']), 'sig-b24');
    const base = signatureBase({ status: 200, headers }, input.components, input.serializedParams);
    expect(base).toBe(
      [
        '"@status": 200',
        '"content-type": application/json',
        '"content-digest": sha-512=:mEWXIS7MaLRuGgxOBdODa3xqM1XdEvxoYhvlCFJ41QJgJc4GTsPp29l5oGX69wWdXymyU0rjJuahq4l5aGgfLQ==:',
        '"content-length": 23',
        '"@signature-params": ("@status" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-ecc-p256"',
      ].join('\n'),
    );
    const signature = only(parseSignatureField(headers.signature), 'sig-b24');
    expect(signature.byteLength).toBe(64);
    expect(verifyBase('ES256', ECC_P256, base, signature)).toBe(true);
    expect(verifyBase('ES256', ECC_P256, base.replace('200', '201'), signature)).toBe(false);
  });

  it('rebuilds the RFC 9421 B.2.6 request base (derived components, header casing), whose Ed25519 signature verifies', () => {
    const headers = {
      Host: 'example.com',
      Date: 'Tue, 20 Apr 2021 02:07:55 GMT',
      'Content-Type': 'application/json',
      'Content-Length': '18',
    };
    const input = only(
      parseSignatureInput(
        'sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519"',
      ),
      'sig-b26',
    );
    const request = { method: 'POST', authority: 'Example.COM', path: '/foo', query: 'param=Value&Pet=dog', headers };
    const base = signatureBase(request, input.components, input.serializedParams);
    expect(base.split('\n').slice(0, 4)).toEqual([
      '"date": Tue, 20 Apr 2021 02:07:55 GMT',
      '"@method": POST',
      '"@path": /foo',
      '"@authority": example.com',
    ]);
    const signature = only(
      parseSignatureField('sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:'),
      'sig-b26',
    );
    expect(verifyBase('EdDSA', ED25519, base, signature)).toBe(true);
  });

  it('gives @query as "?" plus the query (RFC 9421 §2.2.7), "/" for an empty path, and joins repeated header lines', () => {
    const request = { method: 'GET', authority: 'a.example', path: '', query: 'param=Value&Pet=dog', headers: { 'x-list': ['a ', ' b'] } };
    expect(componentValue(request, { name: '@query' })).toBe('?param=Value&Pet=dog');
    expect(componentValue({ ...request, query: undefined }, { name: '@query' })).toBe('?');
    expect(componentValue(request, { name: '@path' })).toBe('/');
    expect(componentValue(request, { name: 'x-list' })).toBe('a, b');
    expect(componentValue({ status: 200, headers: new Headers({ 'X-Thing': 'v' }) }, { name: 'x-thing' })).toBe('v');
  });

  it('selects one member of a dictionary field with ;key (RFC 9421 §2.1.2), as WBA signature-agent does', () => {
    const request = {
      method: 'POST',
      authority: 'a.example',
      path: '/',
      headers: { 'signature-agent': 'sig1="https://p.example/.well-known/ucp";type=jwks_uri, sig2="x"' },
    };
    expect(componentValue(request, { name: 'signature-agent', key: 'sig1' })).toBe('"https://p.example/.well-known/ucp";type=jwks_uri');
    expect(() => componentValue(request, { name: 'signature-agent', key: 'sig9' })).toThrow(SignatureError);
  });

  it('refuses a component the message lacks or that belongs to the other kind of message', () => {
    const request = { method: 'GET', authority: 'a.example', path: '/', headers: {} };
    expect(() => componentValue(request, { name: 'content-digest' })).toThrow(/does not carry/);
    expect(() => componentValue(request, { name: '@status' })).toThrow(/describes a response/);
    expect(() => componentValue({ status: 200, headers: {} }, { name: '@method' })).toThrow(/describes a request/);
    expect(() => componentValue(request, { name: '@target-uri' })).toThrow(/not supported/);
  });
});
