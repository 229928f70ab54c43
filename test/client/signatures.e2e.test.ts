/**
 * The Platform SDK against signing Businesses on 127.0.0.1 (R-SIG1–R-SIG3), over MCP and REST:
 * requests signed with `signingKey`, answers verified whenever the Business publishes keys.
 *
 * Interop: every case runs twice, once with the Business's verifying and signing done by our own
 * module and once by the independent `http-message-signatures` package (its digests computed by
 * hand), so our requests are verified by someone else's RFC 9421 reading and theirs are accepted
 * by our verifier — requests and answers, on both bindings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnswerSignatureError,
  BusinessError,
  UcpLocationClient,
  buildPlatformProfile,
  type BindingName,
  type DiscoverOptions,
} from '../../src/client/index.js';
import { generateSigningJwk, readSigningKeySet, type SigningKeySet } from '../../src/protocol/signatures/index.js';
import { startSigningFront, type Implementation, type SigningFlaw, type SigningFront } from '../support/signing-front.js';
import { startBusiness, startProfileHost, type Business, type ProfileHost } from './support/peers.js';

let business: Business;
let host: ProfileHost;
let platformKey: SigningKeySet;
let strangerKey: SigningKeySet;
let businessKey: SigningKeySet;
let profileUrl: string;
const fronts: SigningFront[] = [];

beforeAll(async () => {
  [business, host] = await Promise.all([startBusiness({ locations: 12 }), startProfileHost()]);
  platformKey = readSigningKeySet(generateSigningJwk(), 'platform key');
  strangerKey = readSigningKeySet(generateSigningJwk(), 'stranger key');
  businessKey = readSigningKeySet(generateSigningJwk(), 'business key');
  profileUrl = host.publish('/platform.json', { ...buildPlatformProfile(), keys: platformKey.published });
}, 60_000);

afterAll(async () => {
  await Promise.all([business?.close(), host?.close(), ...fronts.map((f) => f.close())]);
});

async function front(
  implementation: Implementation,
  verify: 'off' | 'if-present' | 'required',
  extra: { flaws?: SigningFlaw[]; keyless?: boolean } = {},
): Promise<SigningFront> {
  const started = await startSigningFront({
    backend: business.url,
    verify,
    implementation,
    ...(extra.keyless === true ? {} : { businessKey }),
    ...(extra.flaws !== undefined ? { flaws: extra.flaws } : {}),
  });
  fronts.push(started);
  return started;
}

function options(transport: BindingName, extra: Partial<DiscoverOptions> = {}): DiscoverOptions {
  return { platformProfileUrl: profileUrl, fetch: { allowLoopback: true }, transport, ...extra };
}

async function search(url: string, opts: DiscoverOptions): Promise<number> {
  const client = await UcpLocationClient.discover(url, opts);
  try {
    const page = await client.search({ query: 'grocery' });
    return page.locations.length;
  } finally {
    await client.close();
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe.each([
  ['mcp', 'ours'],
  ['rest', 'ours'],
  ['mcp', 'library'],
  ['rest', 'library'],
] as const)('SDK over %s, Business signing with %s', (transport, implementation) => {
  it('R-SIG2, R-SIG3: a signed search is verified by the Business, and its signed answer by the SDK', async () => {
    const signing = await front(implementation, 'required');
    const found = await search(signing.url, options(transport, { signingKey: platformKey.signing, requireBusinessSignatures: true }));
    expect(found).toBeGreaterThan(0);
    expect(signing.outcomes['served']).toBeGreaterThan(0);
    expect(Object.keys(signing.outcomes)).toEqual(['served']);
  });

  it('R-SIG2: without a key, the Business refuses with signature_missing and the SDK reports its code', async () => {
    const signing = await front(implementation, 'required');
    const error = await rejection(search(signing.url, options(transport)));
    expect(error).toBeInstanceOf(BusinessError);
    expect((error as BusinessError).ucpCode ?? JSON.stringify((error as BusinessError).details)).toContain('signature_missing');
    expect(signing.outcomes['signature_missing']).toBeGreaterThan(0);
  });

  it('R-SIG2: a key the Platform profile does not list is refused with key_not_found', async () => {
    const signing = await front(implementation, 'required');
    const error = await rejection(search(signing.url, options(transport, { signingKey: strangerKey.signing })));
    expect(error).toBeInstanceOf(BusinessError);
    expect(JSON.stringify((error as BusinessError).details)).toContain('key_not_found');
  });

  it('R-SIG3: an answer altered after signing is an error naming the Business, never a result', async () => {
    const signing = await front(implementation, 'required', { flaws: ['tampers_answers'] });
    const error = await rejection(search(signing.url, options(transport, { signingKey: platformKey.signing })));
    expect(error).toBeInstanceOf(AnswerSignatureError);
    const failure = error as AnswerSignatureError;
    expect(failure.reason).toBe('digest_mismatch');
    expect(failure.businessProfileUrl).toBe(`${signing.url}/.well-known/ucp`);
    expect(failure.message).toContain(signing.url);
  });

  it('R-SIG3: an unsigned answer passes unless requireBusinessSignatures is set', async () => {
    const unsigned = await front(implementation, 'if-present', { flaws: ['unsigned_answers'] });
    expect(await search(unsigned.url, options(transport, { signingKey: platformKey.signing }))).toBeGreaterThan(0);
    const error = await rejection(search(unsigned.url, options(transport, { requireBusinessSignatures: true })));
    expect(error).toBeInstanceOf(AnswerSignatureError);
    expect((error as AnswerSignatureError).reason).toBe('signature_missing');
  });
});

describe('requireBusinessSignatures', () => {
  it('R-SIG3: refuses at discovery a Business that publishes no keys, naming it', async () => {
    const keyless = await front('ours', 'off', { keyless: true });
    expect(await search(keyless.url, options('rest'))).toBeGreaterThan(0);
    const error = await rejection(search(keyless.url, options('rest', { requireBusinessSignatures: true })));
    expect(error).toBeInstanceOf(AnswerSignatureError);
    expect((error as AnswerSignatureError).message).toContain(`${keyless.url}/.well-known/ucp publishes no signing keys`);
  });
});
