/**
 * `ucp-location agent --serve-profile` with a signing key (the config file's `signingKey`, as
 * `--signing-key`) as a real child process in front of a
 * Business that requires signed requests (R-SIG2) and signs its answers (R-SIG3): with the key,
 * find_locations answers; without it, the model reads the Business's refusal in one sentence that
 * says what to do. The Business is the signing front over our server (test/support/signing-front.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningJwk, readSigningKeySet } from '../../src/protocol/signatures/index.js';
import { useScratchDir } from '../support/scratch.js';
import { startSigningFront, type SigningFront } from '../support/signing-front.js';
import { CENTER, startBusiness, type Business } from '../client/support/peers.js';
import { connectAgent, type AgentConnection } from './support/agent-process.js';

const scratch = useScratchDir('ucp-agent-signatures');
let business: Business;
let front: SigningFront;
let configFile: string;
let plainConfigFile: string;

beforeAll(async () => {
  business = await startBusiness({ locations: 6 });
  front = await startSigningFront({
    backend: business.url,
    verify: 'required',
    businessKey: readSigningKeySet(generateSigningJwk(), 'business key'),
  });
  writeFileSync(join(scratch(), 'platform-key.jwk'), JSON.stringify(generateSigningJwk()), { mode: 0o600 });
  // A generous per-business deadline: the child may run from the TypeScript sources on a busy machine.
  const businesses = [{ name: 'shop', url: front.url }];
  configFile = join(scratch(), 'agent.json');
  writeFileSync(
    configFile,
    JSON.stringify({ businesses, timeoutMs: 60_000, signingKey: 'platform-key.jwk', requireBusinessSignatures: true }),
  );
  plainConfigFile = join(scratch(), 'agent-unsigned.json');
  writeFileSync(plainConfigFile, JSON.stringify({ businesses, timeoutMs: 60_000 }));
}, 60_000);

afterAll(async () => {
  await Promise.all([front?.close(), business?.close()]);
});

function textOf(result: Awaited<ReturnType<AgentConnection['call']>>): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

async function findWith(config: string): Promise<{ isError: boolean; text: string }> {
  const agent = await connectAgent('stdio', ['--config', config, '--serve-profile']);
  try {
    const result = await agent.call('find_locations', { query: 'grocery', near: CENTER, radius: '5km' });
    return { isError: result.isError === true, text: textOf(result) };
  } finally {
    await agent.close();
  }
}

describe('agent bridge and a Business that requires signatures', () => {
  it('R-SIG2, R-SIG3: with a signing key (config "signingKey") the served profile lists it, requests are signed and the signed answers are used', async () => {
    const { isError, text } = await findWith(configFile);
    expect(isError, text).toBe(false);
    expect(text).toMatch(/Store 00\d/);
    expect(front.outcomes['served']).toBeGreaterThan(0);
  });

  it('R-SIG2: without a key, the model reads the Business’s reason and what to do about it', async () => {
    const { text } = await findWith(plainConfigFile);
    expect(text).toContain('shop accepts only signed requests and this bridge does not sign (signature_missing)');
    expect(text).toContain('--signing-key');
    expect(front.outcomes['signature_missing']).toBeGreaterThan(0);
  });
});
