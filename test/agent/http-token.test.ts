/**
 * `agent --http` off loopback requires a token, as the console does (#37 N12): refused at start
 * without one; with one, every request must carry `Authorization: Bearer <token>`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentBridge, checkAgentAccess, serveAgentHttp, type AgentHttpServer } from '../../src/agent/index.js';
import { ConfigError } from '../../src/errors.js';
import { createLogger } from '../../src/logging.js';
import { runCli } from '../client/support/cli.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

const TOKEN = 'a-long-random-agent-token-0123456789';
const logger = createLogger({ level: 'silent', destination: 'stderr' });

describe('agent --http: a token off loopback (#37 N12)', () => {
  it('refuses a non-loopback host without a token, and a short token, before listening', async () => {
    expect(() => checkAgentAccess('0.0.0.0', undefined)).toThrow(ConfigError);
    expect(() => checkAgentAccess('0.0.0.0', undefined)).toThrow(/needs a token: pass --token <secret> or set UCP_AGENT_TOKEN/);
    expect(() => checkAgentAccess('127.0.0.1', 'short')).toThrow(/at least 16 characters/);
    expect(() => checkAgentAccess('127.0.0.1', undefined)).not.toThrow();
    expect(() => checkAgentAccess('192.0.2.10', TOKEN)).not.toThrow();
    const bridge = new AgentBridge({
      settings: { businesses: [], maxMatchesPerBusiness: 10 },
      logger,
      platformProfileUrl: 'https://platform.example/p.json',
      allowLoopback: false,
      serverVersion: '0.0.0-test',
    });
    await expect(serveAgentHttp(bridge, { host: '0.0.0.0', port: 0, logger })).rejects.toThrow(ConfigError);
  });

  it('the command exits 2 with the fix named instead of serving unauthenticated on 0.0.0.0', async () => {
    const run = await runCli([
      'agent',
      '--business',
      'https://stores.example',
      '--platform-profile',
      'https://platform.example/p.json',
      '--http',
      '--host',
      '0.0.0.0',
      '--port',
      '0',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--host 0\.0\.0\.0 is not a loopback address, so the agent needs a token/);
  });

  describe('with a token', () => {
    let http: AgentHttpServer;
    let bridge: AgentBridge;

    beforeAll(async () => {
      bridge = new AgentBridge({
        settings: { businesses: [], maxMatchesPerBusiness: 10 },
        logger,
        platformProfileUrl: 'https://platform.example/p.json',
        allowLoopback: false,
        serverVersion: '0.0.0-test',
      });
      http = await serveAgentHttp(bridge, { host: '127.0.0.1', port: 0, logger, token: TOKEN });
    });

    afterAll(async () => {
      await http?.close();
      await bridge?.close();
    });

    it('answers 401 without the bearer token or with a wrong one, and serves MCP with it', async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const none = await fetch(http.url, { method: 'POST', headers, body });
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await none.text()).toContain('Authorization: Bearer <token>');
      const wrong = await fetch(http.url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${TOKEN}x` }, body });
      expect(wrong.status).toBe(401);
      await wrong.text();

      const client = new Client({ name: 'token-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }),
      );
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('find_locations');
      await client.close();
    });
  });
});
