/**
 * RFC 9421 signatures on the Business (issue 35, R-SIG1…R-SIG4): a server with its own signing key
 * and `verify: required`, driven in-process on both bindings. The Platform's profile (with its
 * public key in keys[]) is served by a loopback test server under a name an injected resolver maps
 * to 127.0.0.1; requests are signed with the core module a Platform would use.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { isRecord } from '../../src/protocol/guards.js';
import type { Resolver } from '../../src/protocol/safe-fetch.js';
import {
  generateSigningJwk,
  profileKeys,
  publicJwk,
  signingKeyFromJwk,
  signRequest,
  verifyResponse,
  type SigningKey,
} from '../../src/protocol/signatures/index.js';
import type { RunningServer } from '../../src/server.js';
import { platformProfile } from '../../src/transport/test-support/fake-parts.js';
import { rawRequest, type RawResponse } from '../../src/transport/test-support/raw-http.js';
import { startInProcessServer } from '../support/in-process-server.js';
import { json, startTestServer, type TestServer } from '../support/http-server.js';

const NOW = Date.parse('2026-12-03T12:00:00Z');
const resolver: Resolver = (hostname) =>
  hostname.endsWith('.sig.test')
    ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
    : Promise.reject(Object.assign(new Error(`no such host ${hostname}`), { code: 'ENOTFOUND' }));

const platformJwk = generateSigningJwk();
const platformKey = signingKeyFromJwk(platformJwk, 'platform');
const strangerKey = signingKeyFromJwk(generateSigningJwk(), 'stranger');
/** The stranger's key claiming the Platform's kid: the right keyid, the wrong signature. */
const impostorKey: SigningKey = { ...strangerKey, kid: platformKey.kid };

let dir = '';
let platforms: TestServer;
let profileUrl = '';
const running: RunningServer[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ucp-signatures-'));
  await writeFile(join(dir, 'business.jwk.json'), JSON.stringify(generateSigningJwk()));
  platforms = await startTestServer();
  platforms.route('/keyed.json', json({ ...platformProfile(), keys: [publicJwk(platformJwk)] }, { 'cache-control': 'max-age=300' }));
  profileUrl = `http://platform.sig.test:${new URL(platforms.origin('127.0.0.1')).port}/keyed.json`;
});

afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  await platforms?.close();
  await rm(dir, { recursive: true, force: true });
});

async function serve(signatures: Record<string, unknown>, rateLimits: Record<string, unknown> = {}): Promise<RunningServer> {
  const server = await startInProcessServer({
    host: '127.0.0.1',
    port: 0,
    allowLoopbackProfiles: true,
    resolveHost: resolver,
    now: () => NOW,
    config: parseConfig({ signatures: { signingKey: join(dir, 'business.jwk.json'), ...signatures }, rateLimits }),
    logger: createLogger({ level: 'silent' }),
  });
  running.push(server);
  return server;
}

interface Call {
  key?: SigningKey;
  /** Changes the body after it was signed. */
  tamper?: (body: string) => string;
  from?: string;
}

function post(server: RunningServer, path: string, payload: unknown, call: Call = {}): Promise<RawResponse> {
  const url = `${server.url}${path}`;
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'ucp-agent': `profile="${profileUrl}"` };
  const signed =
    call.key === undefined
      ? {}
      : signRequest({ method: 'POST', authority: new URL(url).host, path, headers }, Buffer.from(body), call.key, {
          created: Math.floor(NOW / 1000),
        });
  return rawRequest(url, {
    method: 'POST',
    headers: { ...headers, ...signed },
    body: call.tamper === undefined ? body : call.tamper(body),
    ...(call.from === undefined ? {} : { localAddress: call.from }),
  });
}

const lookup = { ids: ['loc_1'] };
const toolCall = (id: number | string): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'lookup_locations', arguments: { meta: { 'ucp-agent': { profile: profileUrl } }, location: lookup } },
});

async function businessKeys(server: RunningServer): Promise<unknown[]> {
  const r = await rawRequest(`${server.url}/.well-known/ucp`);
  return profileKeys(r.json);
}

/** The answer verifies with the key the Business publishes (R-SIG3): bytes as sent, over @status. */
async function expectSignedAnswer(server: RunningServer, r: RawResponse): Promise<void> {
  const verified = verifyResponse({ status: r.status, headers: r.headers }, Buffer.from(r.text), {
    keys: await businessKeys(server),
    now: Math.floor(NOW / 1000),
  });
  expect(verified.components).toEqual(['@status', 'content-digest', 'content-type']);
  expect(verified.created).toBe(Math.floor(NOW / 1000));
}

function restCode(r: RawResponse): unknown {
  return isRecord(r.json) && Array.isArray(r.json['messages']) && isRecord(r.json['messages'][0])
    ? r.json['messages'][0]['code']
    : undefined;
}

function rpcError(r: RawResponse): Record<string, unknown> {
  if (!isRecord(r.json) || !isRecord(r.json['error'])) throw new Error(`not a JSON-RPC error: ${r.text}`);
  return { id: r.json['id'], code: r.json['error']['code'], data: r.json['error']['data'] };
}

