import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SignatureError, SIGNATURE_ERROR_WIRE } from './errors.js';
import { generateSigningJwk, publicJwk, readSigningKeySet, signingKeyFromJwk, type PublicJwk, type SigningKey } from './jwk.js';
import { profileKeys } from './profile-keys.js';
import { signRequest, signResponse } from './sign.js';
import { hasSignatureHeaders, verifyRequest, verifyResponse } from './verify.js';

const NOW = 1_800_000_000;
const PROFILE = 'https://platform.example/.well-known/ucp';

function newKey(): { key: SigningKey; published: PublicJwk } {
  const jwk = generateSigningJwk();
  return { key: signingKeyFromJwk(jwk, 'test'), published: publicJwk(jwk) };
}

const platform = newKey();
const business = newKey();

function postRequest(body: string, extra: Record<string, string> = {}) {
  const bytes = Buffer.from(body);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'ucp-agent': `profile="${PROFILE}"`, ...extra };
  const target = { method: 'POST', authority: 'business.example', path: '/mcp', headers };
  const signed = signRequest(target, bytes, platform.key, { created: NOW });
  const all: Record<string, string | undefined> = { ...headers, ...signed };
  return { ...target, headers: all, signed, body: bytes };
}

function failure(run: () => unknown): string {
  try {
    run();
    return 'verified';
  } catch (error) {
    if (error instanceof SignatureError) return error.code;
    throw error;
  }
}

const options = { keys: [platform.published], now: NOW };

