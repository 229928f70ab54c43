/**
 * `ucp-location agent` as a real child process, driven by the official MCP SDK client: over stdio
 * (StdioClientTransport spawns it) or over Streamable HTTP (spawned with `--http --port 0`, the URL
 * read from its start-up line on stderr). The CLI is started by `cliNodeArgs()` (the built one when
 * dist/ is fresh), so a stale dist/ is never what gets tested.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cliNodeArgs } from '../../client/support/cli.js';
import { untilOutput } from '../../support/child-output.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'UCP_PLATFORM_PROFILE') env[k] = v;
  return { ...env, NO_COLOR: '1' };
}

/** The agent's start-up line over HTTP, on stderr. */
const START_LINE = /MCP over Streamable HTTP at (http:\/\/\S+)/;

export type AgentMode = 'stdio' | 'http';

export interface AgentConnection {
  client: Client;
  mode: AgentMode;
  /** The MCP endpoint over HTTP; undefined over stdio. */
  url: string | undefined;
  /** Everything the agent wrote on stderr so far (start-up lines and logs). */
  stderr(): string;
  /** Calls a tool; the SDK client checks structuredContent against the tool's outputSchema. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function connectAgent(mode: AgentMode, agentArgs: readonly string[]): Promise<AgentConnection> {
  const client = new Client({ name: 'agent-e2e', version: '1.0.0' });
  let stderr = '';
  let child: ChildProcess | undefined;
  let endpoint: string | undefined;
  if (mode === 'stdio') {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...cliNodeArgs(), 'agent', ...agentArgs],
      cwd: ROOT,
      env: childEnv(),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    await client.connect(transport);
  } else {
    const spawned = spawn(process.execPath, [...cliNodeArgs(), 'agent', ...agentArgs, '--http', '--port', '0'], {
      cwd: ROOT,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = spawned;
    spawned.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const startup = await untilOutput(spawned, (text) => START_LINE.test(text), 'it said where it listens');
    const url = START_LINE.exec(startup)?.[1] ?? '';
    endpoint = url;
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  }
  // Listing caches each tool's outputSchema, so every callTool below is validated against it.
  await client.listTools();
  return {
    client,
    mode,
    url: endpoint,
    stderr: () => stderr,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      if (child !== undefined && child.exitCode === null) {
        const exited = new Promise<void>((resolve) => child?.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** The text content of a result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
