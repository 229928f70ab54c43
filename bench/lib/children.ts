/**
 * Child processes of the harness (import, e2e servers): started with the same Node and the tsx
 * loader from the repository root, talking back through `BENCH {json}` lines on stdout. Every
 * child is tracked by pid and stopped by pid — never by name — when the harness ends or fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const live = new Set<ChildProcess>();

/** Stop every child still running (SIGTERM, then SIGKILL after `graceMs`). */
export async function stopAllChildren(graceMs = 3000): Promise<void> {
  await Promise.all([...live].map((c) => stopChild(c, graceMs)));
}

export function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    live.delete(child);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      live.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface BenchChild {
  process: ChildProcess;
  /** Resolves with the next `BENCH` message (rejects if the child exits first). */
  next(): Promise<Record<string, unknown>>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Run `bench/<script>` with tsx; stderr is passed through so its errors are visible. */
export function startChild(script: string, args: readonly string[], nodeFlags: readonly string[] = []): BenchChild {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  live.add(child);
  const queue: Record<string, unknown>[] = [];
  const waiting: { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }[] = [];
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      live.delete(child);
      for (const w of waiting.splice(0)) w.reject(new Error(`${script} exited with code ${code} before reporting`));
      resolve(code);
    });
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  lines.on('line', (line) => {
    if (!line.startsWith('BENCH ')) return;
    const value = JSON.parse(line.slice(6)) as Record<string, unknown>;
    const w = waiting.shift();
    if (w !== undefined) w.resolve(value);
    else queue.push(value);
  });
  return {
    process: child,
    exited,
    next: () => {
      const v = queue.shift();
      if (v !== undefined) return Promise.resolve(v);
      if (child.exitCode !== null) return Promise.reject(new Error(`${script} has exited`));
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
  };
}