describe('request signatures (R-SIG2)', () => {
  it('signs over the components the draft requires and verifies with the published key', () => {
    const request = postRequest('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', {
      'idempotency-key': '550e8400-e29b-41d4-a716-446655440000',
    });
    expect(request.headers['signature-input']).toBe(
      `sig1=("@method" "@authority" "@path" "ucp-agent" "idempotency-key" "content-digest" "content-type");created=${NOW};keyid="${platform.key.kid}"`,
    );
    expect(request.headers['content-digest']).toMatch(/^sha-256=:[A-Za-z0-9+/]{43}=:$/);
    const verified = verifyRequest(request, request.body, options);
    expect(verified).toMatchObject({ label: 'sig1', keyid: platform.key.kid, algorithm: 'ES256', created: NOW });
  });

  it('covers @query when the target has one, and nothing body-related for a GET', () => {
    const target = { method: 'GET', authority: 'business.example:8443', path: '/locations', query: 'ids=a,b', headers: {} };
    const signed = signRequest(target, undefined, platform.key);
    expect(signed['content-digest']).toBeUndefined();
    expect(signed['signature-input']).toMatch(/^sig1=\("@method" "@authority" "@path" "@query"\);keyid=/);
    const request = { ...target, headers: signed };
    expect(verifyRequest(request, new Uint8Array(), options).keyid).toBe(platform.key.kid);
    expect(failure(() => verifyRequest({ ...request, query: 'ids=a,c' }, new Uint8Array(), options))).toBe('signature_invalid');
  });

  it('answers each failure with the draft code: missing, unknown key, wrong signature, changed body', () => {
    const request = postRequest('{"a":1}');
    const unsigned = { ...request, headers: { 'content-type': 'application/json' } };
    expect(hasSignatureHeaders(unsigned)).toBe(false);
    expect(failure(() => verifyRequest(unsigned, request.body, options))).toBe('signature_missing');
    expect(failure(() => verifyRequest(request, request.body, { ...options, keys: [business.published] }))).toBe('key_not_found');
    // The right keyid, but the key published under it is another one.
    const impostor = { ...publicJwk(generateSigningJwk()), kid: platform.key.kid };
    expect(failure(() => verifyRequest(request, request.body, { ...options, keys: [impostor] }))).toBe('signature_invalid');
    expect(failure(() => verifyRequest(request, Buffer.from('{"a":2}'), options))).toBe('digest_mismatch');
    expect(failure(() => verifyRequest({ ...request, path: '/other' }, request.body, options))).toBe('signature_invalid');
    expect(SIGNATURE_ERROR_WIRE.digest_mismatch).toEqual({ httpStatus: 400, jsonRpcCode: -32600 });
    expect(SIGNATURE_ERROR_WIRE.key_not_found).toEqual({ httpStatus: 401, jsonRpcCode: -32000 });
  });

  it('treats a signature covering less than required as missing, whatever else it covers', () => {
    const body = Buffer.from('{"a":1}');
    const headers = { 'content-type': 'application/json', 'ucp-agent': `profile="${PROFILE}"` };
    // Signed as if there were no UCP-Agent: the header is then present but uncovered.
    const signed = signRequest(
      { method: 'POST', authority: 'b.example', path: '/', headers: { 'content-type': 'application/json' } },
      body,
      platform.key,
    );
    const error = (() => {
      try {
        verifyRequest({ method: 'POST', authority: 'b.example', path: '/', headers: { ...headers, ...signed } }, body, options);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(SignatureError);
    expect(error instanceof SignatureError && error.code).toBe('signature_missing');
    expect(error instanceof Error && error.message).toMatch(/does not cover "ucp-agent"/);
  });

  it('enforces expires (with the stated clock skew) and refuses a created far in the future', () => {
    const body = Buffer.from('{}');
    const target = { method: 'POST', authority: 'b.example', path: '/', headers: { 'content-type': 'application/json' } };
    const signed = signRequest(target, body, platform.key, { created: NOW - 100, expires: NOW - 10 });
    const request = { ...target, headers: { ...target.headers, ...signed } };
    expect(failure(() => verifyRequest(request, body, { ...options, clockSkewSeconds: 0 }))).toBe('signature_invalid');
    expect(failure(() => verifyRequest(request, body, { ...options, clockSkewSeconds: 30 }))).toBe('verified');
    const future = signRequest(target, body, platform.key, { created: NOW + 3600 });
    expect(failure(() => verifyRequest({ ...target, headers: { ...target.headers, ...future } }, body, options))).toBe('signature_invalid');
  });

  it('refuses a key it cannot use as algorithm_unsupported, and skips encryption-only keys as not found', () => {
    const request = postRequest('{}');
    const okp = { kid: platform.key.kid, kty: 'OKP', crv: 'X25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' };
    expect(failure(() => verifyRequest(request, request.body, { ...options, keys: [okp] }))).toBe('algorithm_unsupported');
    const encOnly = { ...platform.published, use: 'enc' };
    expect(failure(() => verifyRequest(request, request.body, { ...options, keys: [encOnly] }))).toBe('key_not_found');
  });

  it('accepts the message when any of several signatures verifies, and reports the one that got furthest otherwise', () => {
    const request = postRequest('{"x":true}');
    const other = newKey();
    const second = signRequest(
      { ...request, headers: { 'content-type': 'application/json', 'ucp-agent': `profile="${PROFILE}"` } },
      request.body,
      other.key,
      {
        label: 'sig2',
      },
    );
    const both = {
      ...request,
      headers: {
        ...request.headers,
        'signature-input': [request.signed['signature-input'], second['signature-input']],
        signature: [request.signed.signature, second.signature],
      },
    };
    expect(verifyRequest(both, request.body, { ...options, keys: [other.published] }).label).toBe('sig2');
    expect(verifyRequest(both, request.body, options).label).toBe('sig1');
    expect(failure(() => verifyRequest(both, Buffer.from('{"x":false}'), { ...options, keys: [other.published] }))).toBe('digest_mismatch');
  });

  it('skips signatures tagged for another purpose; a web-bot-auth one must use the thumbprint as keyid', () => {
    const request = postRequest('{}');
    const tagged = { ...request, headers: { ...request.headers, 'signature-input': `${request.headers['signature-input']};tag="other"` } };
    expect(failure(() => verifyRequest(tagged, request.body, options))).toBe('signature_missing');
    const named = { ...platform.published, kid: 'named-key' };
    const key = { ...platform.key, kid: 'named-key' };
    const target = { method: 'POST', authority: 'b.example', path: '/', headers: { 'content-type': 'application/json' } };
    const signed = signRequest(target, request.body, key);
    const wba = {
      ...target,
      headers: { ...target.headers, ...signed, 'signature-input': `${signed['signature-input']};tag="web-bot-auth"` },
    };
    expect(failure(() => verifyRequest(wba, request.body, { ...options, keys: [named] }))).toBe('signature_invalid');
  });

  it('finds keys published as keys[] or signing_keys[] in a profile (R-SIG1)', () => {
    const request = postRequest('{}');
    expect(verifyRequest(request, request.body, { ...options, keys: profileKeys({ signing_keys: [platform.published] }) }).keyid).toBe(
      platform.key.kid,
    );
    expect(profileKeys({ keys: [1], signing_keys: [2] })).toEqual([1, 2]);
    expect(profileKeys({ keys: 'nope' })).toEqual([]);
  });

  it('refuses any change to a covered component (property)', () => {
    const request = postRequest('{"q":"coffee"}', { 'idempotency-key': 'abc-123' });
    fc.assert(
      fc.property(
        fc.constantFrom('method', 'authority', 'path', 'ucp-agent', 'idempotency-key', 'content-type'),
        fc.string({ minLength: 1, maxLength: 8 }).filter((s) => /^[a-z0-9]+$/.test(s)),
        (part, suffix) => {
          const changed =
            part === 'method' || part === 'authority' || part === 'path'
              ? { ...request, [part]: `${request[part]}${suffix}` }
              : { ...request, headers: { ...request.headers, [part]: `${request.headers[part] ?? ''}${suffix}` } };
          expect(failure(() => verifyRequest(changed, request.body, options))).not.toBe('verified');
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('response signatures (R-SIG3)', () => {
  const body = Buffer.from('{"locations":[]}');
  const headers = { 'content-type': 'application/json' };

  it('signs @status, content-digest and content-type with created, and verifies with the Business key', () => {
    const signed = signResponse({ status: 200, headers }, body, business.key, { created: NOW });
    expect(signed['signature-input']).toBe(`sig1=("@status" "content-digest" "content-type");created=${NOW};keyid="${business.key.kid}"`);
    const response = { status: 200, headers: { ...headers, ...signed } };
    expect(verifyResponse(response, body, { keys: [business.published], now: NOW }).created).toBe(NOW);
    expect(failure(() => verifyResponse({ ...response, status: 201 }, body, { keys: [business.published], now: NOW }))).toBe(
      'signature_invalid',
    );
    expect(failure(() => verifyResponse(response, Buffer.from('{"locations":[1]}'), { keys: [business.published], now: NOW }))).toBe(
      'digest_mismatch',
    );
  });

  it('treats a response signature that leaves the body uncovered as invalid (draft)', () => {
    const signed = signResponse({ status: 204, headers: {} }, undefined, business.key, { created: NOW });
    const response = { status: 204, headers: { ...headers, ...signed, 'content-digest': 'sha-256=:AAAA:' } };
    expect(failure(() => verifyResponse(response, body, { keys: [business.published], now: NOW }))).toBe('signature_invalid');
  });

  it('refuses to sign a body without a content-type', () => {
    expect(() => signResponse({ status: 200, headers: {} }, body, business.key, { created: NOW })).toThrow(/no Content-Type/);
  });

  it('signs with the first private key of a rotation set; the old key still verifies what it signed', () => {
    const old = generateSigningJwk();
    const next = generateSigningJwk();
    const set = readSigningKeySet({ keys: [next, publicJwk(old)] }, 'rotation');
    const signedOld = signResponse({ status: 200, headers }, body, signingKeyFromJwk(old, 'old'), { created: NOW });
    const signedNew = signResponse({ status: 200, headers }, body, set.signing, { created: NOW });
    for (const signed of [signedOld, signedNew]) {
      expect(verifyResponse({ status: 200, headers: { ...headers, ...signed } }, body, { keys: set.published, now: NOW }).keyid).toMatch(
        /./,
      );
    }
  });
});
