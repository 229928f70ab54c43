/**
 * An MCP host connecting straight to a Business, the way a new user sets it up: import their own
 * data (not the demo), `platform-profile init`, then `serve --db … --trust-platform-profile <file>`
 * — every step the real CLI in a child process — and the official MCP SDK client against it.
 *
 * Also `transports` (a Business offering only MCP or only REST: profile and routes), and the
 * `unknown_field` warning for request members nothing reads, identical on both bindings.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommand, runCli } from '../client/support/cli.js';
import { useScratchDir } from '../support/scratch.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

/** The user's own dataset: bike shops in Boulder, one of them private with an amenity of its own. */
const RECORDS = [
  {
    id: 'bike_north',
    name: 'North Bike Hub',
    aliases: ['nbh'],
    address: {
      street_address: '1 Ridge Rd',
      address_locality: 'Boulder',
      address_region: 'CO',
      postal_code: '80302',
      address_country: 'US',
    },
    geo: { latitude: 40.015, longitude: -105.2705 },
    keywords: ['bicycle repair'],
    amenities: {
      'com.example.amenity.bike_wash': { description: 'Bike wash' },
      'dev.ucp.amenity.parking': { description: 'Parking' },
    },
    timezone: 'America/Denver',
    hours: [{ day: 'monday', opens: '08:00', closes: '18:00' }],
  },
  {
    id: 'bike_south',
    name: 'South Bike Hub',
    address: {
      street_address: '9 Canyon Blvd',
      address_locality: 'Boulder',
      address_region: 'CO',
      postal_code: '80302',
      address_country: 'US',
    },
    geo: { latitude: 39.99, longitude: -105.25 },
    keywords: ['bicycle repair'],
    amenities: { 'com.example.amenity.bike_wash': { description: 'Bike wash' } },
    timezone: 'America/Denver',
  },
  {
    id: 'bike_depot',
    name: 'Bike Depot (staff only)',
    visibility: 'private',
    geo: { latitude: 40.02, longitude: -105.27 },
    amenities: { 'com.example.amenity.loading_dock': { description: 'Loading dock' } },
  },
];
const PUBLIC_AMENITIES = ['com.example.amenity.bike_wash', 'dev.ucp.amenity.parking'];
const PRIVATE_AMENITY = 'com.example.amenity.loading_dock';
const BOULDER = { latitude: 40.01, longitude: -105.27 };
const PINNED_URL = 'https://agent.example/platform.json';

interface Served {
  url: string;
  /** Parsed JSON log lines so far. */
  logs: { msg: string; [k: string]: unknown }[];
  stop(): Promise<number | null>;
}

const running = new Set<ChildProcessByStdio<null, Readable, Readable>>();

/** `ucp-location serve …` in a child process, resolved once it logs that it listens. */
function serve(args: readonly string[], cwd: string): Promise<Served> {
  const [command, prefix] = cliCommand();
  const child = spawn(command, [...prefix, 'serve', '--port', '0', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const logs: Served['logs'] = [];
  let stderr = '';
  let buffered = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const entry = JSON.parse(line) as Served['logs'][number];
        logs.push(entry);
        if (typeof entry['url'] === 'string' && entry.msg.includes('listening')) {
          const stop = (): Promise<number | null> => {
            child.kill('SIGTERM');
            return exited;
          };
          resolve({ url: entry['url'], logs, stop });
        }
      }
    });
    void exited.then((code) => reject(new Error(`serve exited with ${String(code)} before listening:\n${stderr}`)));
  });
}

