/**
 * The time budget of a test file whose tests start child processes (the CLI, a server, an agent).
 *
 * Such a test waits on events — an exit, a line of output, an answer — so its only deadline is the
 * test timeout, and that must hold on a busy machine. Starting the built CLI costs about 1.2–1.5 s
 * of CPU (Node itself, then the modules of the verb); with two cores shared by twenty runnable
 * processes each start took 7–17 s of wall-clock time (measured 2026-12-03, load 18–22), so a test
 * running three of them one after another already passed the suite's default 30 s. Files that
 * start child processes call `allowForChildProcesses()` at the top: 180 s per test and per hook.
 */
import { vi } from 'vitest';

export const CHILD_PROCESS_TIMEOUT_MS = 180_000;

/** Raises this file's test and hook timeouts to CHILD_PROCESS_TIMEOUT_MS (see the module comment). */
export function allowForChildProcesses(): void {
  vi.setConfig({ testTimeout: CHILD_PROCESS_TIMEOUT_MS, hookTimeout: CHILD_PROCESS_TIMEOUT_MS });
}
