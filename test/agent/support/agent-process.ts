/**
 * `ucp-location agent` as a real child process, driven by the official MCP SDK client: over stdio
 * (StdioClientTransport spawns it) or over Streamable HTTP (spawned with `--http --port 0`, the URL
 * read from its start-up line on stderr). The built CLI is used when it is newer than every
 * source file, otherwise the sources through tsx, so a stale dist/ is never what gets tested.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { freshBuiltCli } from '../../client/support/cli.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** node arguments that run the CLI. */
export function cliArgs(): string[] {
  const built = freshBuiltCli();
  if (built !== undefined) return [built];
  return ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')];
}

function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'UCP_PLATFORM_PROFILE') env[k] = v;
  return { ...env, NO_COLOR: '1' };
}

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
      args: [...cliArgs(), 'agent', ...agentArgs],
      cwd: ROOT,
      env: childEnv(),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    await client.connect(transport);
  } else {
    const spawned = spawn(process.execPath, [...cliArgs(), 'agent', ...agentArgs, '--http', '--port', '0'], {
      cwd: ROOT,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = spawned;
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the agent did not start:\n${stderr}`)), 30_000);
      spawned.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const match = /MCP over Streamable HTTP at (http:\/\/\S+)/.exec(stderr);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      spawned.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the agent exited with ${String(code)}:\n${stderr}`));
      });
    });
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
