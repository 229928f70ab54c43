/**
 * `serve --log-format` and `UCP_LOG_FORMAT` as a user meets them: the real CLI in a child process
 * (stdout is a pipe here, so without either the logs are JSON — the TTY side is covered by
 * src/logging.test.ts), a real request through the server, and the refusal of a bad value.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliCommand } from '../client/support/cli.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const [COMMAND, PREFIX] = cliCommand();
/** Every child still running when the file ends is stopped, also after a failed or timed-out case. */
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});
const DEMO_PROFILE = 'https://platform.example/profiles/v2026-01/agent.json';
/** Precise buyer coordinates: no log line may carry more than 2 decimals of them (R-P1). */
const CENTER = { latitude: 40.7127753, longitude: -74.0059728 };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The profile answers: the server is up and past start-up (its signal handlers are in place). */
async function profileAnswers(url: string): Promise<void> {
  const res = await fetch(`${url}/.well-known/ucp`);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

/**
 * Runs `ucp-location serve --port 0 …` on the demo dataset; once it logs its URL, `whileUp` runs
 * against it and the server is stopped with SIGTERM. Resolves when the process has exited.
 */
function serve(args: readonly string[], env: Record<string, string>, whileUp = profileAnswers): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env };
  if (env['UCP_LOG_FORMAT'] === undefined) delete childEnv['UCP_LOG_FORMAT'];
  const child = spawn(COMMAND, [...PREFIX, 'serve', '--port', '0', ...args], {
    cwd: REPO,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  let started = false;
  let failure: Error | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
    if (url === undefined || started) return;
    started = true;
    void whileUp(url)
      .catch((error: unknown) => (failure = error instanceof Error ? error : new Error(String(error))))
      .finally(() => child.kill('SIGTERM'));
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => {
      running.delete(child);
      if (failure === undefined) resolve({ code, stdout, stderr });
      else reject(failure);
    }),
  );
}

/** A REST search whose request carries precise coordinates, so the server logs a summary of it. */
async function searchNear(url: string): Promise<void> {
  const res = await fetch(`${url}/ucp/locations/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'ucp-agent': `profile="${DEMO_PROFILE}"` },
    body: JSON.stringify({ distance: { center: CENTER, max: 5000 }, pagination: { limit: 1 } }),
  });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

const PRETTY_LINE = /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] (INFO|WARN|ERROR): \S/;

function lines(text: string): string[] {
  return text.trimEnd().split('\n');
}

// One case at a time: side by side, each case's time was the time of all five servers (60 s each
// beside seven other engineers on two cores), which is what the timeout then measured.
describe('serve --log-format / UCP_LOG_FORMAT', () => {
  it('--log-format pretty: one readable line per entry, no colour into a pipe, coordinates truncated (R-P1)', async () => {
    const run = await serve(['--log-format', 'pretty'], {}, searchNear);
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    expect(out.length).toBeGreaterThanOrEqual(4);
    for (const line of out) expect(line).toMatch(PRETTY_LINE);
    expect(run.stdout).not.toContain('\u001b[');
    expect(out.some((l) => l.includes('listening on http://127.0.0.1:'))).toBe(true);
    const search = out.find((l) => l.includes('"center"'));
    expect(search).toContain('"latitude":40.71');
    expect(search).toContain('"longitude":-74');
    expect(run.stdout).not.toContain('40.7127');
    expect(run.stdout).not.toContain('74.0059');
    expect(out.at(-1)).toContain('UCP Location business server stopped');
  });

  it('UCP_LOG_FORMAT=pretty does the same without the flag; the flag wins over it', async () => {
    const [fromEnv, flagWins] = await Promise.all([
      serve([], { UCP_LOG_FORMAT: 'pretty' }),
      serve(['--log-format', 'json'], { UCP_LOG_FORMAT: 'pretty' }),
    ]);
    expect(fromEnv.code).toBe(0);
    for (const line of lines(fromEnv.stdout)) expect(line).toMatch(PRETTY_LINE);
    expect(flagWins.code).toBe(0);
    for (const line of lines(flagWins.stdout)) expect(JSON.parse(line)).toMatchObject({ service: 'ucp-location' });
  });

  it('JSON lines by default when stdout is not a terminal', async () => {
    const run = await serve([], {}, searchNear);
    expect(run.code).toBe(0);
    const entries = lines(run.stdout).map((l) => JSON.parse(l) as { msg: string; request?: { distance?: unknown } });
    expect(entries.some((e) => e.msg.includes('listening on'))).toBe(true);
    expect(JSON.stringify(entries)).toContain('"center":{"latitude":40.71,"longitude":-74}');
    expect(run.stdout).not.toContain('40.7127');
  });

  it('refuses an unknown format from the flag or the environment (exit 2), naming the choices', async () => {
    const [flag, env] = await Promise.all([serve(['--log-format', 'text'], {}), serve([], { UCP_LOG_FORMAT: 'yaml' })]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('ucp-location serve: --log-format must be one of json, pretty, got "text"');
    expect(env.code).toBe(2);
    expect(env.stderr).toContain('ucp-location serve: UCP_LOG_FORMAT must be one of json, pretty, got "yaml"');
  });
});
