/**
 * Runs the real `ucp-location` CLI in a child process: the built one when it is newer than every
 * source file, otherwise the sources through tsx (a stale dist/ is never what gets tested).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILT = join(ROOT, 'dist/cli/main.js');

/**
 * The newest file under `dir` that the CLI can run, and its modification time. Test files
 * (`*.test.ts`) are left out: editing one changes no behaviour of the built CLI, and must not send
 * every CLI test to the slow path.
 */
function newestFile(dir: string): { path: string; mtimeMs: number } {
  let newest = { path: dir, mtimeMs: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.test.ts')) continue;
    const path = join(dir, entry.name);
    const candidate = entry.isDirectory() ? newestFile(path) : { path, mtimeMs: statSync(path).mtimeMs };
    if (candidate.mtimeMs > newest.mtimeMs) newest = candidate;
  }
  return newest;
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

let warned = false;

/**
 * dist/cli/main.js when it is newer than every source file under src/ (so it runs the code under test).
 * Falling back to tsx says so on stderr, once per test process, naming the file that made dist/
 * stale: every child then spends seconds transforming TypeScript, which on a busy machine is what
 * pushes CLI tests towards their timeouts, and `npm run build` is the cure.
 */
export function freshBuiltCli(): string | undefined {
  const newest = newestFile(join(ROOT, 'src'));
  const builtAt = existsSync(BUILT) ? statSync(BUILT).mtimeMs : undefined;
  if (builtAt !== undefined && builtAt >= newest.mtimeMs) return BUILT;
  if (!warned) {
    warned = true;
    const why = builtAt === undefined ? 'dist/ is missing' : `${relative(ROOT, newest.path)} is newer than dist/`;
    process.stderr.write(`⚠ CLI tests run the sources through tsx (several times slower): ${why}. Run \`npm run build\` first.\n`);
  }
  return undefined;
}

const [COMMAND, PREFIX] = cliCommand();

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A child still running after this long is killed: not a deadline any test relies on (each test's
 * own timeout is shorter), only so that a test that timed out does not leave its child behind.
 */
const LEFTOVER_KILL_MS = 180_000;

export function runCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...options.env };
    // The platform profile env var must only reach the child when a test sets it.
    if (options.env?.['UCP_PLATFORM_PROFILE'] === undefined) delete env['UCP_PLATFORM_PROFILE'];
    execFile(COMMAND, [...PREFIX, ...args], { cwd: options.cwd ?? ROOT, env, timeout: LEFTOVER_KILL_MS }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}
