/**
 * `ucp-location serve --stdio`, spawned as a real child process (the built CLI, or the sources
 * through tsx when dist/ is stale), driven by the official MCP SDK `StdioClientTransport` and by
 * raw JSON-RPC lines. Its answers must equal those of the HTTP server over the same store (run
 * in-process: the HTTP side is only the reference here).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging.js';
import type { RunningServer } from '../../src/server.js';
import { startInProcessServer } from '../support/in-process-server.js';
import { SEARCH_CAPABILITY } from '../../src/protocol/types.js';
import { openBinding } from './support/bindings.js';
import { startPlatforms } from './support/platform.js';
import type { Platforms } from './support/platform.js';
import { cliNodeArgs } from '../client/support/cli.js';
import { buildStoreFile } from './support/store.js';
import type { StoreFile } from './support/store.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = { cursorSecret: 'stdio-e2e-cursor-secret-0123456789abcdef0123', logLevel: 'warn' };

let storeFile: StoreFile;
let platforms: Platforms;
let http: RunningServer;
let configDir: string;
let configFile: string;

function serveArgs(): string[] {
  return [...cliNodeArgs(), 'serve', '--stdio', '--db', storeFile.path, '--config', configFile, '--allow-loopback-profiles'];
}

beforeAll(async () => {
  storeFile = await buildStoreFile();
  platforms = await startPlatforms();
  configDir = mkdtempSync(join(tmpdir(), 'ucp-stdio-'));
  configFile = join(configDir, 'ucp-location.json');
  writeFileSync(configFile, JSON.stringify(CONFIG));
  http = await startInProcessServer({
    port: 0,
    db: storeFile.path,
    allowLoopbackProfiles: true,
    config: configFile,
    logger: createLogger({ level: 'silent' }),
  });
});

afterAll(async () => {
  await http?.close();
  await platforms?.close();
  storeFile?.dispose();
  if (configDir !== undefined) rmSync(configDir, { recursive: true, force: true });
});

describe('serve --stdio with the MCP SDK client', () => {
  it('lists the tools and answers search exactly like the HTTP server', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: serveArgs(), cwd: REPO, stderr: 'pipe' });
    const client = new Client({ name: 'stdio-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(['search_locations', 'lookup_locations']);
      const request = { query: 'grocery store', pagination: { limit: 2 } };
      const result = await client.callTool({
        name: 'search_locations',
        arguments: { meta: { 'ucp-agent': { profile: platforms.good } }, location: request },
      });
      const payload = result.structuredContent as { ucp: unknown };
      expect(payload.ucp).toEqual({ version: '2026-08-25', capabilities: { [SEARCH_CAPABILITY]: [{ version: '2026-08-25' }] } });
      const rest = await openBinding('rest', http.url);
      const viaHttp = await rest.call('search', request, platforms.good);
      expect(viaHttp).toEqual({ ok: true, payload });
    } finally {
      await client.close();
    }
  });
});

describe('serve --stdio with raw JSON-RPC lines (R-M1)', () => {
  const lookupLine = (id: number): string =>
    `${JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'lookup_locations',
        arguments: { meta: { 'ucp-agent': { profile: platforms.good } }, location: { ids: ['loc_downtown'] } },
      },
    })}\n`;

  it('refuses a line nested deeper than an HTTP body may be, or longer, with -32600 and keeps serving (R-M1)', async () => {
    const session = rawSession();
    try {
      session.child.stdin.write(`${'['.repeat(5_000)}${']'.repeat(5_000)}\n`);
      const deep = JSON.parse(await session.nextLine()) as { id: unknown; error: { code: number; message: string } };
      expect(deep).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(deep.error.message).toContain('more than 64 levels deep');
      // Over the default maxBodyBytes (256 KiB), sent in pieces as a pipe delivers it.
      const long = lookupLine(3).replace('loc_downtown', 'x'.repeat(300_000));
      for (let i = 0; i < long.length; i += 64_000) session.child.stdin.write(long.slice(i, i + 64_000));
      const large = JSON.parse(await session.nextLine()) as { id: unknown; error: { code: number; message: string } };
      expect(large).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(large.error.message).toContain('exceeds the limit of 262144 bytes');
      session.child.stdin.write(lookupLine(4));
      const answer = JSON.parse(await session.nextLine()) as { id: number; result: { structuredContent: { locations: { id: string }[] } } };
      expect(answer.id).toBe(4);
      expect(answer.result.structuredContent.locations.map((l) => l.id)).toEqual(['loc_downtown']);
    } finally {
      expect(await session.end()).toBe(0);
    }
  });

  it('answers an unparsable line with -32700 and keeps serving the next one', async () => {
    const session = rawSession();
    try {
      session.child.stdin.write('this is not json\n');
      expect(JSON.parse(await session.nextLine())).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      session.child.stdin.write(lookupLine(2));
      const answer = JSON.parse(await session.nextLine()) as { id: number; result: { structuredContent: { locations: { id: string }[] } } };
      expect(answer.id).toBe(2);
      expect(answer.result.structuredContent.locations.map((l) => l.id)).toEqual(['loc_downtown']);
    } finally {
      expect(await session.end()).toBe(0);
    }
  });
});

/** A `serve --stdio` child driven line by line. */
function rawSession(): { child: ReturnType<typeof spawnServe>; nextLine: () => Promise<string>; end: () => Promise<number | null> } {
  const child = spawnServe();
  const lines: string[] = [];
  // Whoever waits for the next line is woken by the line itself or by the exit: no polling, and no
  // deadline of our own that a busy machine could outrun (the test's timeout is the only one).
  let wake: (() => void) | undefined;
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      lines.push(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
    }
    wake?.();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  void exited.then(() => wake?.());
  const nextLine = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const line = lines.shift();
        wake = undefined;
        if (line !== undefined) resolve(line);
        else if (child.exitCode !== null) reject(new Error(`server exited with ${child.exitCode}`));
        else wake = check;
      };
      check();
    });
  return {
    child,
    nextLine,
    end: () => {
      child.stdin.end(); // the client hanging up ends the session
      return exited;
    },
  };
}

function spawnServe() {
  return spawn(process.execPath, serveArgs(), { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
}
