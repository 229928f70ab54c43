/**
 * `ucp-location agent` as a command: refusals of bad flags (exit 2, one line saying what to
 * change), and stdio hygiene — over stdio, stdout carries MCP messages and nothing else.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliNodeArgs, runCli } from '../client/support/cli.js';
import { untilOutput } from '../support/child-output.js';
import { startBusiness, dataset } from './support/fleet.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('ucp-location agent: usage', () => {
  it('refuses to start without a business, without a platform profile, or with both profile flags (exit 2)', async () => {
    const none = await runCli(['agent', '--serve-profile']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^ucp-location agent: name at least one business: --business https:\/\/stores\.example/);
    const noProfile = await runCli(['agent', '--business', 'https://stores.example']);
    expect(noProfile.code).toBe(2);
    expect(noProfile.stderr).toMatch(/name the platform profile businesses will fetch: --platform-profile <https-url>/);
    const both = await runCli([
      'agent',
      '--business',
      'https://stores.example',
      '--serve-profile',
      '--platform-profile',
      'https://p.example/x.json',
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/give one/);
  });

  it('refuses a plain-http business without --allow-loopback, an http platform profile, and --port without --http', async () => {
    const http = await runCli(['agent', '--business', 'http://127.0.0.1:1', '--platform-profile', 'https://p.example/x.json']);
    expect(http.code).toBe(2);
    expect(http.stderr).toMatch(
      /--business http:\/\/127\.0\.0\.1:1: .*Plain http is accepted only for a business on this machine, with --allow-loopback/,
    );
    const profile = await runCli(['agent', '--business', 'https://stores.example', '--platform-profile', 'http://p.example/x.json']);
    expect(profile.code).toBe(2);
    expect(profile.stderr).toMatch(/--platform-profile: .*must be an https URL/);
    const port = await runCli(['agent', '--business', 'https://stores.example', '--serve-profile', '--port', '9000']);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/--host and --port apply to --http/);
  });
});

describe('ucp-location agent: stdio hygiene', () => {
  let business: Awaited<ReturnType<typeof startBusiness>>;

  beforeAll(async () => {
    business = await startBusiness(dataset({ prefix: 'solo', turn: 0 }));
  });

  afterAll(async () => {
    await business?.close();
  });

  it('writes only JSON-RPC messages on stdout (the start-up line and logs go to stderr) and exits 0 when the host hangs up', async () => {
    const child = spawn(process.execPath, [...cliNodeArgs(), 'agent', '--business', `solo=${business.url}`, '--serve-profile'], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const answered = untilOutput(child, () => stdout.includes('"id":2'), 'it answered the tool call');
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'find_locations', arguments: { query: 'grocery', limit: 2 } } });
    await answered;
    child.stdin.end();
    expect(await exited).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(stdout).toContain('Solo Market');
    expect(stderr).toMatch(/^ucp-location agent: 1 business \(solo\); platform profile http:\/\/127\.0\.0\.1:\d+\/platform-profile\.json/);
    expect(stderr).toContain('"tool":"find_locations"');
  });
});
