/**
 * The Platform side against our own Business with signatures on (config `signatures`:
 * `signingKey`, `verify: "required"`), end to end on 127.0.0.1 (R-SIG1–R-SIG4): the SDK signs and
 * verifies over MCP and REST, an unsigned SDK reads `signature_missing`, and the conformance
 * checker passes every signature rule.
 *
 * Then the command line as a user meets it (#35): `platform-profile init --key-out` makes the key
 * and the profile listing it, `lookup --serve-profile … --signing-key …` succeeds, and the same
 * lookup without the key exits non-zero naming the Business's own code, `signature_missing`.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerSignatureError, BusinessError, UcpLocationClient, buildPlatformProfile, type BindingName } from '../../src/client/index.js';
import { runConformance } from '../../src/conformance/index.js';
import { generateSigningJwk, readSigningKeySet } from '../../src/protocol/signatures/index.js';
import { useScratchDir } from '../support/scratch.js';
import { runCli } from '../client/support/cli.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';
import { datasetLines, startBusinessWith, startProfileHost, type Business, type ProfileHost } from '../client/support/peers.js';

describe('our Business requiring signatures, and the Platform side (R-SIG1–R-SIG4)', () => {
  const scratch = useScratchDir('ucp-signing-serve');
  const platformKey = readSigningKeySet(generateSigningJwk(), 'platform key');
  let business: Business;
  let host: ProfileHost;
  let profileUrl: string;

  beforeAll(async () => {
    const keyFile = join(scratch(), 'business-key.jwk');
    writeFileSync(keyFile, JSON.stringify(generateSigningJwk()), { mode: 0o600 });
    [business, host] = await Promise.all([
      startBusinessWith(datasetLines(10), { signatures: { signingKey: keyFile, verify: 'required' } }),
      startProfileHost(),
    ]);
    profileUrl = host.publish('/platform.json', { ...buildPlatformProfile(), keys: platformKey.published });
  }, 60_000);

  afterAll(async () => {
    await Promise.all([business?.close(), host?.close()]);
  });

  async function search(transport: BindingName, signed: boolean): Promise<number> {
    const client = await UcpLocationClient.discover(business.url, {
      platformProfileUrl: profileUrl,
      fetch: { allowLoopback: true },
      transport,
      requireBusinessSignatures: true,
      ...(signed ? { signingKey: platformKey.signing } : {}),
    });
    try {
      return (await client.search({ query: 'grocery' })).locations.length;
    } finally {
      await client.close();
    }
  }

  it.each(['mcp', 'rest'] as const)('R-SIG2, R-SIG3 over %s: a signed search succeeds and its answer verifies', async (transport) => {
    expect(await search(transport, true)).toBeGreaterThan(0);
  });

  it.each(['mcp', 'rest'] as const)('R-SIG2 over %s: an unsigned search reads signature_missing', async (transport) => {
    const error: unknown = await search(transport, false).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(AnswerSignatureError);
    expect(error).toBeInstanceOf(BusinessError);
    expect((error as BusinessError).ucpCode).toBe('signature_missing');
  });

  it('R-SIG1–R-SIG4: the conformance checker passes every signature rule', async () => {
    const report = await runConformance({ businessUrl: business.url, serveProfile: true, allowLoopback: true, only: ['R-SIG'] });
    expect(
      report.summary.fail,
      JSON.stringify(
        report.results.filter((r) => r.status === 'fail'),
        null,
        2,
      ),
    ).toBe(0);
    expect(report.results.filter((r) => r.status === 'pass').length).toBeGreaterThanOrEqual(11);
  });

  describe('the command line (#35 done-when)', () => {
    allowForChildProcesses();

    it('R-SIG2: init --key-out makes a key its profile lists; lookup signs with it, and without it reads signature_missing', async () => {
      const keyFile = join(scratch(), 'platform-key.jwk');
      const profileFile = join(scratch(), 'platform-profile.json');
      const init = await runCli(['platform-profile', 'init', '--out', profileFile, '--key-out', keyFile]);
      expect(init.code, init.stderr).toBe(0);
      const key: unknown = JSON.parse(readFileSync(keyFile, 'utf8'));
      const profile: unknown = JSON.parse(readFileSync(profileFile, 'utf8'));
      const published = readSigningKeySet(key, keyFile).published;
      expect(profile).toMatchObject({ keys: published });
      expect(JSON.stringify(profile)).not.toContain('"d"');
      expect(statSync(keyFile).mode & 0o077).toBe(0);

      const signed = await runCli(['lookup', business.url, 'loc_000', '--serve-profile', profileFile, '--signing-key', keyFile, '--json']);
      expect(signed.code, signed.stderr).toBe(0);
      expect(JSON.parse(signed.stdout)).toMatchObject({ locations: [{ id: 'loc_000' }] });

      const unsigned = await runCli(['lookup', business.url, 'loc_000', '--serve-profile', profileFile]);
      expect(unsigned.code).not.toBe(0);
      expect(unsigned.stderr + unsigned.stdout).toContain('signature_missing');
    });

    it('init --key-out never overwrites a key, and leaves no key behind when the profile cannot be written', async () => {
      const keyFile = join(scratch(), 'kept-key.jwk');
      writeFileSync(keyFile, 'precious');
      const refused = await runCli(['platform-profile', 'init', '--key-out', keyFile]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/already exists/);
      expect(readFileSync(keyFile, 'utf8')).toBe('precious');

      const taken = join(scratch(), 'taken-profile.json');
      writeFileSync(taken, '{}');
      const orphan = join(scratch(), 'orphan-key.jwk');
      const failed = await runCli(['platform-profile', 'init', '--out', taken, '--key-out', orphan]);
      expect(failed.code).toBe(2);
      expect(existsSync(orphan)).toBe(false);
    });
  });
});
