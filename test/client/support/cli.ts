/**
 * Runs the real `ucp-location` CLI in a child process: the built one when it is newer than every
 * source file, otherwise the sources through tsx (a stale dist/ is never what gets tested).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function newestMtime(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = join(dir, entry.name);
    return Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }, 0);
}

/** The command and leading arguments that run the CLI (see the module comment). */
export function cliCommand(): [string, string[]] {
  const built = freshBuiltCli();
  if (built !== undefined) return [process.execPath, [built]];
  return [join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'src/cli/main.ts')]];
}

/**
 * The `node` arguments that run the CLI: the built file when it is fresh, otherwise the sources
 * through tsx. The built CLI starts in a fraction of the time (no TypeScript to transform), which
 * matters to a test that spawns it on a busy machine.
 */
export function cliNodeArgs(): string[] {
  const built = freshBuiltCli();
  return built === undefined ? ['--import', 'tsx', join(ROOT, 'src/cli/main.ts')] : [built];
}

/** dist/cli/main.js when it is newer than every file under src/ (so it runs the code under test). */
export function freshBuiltCli(): string | undefined {
  const built = join(ROOT, 'dist/cli/main.js');
  return existsSync(built) && statSync(built).mtimeMs >= newestMtime(join(ROOT, 'src')) ? built : undefined;
}

const [COMMAND, PREFIX] = cliCommand();

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...options.env };
    // The platform profile env var must only reach the child when a test sets it.
    if (options.env?.['UCP_PLATFORM_PROFILE'] === undefined) delete env['UCP_PLATFORM_PROFILE'];
    execFile(COMMAND, [...PREFIX, ...args], { cwd: options.cwd ?? ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}
