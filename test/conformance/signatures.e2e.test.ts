/**
 * The conformance checker's message-signature rules (R-SIG1–R-SIG4) against signing Businesses on
 * 127.0.0.1: a correct one passes every rule on both bindings; deliberately broken ones — each
 * skipping one check a signing Business must make — fail exactly the rule they break.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type CheckResult, type ConformanceReport } from '../../src/conformance/index.js';
import { generateSigningJwk, readSigningKeySet, type SigningKeySet } from '../../src/protocol/signatures/index.js';
import { startSigningFront, type SigningFront, type SigningFrontOptions } from '../support/signing-front.js';
import { startBusiness, type Business } from '../client/support/peers.js';

let business: Business;
let businessKey: SigningKeySet;
const fronts: SigningFront[] = [];

beforeAll(async () => {
  business = await startBusiness({ locations: 8 });
  businessKey = readSigningKeySet(generateSigningJwk(), 'business key');
}, 60_000);

afterAll(async () => {
  await Promise.all([business?.close(), ...fronts.map((f) => f.close())]);
});

async function check(options: Partial<SigningFrontOptions> & { keyless?: boolean } = {}): Promise<ConformanceReport> {
  const { keyless, ...rest } = options;
  const front = await startSigningFront({
    backend: business.url,
    verify: 'required',
    ...(keyless === true ? {} : { businessKey }),
    ...rest,
  });
  fronts.push(front);
  return runConformance({ businessUrl: front.url, serveProfile: true, allowLoopback: true, only: ['R-SIG'] });
}

function byCheck(report: ConformanceReport, id: string): CheckResult[] {
  return report.results.filter((r) => r.check === id);
}

function statuses(report: ConformanceReport): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of report.results) (out[r.check] ??= []).push(r.status);
  return out;
}

describe('conformance: message signatures', () => {
  it('R-SIG1–R-SIG4: a Business that requires and makes signatures passes every rule on MCP and REST', async () => {
    const report = await check();
    expect(report.bindings.sort()).toEqual(['mcp', 'rest']);
    expect(
      report.summary.fail,
      JSON.stringify(
        report.results.filter((r) => r.status === 'fail'),
        null,
        2,
      ),
    ).toBe(0);
    expect(statuses(report)).toEqual({
      'signatures.keys-well-formed': ['pass'],
      'signatures.unsigned-refused': ['pass', 'pass'],
      'signatures.unknown-key-refused': ['pass', 'pass'],
      'signatures.forged-refused': ['pass', 'pass'],
      'signatures.tampered-refused': ['pass', 'pass'],
      'signatures.unsigned-claim-unverified': ['pass', 'pass'],
      'signatures.answers-signed': ['pass', 'pass'],
    });
  });

  it('R-SIG2: a Business that lets unknown-key, forged and tampered requests through, and misnames a missing signature, fails each case', async () => {
    const report = await check({ flaws: ['accepts_unknown_key', 'accepts_forged', 'accepts_tampered', 'misnames_missing'] });
    for (const id of [
      'signatures.unsigned-refused',
      'signatures.unknown-key-refused',
      'signatures.forged-refused',
      'signatures.tampered-refused',
    ]) {
      const results = byCheck(report, id);
      expect(
        results.map((r) => r.status),
        id,
      ).toEqual(['fail', 'fail']);
      expect(results[0]?.evidence[0]?.request).toBeDefined();
    }
    expect(byCheck(report, 'signatures.forged-refused')[0]?.detail).toContain('expected signature_invalid; the request was served');
    expect(byCheck(report, 'signatures.unsigned-refused')[0]?.detail).toContain('code signature_invalid');
  });

  it('R-SIG3: answers altered after signing, or unsigned, fail the answer rule', async () => {
    const tampered = await check({ flaws: ['tampers_answers'] });
    expect(byCheck(tampered, 'signatures.answers-signed').map((r) => r.status)).toEqual(['fail', 'fail']);
    expect(byCheck(tampered, 'signatures.answers-signed')[0]?.evidence[0]?.observed).toContain('digest_mismatch');
    const unsigned = await check({ flaws: ['unsigned_answers'] });
    expect(byCheck(unsigned, 'signatures.answers-signed')[0]?.evidence[0]?.observed).toContain('without Signature-Input');
  });

  it('R-SIG1: a key set with a repeated kid fails; a Business without keys and without required signatures skips the rules', async () => {
    const twice = { ...businessKey.published[0], kty: 'EC' };
    const repeated = await check({ publishKeys: [twice, twice] });
    expect(byCheck(repeated, 'signatures.keys-well-formed')[0]?.status).toBe('fail');
    const plain = await check({ verify: 'if-present', keyless: true });
    expect(plain.summary.fail).toBe(0);
    expect(byCheck(plain, 'signatures.keys-well-formed')[0]?.status).toBe('skip');
    expect(byCheck(plain, 'signatures.unsigned-refused').map((r) => r.status)).toEqual(['skip', 'skip']);
  });
});
