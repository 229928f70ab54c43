/**
 * Child processes for the docs test. Each runs in its own process group (`detached`), so a
 * command's whole tree can be ended by that group's id — never by name.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

function collect(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return { stdout: () => stdout, stderr: () => stderr };
}

/** Runs `command` with bash to its end (or kills it after `timeoutMs`). */
export function runCommand(command: string, options: RunOptions): Promise<Finished> {
  const child = spawn('bash', ['-c', command], { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collect(child);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    signalGroup(child, 'SIGKILL');
  }, options.timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: output.stdout(), stderr: output.stderr(), timedOut });
    });
  });
}

/** The last lines of a process's output, for a failure message. */
export function tail(text: string, lines = 25): string {
  const all = text.trimEnd().split('\n');
  return (all.length > lines ? ['…', ...all.slice(-lines)] : all).join('\n');
}

export interface RunningServer {
  /** The URL from the server's start-up line, e.g. http://127.0.0.1:40123. */
  readonly url: string;
  readonly port: number;
  /** Sends `signal` to the server's process group and waits for it to end (SIGKILL after 15 s). */
  stop(signal?: NodeJS.Signals): Promise<Finished>;
}

const LISTENING = /listening on (http:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):(\d+))/;

/**
 * Starts a `ucp-location serve` command and resolves once its start-up line names the URL it
 * listens on (so `--port 0` can be used: no port is guessed, none raced for).
 */
export function startServer(command: string, options: RunOptions): Promise<RunningServer> {
  // `exec`: the server is the group leader, so its own exit status is what `stop` reports.
  const child = spawn('bash', ['-c', `exec ${command}`], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const exited = new Promise<Finished>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, stdout: output.stdout(), stderr: output.stderr(), timedOut: false }));
  });
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<Finished> => {
    signalGroup(child, signal);
    const killer = setTimeout(() => signalGroup(child, 'SIGKILL'), 15_000);
    const finished = await exited;
    clearTimeout(killer);
    return finished;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop('SIGKILL').then((f) =>
        reject(new Error(`\`${command}\` did not report a URL within ${options.timeoutMs} ms\n${tail(f.stderr + f.stdout)}`)),
      );
    }, options.timeoutMs);
    const watch = (): void => {
      const match = LISTENING.exec(output.stdout()) ?? LISTENING.exec(output.stderr());
      if (match === null) return;
      clearTimeout(timer);
      child.stdout?.off('data', watch);
      child.stderr?.off('data', watch);
      resolve({ url: match[1] ?? '', port: Number(match[2]), stop });
    };
    child.stdout?.on('data', watch);
    child.stderr?.on('data', watch);
    child.once('error', reject);
    void exited.then((f) => {
      clearTimeout(timer);
      reject(new Error(`\`${command}\` exited (${f.code ?? f.signal}) before it listened\n${tail(f.stderr + f.stdout)}`));
    });
  });
}
