/**
 * Waiting on what a child process writes, instead of polling its output against a clock: a busy
 * machine makes the line arrive later, never makes the wait give up early. The test's own timeout
 * is the only deadline; a child that exits first fails the wait at once, with what it wrote.
 */
import type { ChildProcess } from 'node:child_process';

/**
 * Resolves with the child's output (stdout and stderr as they arrived, from this call on) once
 * `ready` holds for it; rejects, naming `what` and quoting the output, if the child exits first.
 */
export function untilOutput(child: ChildProcess, ready: (output: string) => boolean, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const streams = [child.stdout, child.stderr].filter((s) => s !== null);
    const stop = (): void => {
      for (const stream of streams) stream.off('data', onData);
      child.off('exit', onExit);
    };
    const onData = (chunk: Buffer | string): void => {
      output += chunk.toString();
      if (!ready(output)) return;
      stop();
      resolve(output);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      stop();
      reject(new Error(`the child exited (${String(code ?? signal)}) before ${what}:\n${output}`));
    };
    for (const stream of streams) stream.on('data', onData);
    child.once('exit', onExit);
    if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
  });
}