describe('a Business with --signing-key and --verify-signatures required', () => {
  it('publishes its public key in the profile keys[], never the private part (R-SIG1)', async () => {
    const server = await serve({ verify: 'required' });
    const r = await rawRequest(`${server.url}/.well-known/ucp`);
    expect(r.status).toBe(200);
    const keys = profileKeys(r.json);
    expect(keys).toHaveLength(1);
    expect(Object.keys(isRecord(keys[0]) ? keys[0] : {}).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    expect(r.text).not.toContain('"d"');
  });

  it('REST: unsigned → 401 signature_missing, unknown key → key_not_found, wrong signature → signature_invalid, changed body → 400 digest_mismatch; every refusal signed (R-SIG2, R-SIG3)', async () => {
    const server = await serve({ verify: 'required' });
    const path = '/ucp/locations/lookup';
    const cases: Array<[Call, number, string]> = [
      [{}, 401, 'signature_missing'],
      [{ key: strangerKey }, 401, 'key_not_found'],
      [{ key: impostorKey }, 401, 'signature_invalid'],
      [{ key: platformKey, tamper: (b) => b.replace('loc_1', 'loc_2') }, 400, 'digest_mismatch'],
    ];
    for (const [call, status, code] of cases) {
      const r = await post(server, path, lookup, call);
      expect({ status: r.status, code: restCode(r) }).toEqual({ status, code });
      await expectSignedAnswer(server, r);
    }
  });

  it('REST: a correctly signed call succeeds and its answer verifies with the published key (R-SIG2, R-SIG3)', async () => {
    const server = await serve({ verify: 'required' });
    const r = await post(server, '/ucp/locations/lookup', lookup, { key: platformKey });
    expect(r.status).toBe(200);
    expect(isRecord(r.json) && r.json['ucp']).toBeTruthy();
    await expectSignedAnswer(server, r);
  });

  it('MCP: the same refusals as JSON-RPC errors (-32000 / -32600, data.code) with the request id echoed (R-SIG2)', async () => {
    const server = await serve({ verify: 'required' });
    const cases: Array<[Call, number, number, string]> = [
      [{}, 401, -32000, 'signature_missing'],
      [{ key: strangerKey }, 401, -32000, 'key_not_found'],
      [{ key: impostorKey }, 401, -32000, 'signature_invalid'],
      [{ key: platformKey, tamper: (b) => b.replace('loc_1', 'loc_2') }, 400, -32600, 'digest_mismatch'],
    ];
    let id = 40;
    for (const [call, status, rpcCode, code] of cases) {
      id += 1;
      const r = await post(server, '/ucp/mcp', toolCall(id), call);
      expect(r.status).toBe(status);
      expect(rpcError(r)).toMatchObject({ id, code: rpcCode, data: { code } });
      await expectSignedAnswer(server, r);
    }
  });

  it('MCP: a correctly signed tools/call succeeds and its answer verifies (R-SIG2, R-SIG3)', async () => {
    const server = await serve({ verify: 'required' });
    const r = await post(server, '/ucp/mcp', toolCall('signed-1'), { key: platformKey });
    expect(r.status).toBe(200);
    expect(isRecord(r.json) && r.json['id']).toBe('signed-1');
    expect(isRecord(r.json) && isRecord(r.json['result']) && r.json['result']['isError']).not.toBe(true);
    await expectSignedAnswer(server, r);
  });

  it('keeps /.well-known/ucp, /healthz and /readyz readable unsigned', async () => {
    const server = await serve({ verify: 'required' });
    for (const path of ['/.well-known/ucp', '/healthz', '/readyz']) expect((await rawRequest(`${server.url}${path}`)).status).toBe(200);
  });
});

describe('identity-bound budgets (R-SIG4)', () => {
  it('an unsigned client naming a keyed Platform profile cannot spend that Platform budget', async () => {
    // One call per window for the profile, nothing reserved per address: any spending shows.
    const server = await serve(
      { verify: 'if-present' },
      { perProfile: { limit: 1, windowSeconds: 3600 }, clientShare: 0, perIp: { limit: 1000, windowSeconds: 60 } },
    );
    const path = '/ucp/locations/lookup';
    // The impostor is served, as an unverified caller, until its own budget is spent…
    expect((await post(server, path, lookup, { from: '127.0.0.7' })).status).toBe(200);
    const spent = await post(server, path, lookup, { from: '127.0.0.7' });
    expect({ status: spent.status, code: restCode(spent) }).toEqual({ status: 429, code: 'rate_limited' });
    // …and the Platform, signing, still has all of its own.
    expect((await post(server, path, lookup, { key: platformKey, from: '127.0.0.8' })).status).toBe(200);
    // The signed call spent the Platform's budget, not the impostor's: the next signed one is refused.
    expect((await post(server, path, lookup, { key: platformKey, from: '127.0.0.8' })).status).toBe(429);
  });

  it('if-present still refuses a signature that does not verify (R-SIG2)', async () => {
    const server = await serve({ verify: 'if-present' });
    const r = await post(server, '/ucp/locations/lookup', lookup, { key: impostorKey });
    expect({ status: r.status, code: restCode(r) }).toEqual({ status: 401, code: 'signature_invalid' });
  });

  it('off ignores signatures and takes every caller at its word', async () => {
    const server = await serve({ verify: 'off' });
    expect((await post(server, '/ucp/locations/lookup', lookup, { key: impostorKey })).status).toBe(200);
  });
});
