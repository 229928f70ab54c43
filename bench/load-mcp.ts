/**
 * Load test of the MCP binding: `tools/call search_locations` over Streamable HTTP against the
 * demo dataset, on loopback (`--binding rest`: the same searches over the REST binding).
 *
 *   npx tsx bench/load-mcp.ts [--duration 30] [--connections 200] [--binding mcp|rest] [--log-level warn] [--url http://127.0.0.1:8080]
 *
 * Without --url it starts `ucp-location serve` (demo data) as a child process, so the server and
 * the load generator do not share an event loop. The Platform profile is pre-approved in the
 * server's configuration (trustedPlatforms), so the run measures request handling, negotiation
 * and search — not profile fetching; rate limits are disabled for the run. Requests rotate through
 * a few representative searches (free text, radius, bounded browse, amenity filter), each a bare
 * JSON-RPC POST like seed 000's envelope example.
 *
 * Prints requests/s, latency p50/p99 (ms), errors, timeouts and non-2xx answers.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from './lib/free-port.js';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const PROFILE_URL = 'https://bench.platform.example/profile.json';
const V = '2026-08-25';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '200' },
    'log-level': { type: 'string', default: 'warn' },
    binding: { type: 'string', default: 'mcp' },
    url: { type: 'string' },
  },
});

/** The Platform profile the server trusts without fetching it. */
const platformProfile = {
  ucp: {
    version: V,
    services: {
      'dev.ucp.common': [
        {
          version: V,
          spec: `https://ucp.dev/${V}/specification/overview`,
          transport: 'mcp',
          schema: `https://ucp.dev/${V}/services/common/mcp.openrpc.json`,
        },
      ],
    },
    capabilities: {
      'dev.ucp.common.location.search': [
        {
          version: V,
          spec: `https://ucp.dev/${V}/specification/common/location/search`,
          schema: `https://ucp.dev/${V}/schemas/common/location_search.json`,
        },
      ],
    },
    payment_handlers: {},
  },
};

const SEARCHES: readonly Record<string, unknown>[] = [
  { query: 'grocery store' },
  { distance: { center: { latitude: 40.7128, longitude: -74.006 }, max: 25_000 } },
  {},
  { filters: { amenities: ['dev.ucp.amenity.wi_fi'] }, pagination: { limit: 5 } },
];

/** A REST call: the same search, the profile in the UCP-Agent header. */
function restRequest(location: Record<string, unknown>): { method: 'POST'; path: string; headers: Record<string, string>; body: string } {
  return {
    method: 'POST',
    path: '/ucp/locations/search',
    headers: { 'content-type': 'application/json', 'ucp-agent': `profile="${PROFILE_URL}"` },
    body: JSON.stringify(location),
  };
}

function body(location: Record<string, unknown>, id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'search_locations', arguments: { meta: { 'ucp-agent': { profile: PROFILE_URL } }, location } },
  });
}

async function startChildServer(configFile: string, logLevel: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--port', String(port), '--config', configFile, '--log-level', logLevel],
    { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`server exited early with status ${code}`))),
  );
  exited.catch(() => undefined);
  for (let i = 0; i < 600; i++) {
    const up = await fetch(`${url}/.well-known/ucp`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, child };
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 100)), exited]);
  }
  child.kill('SIGTERM');
  throw new Error('server did not start within 60 s');
}

async function main(): Promise<void> {
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const binding = values.binding;
  if (binding !== 'mcp' && binding !== 'rest') throw new Error(`--binding must be mcp or rest, not ${JSON.stringify(binding)}`);
  let url = values.url;
  let child: ChildProcess | undefined;
  let dir: string | undefined;
  if (url === undefined) {
    dir = mkdtempSync(join(tmpdir(), 'ucp-bench-'));
    const configFile = join(dir, 'ucp-location.json');
    // Warn level unless asked otherwise: a log line per call is part of production cost, but at
    // tens of thousands of lines per second it measures the log sink rather than the server.
    writeFileSync(configFile, JSON.stringify({ rateLimits: { enabled: false }, trustedPlatforms: { [PROFILE_URL]: platformProfile } }));
    ({ url, child } = await startChildServer(configFile, values['log-level'] ?? 'warn'));
  }
  try {
    // One warm-up call, checked, so a misconfigured run fails loudly instead of timing errors.
    const probe = await fetch(`${url}/ucp/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body(SEARCHES[0] ?? {}, 0),
    });
    const probeBody = (await probe.json()) as { result?: unknown; error?: { message: string } };
    if (probe.status !== 200 || probeBody.result === undefined)
      throw new Error(`warm-up call failed: ${probe.status} ${probeBody.error?.message ?? ''}`);

    const requests =
      binding === 'rest'
        ? SEARCHES.map((s) => restRequest(s))
        : SEARCHES.map((s, i) => ({
            method: 'POST' as const,
            path: '/ucp/mcp',
            headers: { 'content-type': 'application/json' },
            body: body(s, i + 1),
          }));
    const target = binding === 'rest' ? 'REST POST /ucp/locations/search' : 'MCP tools/call search_locations';
    process.stdout.write(`load-mcp: ${connections} connections, ${duration} s, ${target} → ${url}\n`);
    const result = await autocannon({ url: `${url}${requests[0]?.path ?? '/ucp/mcp'}`, connections, duration, requests });
    const lines = [
      `requests/s  avg ${result.requests.average.toFixed(0)}  (total ${result.requests.total})`,
      `latency ms  p50 ${result.latency.p50}  p99 ${result.latency.p99}  max ${result.latency.max}`,
      `errors ${result.errors}  timeouts ${result.timeouts}  non-2xx ${result.non2xx}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (result.errors > 0 || result.non2xx > 0) process.exitCode = 1;
  } finally {
    if (child !== undefined) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