async function mcpClient(baseUrl: string): Promise<Client> {
  const client = new Client({ name: 'direct-host-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/ucp/mcp`)));
  return client;
}

function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

const scratch = useScratchDir('ucp-direct-host');
let both: Served;
let mcpOnly: Served;
let restOnly: Served;
let trustedUrl: string;
let restOnlyUrl: string;

beforeAll(async () => {
  const dir = scratch();
  writeFileSync(join(dir, 'shops.ndjson'), `${RECORDS.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const imported = await runCli(['import', '--db', 'shops.db', 'shops.ndjson'], { cwd: dir });
  expect(imported.code, imported.stderr).toBe(0);
  const init = await runCli(['platform-profile', 'init', '--out', 'platform.json'], { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
  // Offered bindings come from a configuration file; relative profile paths are read next to it.
  writeFileSync(join(dir, 'mcp-only.json'), JSON.stringify({ transports: ['mcp'], logLevel: 'info' }));
  writeFileSync(
    join(dir, 'rest-only.json'),
    JSON.stringify({ transports: ['rest'], trustedPlatformProfiles: [{ file: 'platform.json' }] }),
  );
  [both, mcpOnly, restOnly] = await Promise.all([
    serve(['--db', 'shops.db', '--trust-platform-profile', 'platform.json'], dir),
    serve(['--db', 'shops.db', '--config', 'mcp-only.json', '--trust-platform-profile', `platform.json=${PINNED_URL}`], dir),
    serve(['--db', 'shops.db', '--config', 'rest-only.json'], dir),
  ]);
  const announced = (s: Served): string | undefined =>
    /meta\["ucp-agent"\]\.profile = (\S+)/.exec(s.logs.find((l) => l.msg.startsWith('MCP hosts:'))?.msg ?? '')?.[1];
  trustedUrl = announced(both) ?? '';
  restOnlyUrl = announced(restOnly) ?? '';
});

afterAll(async () => {
  await Promise.all([both, mcpOnly, restOnly].filter((s) => s !== undefined).map((s) => s.stop()));
  for (const child of running) child.kill('SIGKILL');
});

describe('serve --trust-platform-profile: an MCP host on your own data (R-G1, R-G2)', () => {
  it('prints the URL the profile is trusted under: a local .invalid URL, the same for the same file', () => {
    expect(trustedUrl).toMatch(/^https:\/\/local\.ucp-location\.invalid\/platform\/[0-9a-f]{16}\.json$/);
    // The REST-only server trusts the same file through its configuration: same content, same URL.
    expect(restOnlyUrl).toBe(trustedUrl);
    // Given a URL, that one is used.
    expect(mcpOnly.logs.some((l) => l.msg.startsWith(`MCP hosts: send meta["ucp-agent"].profile = ${PINNED_URL} `))).toBe(true);
  });

  it('lists tools whose descriptions give operands, units and the trusted URL, and the dataset amenity ids (R-M2)', async () => {
    const client = await mcpClient(both.url);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['search_locations', 'lookup_locations']);
      for (const tool of tools) {
        const text = tool.description ?? '';
        expect(text).toContain(trustedUrl);
        for (const unit of ['in metres', 'WGS 84 decimal degrees', 'RFC 3339']) expect(text).toContain(unit);
        expect(text).toContain(`Ids this business uses: ${PUBLIC_AMENITIES.join(', ')}.`);
        expect(JSON.stringify(tool)).not.toContain(PRIVATE_AMENITY);
      }
      const search = tools[0];
      expect(search?.description).toContain('at most 500000');
      expect(search?.description).toContain('default 10, at most 50 per page');
      type Defs = Record<string, { properties?: Record<string, { items?: { examples?: string[] } }> }>;
      const defs = (search?.inputSchema as unknown as { $defs: Defs }).$defs;
      const amenities = Object.values(defs).find((d) => d.properties?.['amenities'] !== undefined)?.properties?.['amenities'];
      expect(amenities?.items?.examples).toEqual(PUBLIC_AMENITIES);
      expect(JSON.stringify(defs)).toContain(`"examples":["${trustedUrl}"]`);
    } finally {
      await client.close();
    }
  });

  it('answers a call naming the printed URL from the imported data', async () => {
    const client = await mcpClient(both.url);
    try {
      const meta = { 'ucp-agent': { profile: trustedUrl } };
      const search = await client.callTool({
        name: 'search_locations',
        arguments: { meta, location: { distance: { center: BOULDER, max: 5000 }, filters: { amenities: ['dev.ucp.amenity.parking'] } } },
      });
      expect(search.isError).toBeFalsy();
      expect((search.structuredContent as { locations: { id: string }[] }).locations.map((l) => l.id)).toEqual(['bike_north']);
      const lookup = await client.callTool({ name: 'lookup_locations', arguments: { meta, location: { ids: ['nbh', 'bike_depot'] } } });
      const payload = lookup.structuredContent as { locations: { id: string }[]; messages?: { code: string }[] };
      expect(payload.locations.map((l) => l.id)).toEqual(['bike_north']);
      expect(payload.messages?.map((m) => m.code)).toEqual(['not_found']);
    } finally {
      await client.close();
    }
  });

  it('refuses another profile URL with -32001 naming the trusted URL and the flag that fixes it (R-G5)', async () => {
    const client = await mcpClient(both.url);
    try {
      const error = await client
        .callTool({
          name: 'search_locations',
          arguments: { meta: { 'ucp-agent': { profile: 'https://127.0.0.1/agent.json' } }, location: {} },
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(McpError);
      const mcp = error as McpError;
      expect(mcp.code).toBe(-32001);
      expect(mcp.message).toContain(`This business pre-approves the platform profile URL ${trustedUrl}`);
      expect(mcp.message).toContain('--trust-platform-profile <profile.json>[=<https-url>] (configuration key trustedPlatformProfiles)');
      expect(mcp.data).toMatchObject({ code: 'invalid_profile_url' });
      // A missing profile is a schema failure (-32602) whose example is a URL that works here.
      const missing = await client.callTool({ name: 'search_locations', arguments: { location: {} } }).then(
        () => undefined,
        (e: unknown) => e as McpError,
      );
      expect(missing?.code).toBe(-32602);
      expect(missing?.message).toContain(trustedUrl);
    } finally {
      await client.close();
    }
  });

  it('names a member of location that nothing reads in a warning, the same on MCP and REST', async () => {
    const location = { query: 'bike repair', near: 'Los Angeles' };
    const client = await mcpClient(both.url);
    let viaMcp: { locations: unknown[]; messages?: { type: string; code: string; path: string; content: string }[] };
    try {
      const result = await client.callTool({
        name: 'search_locations',
        arguments: { meta: { 'ucp-agent': { profile: trustedUrl } }, location },
      });
      expect(result.isError).toBeFalsy();
      viaMcp = result.structuredContent as typeof viaMcp;
    } finally {
      await client.close();
    }
    expect(viaMcp.locations).toHaveLength(2);
    expect(viaMcp.messages?.map((m) => [m.type, m.code, m.path])).toEqual([['warning', 'unknown_field', "$['near']"]]);
    expect(viaMcp.messages?.[0]?.content).toContain('Ignored "near"');

    const rest = await postJson(`${both.url}/ucp/locations/search`, location, { 'ucp-agent': `profile="${trustedUrl}"` });
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as typeof viaMcp).messages).toEqual(viaMcp.messages);
  });
});

describe('transports: a Business offering one binding (R-D2)', () => {
  it('with only MCP: the profile advertises MCP alone, REST routes answer 404 saying where to go, MCP works', async () => {
    const profile = (await (await fetch(`${mcpOnly.url}/.well-known/ucp`)).json()) as {
      ucp: { services: Record<string, { transport: string; endpoint: string }[]> };
    };
    expect(profile.ucp.services['dev.ucp.common']?.map((s) => [s.transport, s.endpoint])).toEqual([['mcp', `${mcpOnly.url}/ucp/mcp`]]);
    const rest = await postJson(`${mcpOnly.url}/ucp/locations/search`, {}, { 'ucp-agent': `profile="${PINNED_URL}"` });
    expect(rest.status).toBe(404);
    const body = (await rest.json()) as { messages: { code: string; content: string }[] };
    expect(body.messages[0]?.code).toBe('not_found');
    expect(body.messages[0]?.content).toContain('does not offer the REST binding; use MCP at /ucp/mcp');
    expect(body.messages[0]?.content).toContain('"transports"');

    const client = await mcpClient(mcpOnly.url);
    try {
      const result = await client.callTool({
        name: 'lookup_locations',
        arguments: { meta: { 'ucp-agent': { profile: PINNED_URL } }, location: { ids: ['bike_south'] } },
      });
      expect((result.structuredContent as { locations: { id: string }[] }).locations.map((l) => l.id)).toEqual(['bike_south']);
    } finally {
      await client.close();
    }
  });

  it('with only REST: the profile advertises REST alone, /ucp/mcp answers 404 in JSON-RPC, REST works', async () => {
    const profile = (await (await fetch(`${restOnly.url}/.well-known/ucp`)).json()) as {
      ucp: { services: Record<string, { transport: string; endpoint: string }[]> };
    };
    expect(profile.ucp.services['dev.ucp.common']?.map((s) => [s.transport, s.endpoint])).toEqual([['rest', `${restOnly.url}/ucp`]]);
    const mcp = await postJson(`${restOnly.url}/ucp/mcp`, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(mcp.status).toBe(404);
    const body = (await mcp.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32000);
    expect(body.error.message).toContain('does not offer the MCP binding; use REST at /ucp/locations/search and /ucp/locations/lookup');
    // The official client shows the host what the server said.
    await expect(mcpClient(restOnly.url)).rejects.toThrow(/does not offer the MCP binding/);

    const rest = await postJson(
      `${restOnly.url}/ucp/locations/lookup`,
      { ids: ['bike_north'] },
      { 'ucp-agent': `profile="${restOnlyUrl}"` },
    );
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as { locations: { id: string }[] }).locations.map((l) => l.id)).toEqual(['bike_north']);
  });
});

describe('serve refuses what cannot work, before listening (exit 2)', () => {
  it('an invalid trusted profile file, naming the file and the pointer', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'broken-profile.json'), JSON.stringify({ ucp: { version: '2026-08-25', services: 'none' } }));
    const run = await runCli(['serve', '--port', '0', '--db', 'shops.db', '--trust-platform-profile', 'broken-profile.json'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`Trusted platform profile ${join(dir, 'broken-profile.json')}`);
    expect(run.stderr).toContain('- /ucp/services:');
  });

  it('--stdio when the configuration offers REST only', async () => {
    const run = await runCli(['serve', '--stdio', '--db', 'shops.db', '--config', 'rest-only.json'], { cwd: scratch() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--stdio serves MCP, but the configuration key "transports" is ["rest"]');
  });
});
