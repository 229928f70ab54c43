/**
 * `ucp-location serve` as a user runs it: a child process (the built CLI, or the sources through
 * tsx when dist/ is stale), its logs, its exit status on SIGTERM, and its refusals of bad options
 * with actionable messages.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../../src/transport/test-support/raw-http.js';
import { cliNodeArgs } from '../client/support/cli.js';
import { buildStoreFile, FIXTURE } from './support/store.js';
import type { StoreFile } from './support/store.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CLI = cliNodeArgs();

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: readonly string[], onStdout?: (text: string, stop: () => void) => void): Promise<Run> {
  const child = spawn(process.execPath, [...CLI, 'serve', ...args], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
    onStdout?.(stdout, () => child.kill('SIGTERM'));
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

let storeFile: StoreFile;
let dir: string;

beforeAll(async () => {
  storeFile = await buildStoreFile();
  dir = mkdtempSync(join(tmpdir(), 'ucp-cli-'));
});

afterAll(() => {
  storeFile?.dispose();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

// Each case is its own process, one at a time: run side by side, eight CLI starts shared the
// machine, so each test's time was the time of all eight, and a busy machine pushed them past the
// test timeout together.
describe('ucp-location serve', () => {
  it('serves the profile, logs JSON lines, and stops cleanly on SIGTERM', async () => {
    let checked: Promise<number> | undefined;
    const run = await cli(['--port', '0', '--db', storeFile.path], (text, stop) => {
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(text)?.[1];
      if (url === undefined || checked !== undefined) return;
      checked = rawRequest(`${url}/.well-known/ucp`).then((res) => {
        stop();
        return res.status;
      });
    });
    expect(await checked).toBe(200);
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string });
    expect(lines.some((l) => l.msg.includes('listening'))).toBe(true);
    expect(lines.at(-1)?.msg).toBe('UCP Location business server stopped');
  });

  it('stops gracefully (exit 0) on a SIGTERM that arrives while it is still starting', async () => {
    let sent = false;
    const run = await cli(['--port', '0', '--data', FIXTURE], (text, stop) => {
      if (sent || !text.includes('importing data files into a temporary store')) return;
      sent = true;
      stop();
    });
    expect(sent).toBe(true);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('UCP Location business server stopped');
  });

  it('refuses --allow-loopback-profiles on a non-loopback address (exit 2)', async () => {
    const run = await cli(['--host', '0.0.0.0', '--port', '0', '--db', storeFile.path, '--allow-loopback-profiles']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--allow-loopback-profiles is only honoured when the server listens on a loopback address');
  });

  it('refuses an http --base-url for a non-loopback host, naming the https origin to pass instead (R-D2, exit 2)', async () => {
    const runs = await Promise.all(
      [[], ['--stdio']].map((transport) =>
        cli(['--port', '0', '--db', storeFile.path, '--base-url', 'http://shop.example.com', ...transport]),
      ),
    );
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('UCP endpoints must be https');
      expect(run.stderr).toContain('--base-url https://shop.example.com');
    }
  });

  it('refuses a non-loopback --host without --base-url, which would publish http endpoints (R-D2, exit 2)', async () => {
    const run = await cli(['--host', '0.0.0.0', '--port', '0', '--db', storeFile.path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--host 0.0.0.0 makes the server reachable from other machines');
    expect(run.stderr).toContain('--base-url https://');
  });

  it('accepts an http --base-url on a loopback host (local development)', async () => {
    let status: Promise<number> | undefined;
    const run = await cli(['--port', '0', '--db', storeFile.path, '--base-url', 'http://localhost:9'], (text, stop) => {
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(text)?.[1];
      if (url === undefined || status !== undefined) return;
      status = rawRequest(`${url}/.well-known/ucp`).then((res) => {
        stop();
        return res.status;
      });
    });
    expect(run.code).toBe(0);
    expect(await status).toBe(200);
  });

  it('names the offending key of a bad configuration file (exit 2)', async () => {
    const config = join(dir, 'bad.json');
    writeFileSync(config, JSON.stringify({ limits: { maxRadius: 1000 } }));
    const run = await cli(['--port', '0', '--db', storeFile.path, '--config', config]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown key "limits.maxRadius" (did you mean "maxRadiusMeters"?)');
  });

  it('says how to create a missing store file (exit 2)', async () => {
    const run = await cli(['--port', '0', '--db', join(dir, 'missing.db')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('ucp-location import --db');
  });
});
