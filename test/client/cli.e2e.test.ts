/**
 * The platform verbs as a user runs them: the real CLI in a child process against our business
 * on 127.0.0.1 (MCP and REST), with `--serve-profile` publishing the platform profile on loopback,
 * and one distinct exit status per failure class (docs/platform.md).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlatformProfile } from '../../src/client/index.js';
import { validateProfile } from '../../src/protocol/profile.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION } from '../../src/protocol/types.js';
import { buildBusinessProfile } from '../../src/transport/business-profile.js';
import { cliCommand, runCli, type CliRun } from './support/cli.js';
import { startFakeBusiness, type FakeBusiness } from './support/fake-business.js';
import { CENTER, startBusiness, startProfileHost, type Business, type ProfileHost } from './support/peers.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

let business: Business;
let fake: FakeBusiness;
const hosts: ProfileHost[] = [];
let dir: string;
let profileFile: string;

beforeAll(async () => {
  [business, fake] = await Promise.all([startBusiness({ locations: 12, lookupBatchMax: 10 }), startFakeBusiness()]);
  dir = mkdtempSync(join(tmpdir(), 'ucp-cli-'));
  profileFile = join(dir, 'platform.json');
  const init = await runCli(['platform-profile', 'init', '--out', profileFile]);
  expect(init.code).toBe(0);
});

afterAll(async () => {
  await Promise.all([business?.close(), fake?.close(), ...hosts.map((h) => h.close())]);
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

async function businessAt(profile: unknown): Promise<string> {
  const host = await startProfileHost();
  hosts.push(host);
  host.publish('/.well-known/ucp', profile);
  return host.origin;
}

const NEAR = `${CENTER.latitude},${CENTER.longitude}`;

function expectFailure(run: CliRun, status: number, pattern: RegExp): void {
  expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: status, stderr: expect.stringMatching(pattern) });
}

describe('ucp-location platform-profile init', () => {
  it('writes a valid platform profile (R-D1, R-N2)', async () => {
    const written = JSON.parse(readFileSync(profileFile, 'utf8')) as unknown;
    const result = validateProfile(written, 'platform');
    expect(result.ok).toBe(true);
    expect(result.rejected).toEqual([]);
    const printed = await runCli(['platform-profile', 'init', '--base-url', 'https://platform.example']);
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(written);
    expect(printed.stderr).toContain('https://platform.example/.well-known/ucp-platform.json');
  });

  it('refuses a plain-http base URL and an existing output file (exit 2)', async () => {
    const [http, exists] = await Promise.all([
      runCli(['platform-profile', 'init', '--base-url', 'http://platform.example']),
      runCli(['platform-profile', 'init', '--out', profileFile]),
    ]);
    expectFailure(http, 2, /must use https/);
    expectFailure(exists, 2, /exists/);
  });
});

describe('ucp-location discover / search / lookup against the business', () => {
  it('discover prints the binding verdict of every entity, the version, capabilities and transports', async () => {
    const run = await runCli(['discover', business.url, '--serve-profile', profileFile]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Negotiated version ${UCP_VERSION}`);
    expect(run.stdout).toMatch(
      new RegExp(
        `business\\s+capabilities\\s+${SEARCH_CAPABILITY.replaceAll('.', '\\.')}\\s+${UCP_VERSION}\\s+ok \\(prefix\\)\\s+accepted`,
      ),
    );
    expect(run.stdout).toMatch(new RegExp(`${LOOKUP_CAPABILITY.replaceAll('.', '\\.')}\\s+${UCP_VERSION}\\s+active`));
    expect(run.stdout).toMatch(/mcp\s+http:\/\/127\.0\.0\.1:\d+\/ucp\/mcp\s+in use/);
  });

  it.each(['mcp', 'rest'])('search prints a table with distance and opening state (%s)', async (transport) => {
    const run = await runCli([
      'search',
      business.url,
      '--serve-profile',
      profileFile,
      '--near',
      NEAR,
      '--radius',
      '1500m',
      '--transport',
      transport,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+ID\s+DISTANCE\s+NOW\s+ADDRESS$/);
    expect(lines[2]).toMatch(
      /^Store 000\s+loc_000\s+\d+ m\s+(open · closes 18:00|closed · opens (\w{3} )?09:00) GMT\+5:45\s+1 Test Marg, Kathmandu, 44600, NP$/,
    );
    expect(run.stdout).toMatch(/\d+ location\(s\)\./);
    expect(run.stdout).not.toContain('loc_hidden');
  });

  it('search --json --all prints every page, without duplicates (R-S9)', async () => {
    const run = await runCli(['search', business.url, '--serve-profile', profileFile, '--json', '--all', '--limit', '5']);
    expect(run.code).toBe(0);
    const pages = JSON.parse(run.stdout) as { locations: { id: string }[]; pagination: { has_next_page: boolean } }[];
    expect(pages).toHaveLength(3);
    const ids = pages.flatMap((p) => p.locations.map((l) => l.id));
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it('lookup shows which requested id reached each Location and what did not come back (R-L1)', async () => {
    const run = await runCli([
      'lookup',
      business.url,
      'loc_001',
      'alias-1',
      'nope',
      'loc_hidden',
      '--serve-profile',
      profileFile,
      '--transport',
      'rest',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Store 001\s+loc_001\s+loc_001, alias-1\s/m);
    expect(run.stdout).toContain('Not returned (unknown, private or filtered out): nope, loc_hidden');
  });

  it('lookup | head: exits quietly with status 0 when the reader closes the pipe (fails before: unhandled EPIPE stack, exit 1)', async () => {
    const [command, prefix] = cliCommand();
    const ids = Array.from({ length: 12 }, (_, i) => `loc_${String(i + 1).padStart(3, '0')}`);
    const child = spawn(command, [...prefix, 'lookup', business.url, ...ids, '--serve-profile', profileFile, '--json'], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Like `head` that has already read its lines: the read end is gone before the CLI writes.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('takes the platform profile URL from UCP_PLATFORM_PROFILE', async () => {
    const host = await startProfileHost();
    hosts.push(host);
    const url = host.publish('/platform.json', buildPlatformProfile());
    const run = await runCli(['lookup', business.url, 'loc_002', '--allow-loopback', '--json'], { env: { UCP_PLATFORM_PROFILE: url } });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { locations: { id: string }[] }).locations.map((l) => l.id)).toEqual(['loc_002']);
    expect(host.server.requests.some((r) => r.path === '/platform.json')).toBe(true);
  });
});

describe('exit statuses per failure class', () => {
  it('2: usage — no platform profile, bad options, an http business without --allow-loopback', async () => {
    const runs = await Promise.all([
      runCli(['search', business.url]),
      runCli(['search', business.url, '--serve-profile', profileFile, '--near', NEAR, '--radius', '5parsecs']),
      runCli(['search', business.url, '--serve-profile', profileFile, '--transport', 'grpc']),
      runCli(['search', business.url, '--serve-profile', profileFile, '--near', NEAR, '--radius', '5']),
      runCli(['lookup', business.url, 'x', '--platform-profile', 'https://platform.example/p.json']),
    ]);
    expectFailure(runs[0], 2, /--platform-profile/);
    expectFailure(runs[1], 2, /--radius "5parsecs"/);
    expectFailure(runs[2], 2, /--transport "grpc"/);
    // Fails before: a unitless radius silently meant metres.
    expectFailure(runs[3], 2, /--radius "5" has no unit; write 5km, 5m or 5mi/);
    expectFailure(runs[4], 2, /https|--allow-loopback/);
  });

  it('3: discovery — redirecting profile, private-IP profile (R-N3, R-N4)', async () => {
    const host = await startProfileHost();
    hosts.push(host);
    host.server.route('/.well-known/ucp', (_req, res) => void res.writeHead(302, { location: `${business.url}/.well-known/ucp` }).end());
    const [redirect, privateIp] = await Promise.all([
      runCli(['discover', host.origin, '--serve-profile', profileFile]),
      runCli(['discover', 'https://10.0.0.7', '--serve-profile', profileFile]),
    ]);
    expectFailure(redirect, 3, /redirect/i);
    expectFailure(privateIp, 3, /10\.0\.0\.7 .*special-use/);
  });

  it('4: bad binding — a capability schema on the wrong host (R-N2)', async () => {
    const profile = buildBusinessProfile(business.url, [SEARCH_CAPABILITY]);
    const search = profile.ucp.capabilities?.[SEARCH_CAPABILITY]?.[0];
    if (search === undefined) throw new Error('fixture');
    search.schema = 'https://schemas.evil.example/location_search.json';
    const run = await runCli(['search', await businessAt(profile), '--serve-profile', profileFile]);
    expectFailure(run, 4, /authority binding/);
    expect(run.stderr).toContain('schemas.evil.example');
  });

  it('5: version mismatch (R-G3)', async () => {
    const profile = JSON.parse(
      JSON.stringify(buildBusinessProfile(business.url, [SEARCH_CAPABILITY])).replaceAll(UCP_VERSION, '2027-01-01'),
    ) as unknown;
    const run = await runCli(['discover', await businessAt(profile), '--serve-profile', profileFile, '--json']);
    expectFailure(run, 5, /No UCP release in common/);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { code: 'version_unsupported', exitStatus: 5 } });
  });

  it('6: empty intersection (R-G4)', async () => {
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, JSON.stringify(buildPlatformProfile({ capabilities: [] })));
    const run = await runCli(['search', business.url, '--serve-profile', empty]);
    expectFailure(run, 6, /No compatible/);
  });

  it('7: the business answered with an error (a radius it cannot honour, R-S4)', async () => {
    const run = await runCli(['search', business.url, '--serve-profile', profileFile, '--near', NEAR, '--radius', '9000km']);
    expectFailure(run, 7, /radius_too_large/);
  });

  it('8: the response failed validation, with the pointer', async () => {
    fake.respondWith({ ucp: { version: UCP_VERSION }, locations: [{ id: 'loc_1' }] });
    const run = await runCli(['search', fake.url, '--serve-profile', profileFile, '--json']);
    expectFailure(run, 8, /\/locations\/0/);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ok: false,
      error: { code: 'response_invalid', pointer: '/locations/0', exitStatus: 8 },
    });
  });
});
