/** `ucp-location console` as a user runs it: a child process, its URL line, its refusals, a clean stop. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawRequest } from '../../src/transport/test-support/raw-http.js';
import { cliCommand, runCli } from '../client/support/cli.js';
import { useScratchDir } from '../support/scratch.js';
import { buildDemoStore, TOKEN } from './support.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

const scratch = useScratchDir('ucp-console-cli');

describe('ucp-location console', () => {
  it('refuses a non-loopback host without a token (exit 2) and creates no database', async () => {
    const db = join(scratch(), 'never.db');
    const run = await runCli(['console', '--db', db, '--host', '0.0.0.0', '--port', '0'], { env: { UCP_CONSOLE_TOKEN: '' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--host 0\.0\.0\.0 is not a loopback address.*--token <secret> or set UCP_CONSOLE_TOKEN/);
    expect(existsSync(db)).toBe(false);
  });

  it('asks for the data when neither --db nor --store is given', async () => {
    const run = await runCli(['console']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--db <file> \(SQLite\) or --store <url>/);
  });

  it('serves the API with the token from UCP_CONSOLE_TOKEN, then stops cleanly on SIGTERM', async () => {
    const db = await buildDemoStore(scratch(), 'cli.db');
    const [command, prefix] = cliCommand();
    const child = spawn(command, [...prefix, 'console', '--db', db, '--port', '0'], {
      env: { ...process.env, UCP_CONSOLE_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (c: Buffer) => {
          stdout += c.toString('utf8');
          const m = /console at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout);
          if (m?.[1] !== undefined) resolve(m[1]);
        });
        child.once('exit', () => reject(new Error(`the console exited before printing its URL: ${stdout}`)));
      });
      const headers = { 'x-ucp-console': '1' };
      expect((await rawRequest(`${url}api/overview`, { headers })).status).toBe(401);
      const ok = await rawRequest(`${url}api/overview`, { headers: { ...headers, authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(ok.json).toMatchObject({ counts: { public: expect.any(Number) } });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stdout).toContain('console stopped');
  });
});
