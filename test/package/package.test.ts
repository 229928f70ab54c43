/**
 * The npm package as a stranger gets it: `npm pack` (through our real `prepack`) of a copy of this
 * checkout, `npm install <tarball>` into an empty project, and then the bin, the server and every
 * `exports` subpath used from there — with no repository beside it.
 *
 * Slow (a clean tsc build, an npm install, a consumer type check; about 1–3 minutes), so it runs
 * only when asked: `npm run test:package`, or UCP_TEST_PACKAGE=1 (`.ci/run` does both steps).
 * Everything happens in a scratch directory; npm talks to its cache and, for a cache miss, to the
 * registry — nothing else leaves loopback. `--ignore-scripts` skips better-sqlite3's native build
 * (minutes without network access to its prebuilt binaries); the binary this checkout already
 * built for the same version is copied in instead. That our own package runs no install script
 * is asserted on the packed package.json.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync, copyFileSync, readdirSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useScratchDir } from '../support/scratch.js';
import { openBinding } from '../e2e/support/bindings.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(REPO, 'test/e2e/fixtures/locations.ndjson');
const DEMO_PROFILE = 'https://platform.example/profiles/v2026-01/agent.json';

/** Asked for explicitly: the env switch, or `npm run test:package` (npm names the script it runs). */
const ENABLED = process.env['UCP_TEST_PACKAGE'] === '1' || process.env['npm_lifecycle_event'] === 'test:package';

/** What a clone holds that the package build must not see: installs, builds, local databases. */
const NOT_COPIED = new Set(['node_modules', '.git', 'dist', 'dist-bench', 'coverage']);

interface PackedFile {
  path: string;
  size: number;
}
interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: PackedFile[];
}
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const scratch = useScratchDir('ucp-package');
const running = new Set<ChildProcess>();

/**
 * The environment for npm and the installed CLI: ours minus the `npm_*` variables the outer
 * `npm test` sets (they would point the inner npm at this checkout's package), with a TMPDIR of
 * our own so nothing lands in the run's.
 */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1' };
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  env['TMPDIR'] = join(scratch(), 'tmp');
  delete env['UCP_LOG_FORMAT'];
  return env;
}

/** npm itself: the one running this test when there is one, else the `npm` on PATH. */
function npm(args: readonly string[], cwd: string): Promise<Run> {
  const cli = process.env['npm_execpath'];
  return cli !== undefined && cli.endsWith('.js') ? exec(process.execPath, [cli, ...args], cwd) : exec('npm', args, cwd);
}

function exec(command: string, args: readonly string[], cwd: string, timeout = 300_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env: childEnv(), timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
    });
  });
}

function expectOk(run: Run, what: string): void {
  if (run.code !== 0) throw new Error(`${what} failed (exit ${String(run.code)}):\n${run.stderr}\n${run.stdout}`);
}

let tarball: PackResult;
let consumer: string;
let bin: string;

beforeAll(async () => {
  if (!ENABLED) return;
  const root = scratch();
  mkdirSync(join(root, 'tmp'));

  // A copy of the checkout, so prepack's clean build never touches this checkout's dist/.
  const source = join(root, 'source');
  cpSync(REPO, source, {
    recursive: true,
    filter: (path) => {
      const rel = relative(REPO, path);
      return !NOT_COPIED.has(rel.split(sep)[0] ?? '') && !/\.db(-wal|-shm)?$/.test(rel);
    },
  });
  // The build needs TypeScript and the dependencies' types; share this checkout's install.
  symlinkSync(realpathSync(join(REPO, 'node_modules')), join(source, 'node_modules'), 'junction');
  const packed = await npm(['pack', '--json', '--pack-destination', root], source);
  expectOk(packed, 'npm pack');
  const results = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as PackResult[];
  tarball = results[0] as PackResult;

  consumer = join(root, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const installed = await npm(
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(root, tarball.filename)],
    consumer,
  );
  expectOk(installed, 'npm install <tarball>');
  await provideSqliteBinary(consumer);
  bin = join(consumer, 'node_modules', '.bin', 'ucp-location');
}, 600_000);

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** better-sqlite3's compiled module, from this checkout when the versions match, else built. */
async function provideSqliteBinary(project: string): Promise<void> {
  const version = (dir: string): string => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const ours = join(REPO, 'node_modules', 'better-sqlite3');
  const theirs = join(project, 'node_modules', 'better-sqlite3');
  const binary = join(ours, 'build', 'Release', 'better_sqlite3.node');
  if (version(ours) === version(theirs) && existsSync(binary)) {
    mkdirSync(join(theirs, 'build', 'Release'), { recursive: true });
    copyFileSync(binary, join(theirs, 'build', 'Release', 'better_sqlite3.node'));
    return;
  }
  expectOk(await npm(['rebuild', 'better-sqlite3'], project), 'npm rebuild better-sqlite3');
}

/** The installed CLI in the consumer project. */
function cli(args: readonly string[]): Promise<Run> {
  return exec(bin, args, consumer, 60_000);
}

/**
 * `ucp-location serve --port 0 …` from the consumer project; `whileUp` runs against its URL,
 * then SIGTERM. Resolves with the run once the process has exited.
 */
function serve(args: readonly string[], whileUp: (url: string) => Promise<void>): Promise<Run> {
  const child = spawn(bin, ['serve', '--port', '0', ...args], { cwd: consumer, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  let checked: Promise<void> | undefined;
  let failure: Error | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
    if (url === undefined || checked !== undefined) return;
    checked = whileUp(url)
      .catch((error: unknown) => void (failure = error instanceof Error ? error : new Error(String(error))))
      .finally(() => child.kill('SIGTERM'));
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => {
      running.delete(child);
      if (failure !== undefined) reject(failure);
      else if (checked === undefined) reject(new Error(`serve exited (${String(code)}) before listening:\n${stderr}\n${stdout}`));
      else resolve({ code, stdout, stderr });
    }),
  );
}

/** The profile answers 200 and an MCP tools/call through the official SDK client returns locations. */
async function checkServer(url: string, operation: 'search' | 'lookup', request: unknown): Promise<Record<string, unknown>> {
  const profile = await fetch(`${url}/.well-known/ucp`);
  expect(profile.status).toBe(200);
  expect(((await profile.json()) as { ucp?: { version?: string } }).ucp?.version).toBe('2026-08-25');
  const binding = await openBinding('mcp-sdk', url);
  try {
    const outcome = await binding.call(operation, request, DEMO_PROFILE);
    if (!outcome.ok) throw new Error(`tools/call failed: ${outcome.message}`);
    return outcome.payload;
  } finally {
    await binding.close();
  }
}

const SKIPPED = 'skipped: slow (1-2 min); `npm run test:package` or UCP_TEST_PACKAGE=1 runs it, and CI does';
const gate = ENABLED ? describe : describe.skip;
const title = `the npm package, installed from its tarball${ENABLED ? '' : ` [${SKIPPED}]`}`;
if (!ENABLED) console.info(`test/package/package.test.ts: ${SKIPPED}`);

gate(title, () => {
  it('the tarball holds what the runtime needs and no tests, test support, source maps or sources', () => {
    const paths = tarball.files.map((f) => f.path);
    for (const needed of [
      'package.json',
      'README.md',
      'dist/cli/main.js',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/data/import-worker.js',
      'data/demo.ndjson',
      'data/demo-platform-profile.json',
      'schemas/2026-08-25/ucp.json',
    ]) {
      expect(paths).toContain(needed);
    }
    expect(paths.filter((p) => p.endsWith('.map') || /\.test\./.test(p) || p.includes('test-support'))).toEqual([]);
    expect(paths.filter((p) => /^(src|test|bench|scripts)\//.test(p))).toEqual([]);
    console.info(
      `package: ${tarball.filename}, ${tarball.entryCount} files, ${(tarball.size / 1024).toFixed(0)} KiB packed, ${(tarball.unpackedSize / 1024).toFixed(0)} KiB unpacked`,
    );
  });

  it('installing it runs no script of ours (no build on the consumer side)', () => {
    const pkg = JSON.parse(readFileSync(join(consumer, 'node_modules/ucp-location/package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts?.[hook]).toBeUndefined();
    expect(readdirSync(join(consumer, 'node_modules/ucp-location')).sort()).toEqual(
      ['LICENSE', 'README.md', 'data', 'dist', 'docs', 'package.json', 'schemas'].sort(),
    );
  });

  it('ucp-location --help and --version work from the install', async () => {
    const help = await cli(['--help']);
    expectOk(help, 'ucp-location --help');
    for (const verb of ['serve', 'import', 'validate', 'inventory', 'migrate', 'conformance', 'search', 'lookup']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${verb} `, 'm'));
    }
    const version = await cli(['--version']);
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version);
  });

  it('serves the bundled demo: profile 200 and a real MCP search', async () => {
    let payload: Record<string, unknown> = {};
    const run = await serve([], async (url) => {
      payload = await checkServer(url, 'search', { query: 'grocery store', pagination: { limit: 2 } });
    });
    expect(run.code).toBe(0);
    expect((payload['locations'] as unknown[]).length).toBe(2);
  });

  it('imports an NDJSON file into a database and serves that database', async () => {
    copyFileSync(FIXTURE, join(consumer, basename(FIXTURE)));
    const imported = await cli(['import', basename(FIXTURE), '--format', 'ndjson', '--db', 'stores.db', '--json']);
    expectOk(imported, 'ucp-location import');
    const report = JSON.parse(imported.stdout) as { ok: boolean; locations: number };
    expect(report.ok).toBe(true);
    expect(report.locations).toBeGreaterThan(0);
    // Outside demo mode a Platform profile is fetched over https or pre-approved: pre-approve one.
    const profile = JSON.parse(
      readFileSync(join(consumer, 'node_modules/ucp-location/data/demo-platform-profile.json'), 'utf8'),
    ) as unknown;
    writeFileSync(join(consumer, 'config.json'), JSON.stringify({ trustedPlatforms: { [DEMO_PROFILE]: profile } }));
    let payload: Record<string, unknown> = {};
    const run = await serve(['--db', 'stores.db', '--config', 'config.json'], async (url) => {
      payload = await checkServer(url, 'lookup', { ids: ['loc_valley_grocers'] });
    });
    expect(run.code).toBe(0);
    expect((payload['locations'] as { id: string }[]).map((l) => l.id)).toEqual(['loc_valley_grocers']);
  });

  it('every exports subpath loads at run time', async () => {
    const subpaths = exportedSubpaths();
    const script = `for (const s of ${JSON.stringify(subpaths)}) { const m = await import(s); if (Object.keys(m).length === 0) throw new Error(s + ' exports nothing'); }`;
    expectOk(await exec(process.execPath, ['--input-type=module', '-e', script], consumer), 'importing every subpath');
  });

  it('every exports subpath type-checks in a strict NodeNext consumer (no skipLibCheck)', async () => {
    const subpaths = exportedSubpaths();
    writeFileSync(
      join(consumer, 'check.ts'),
      `${subpaths.map((s, i) => `import * as m${i} from '${s}';`).join('\n')}\nexport const modules = [${subpaths.map((_, i) => `m${i}`).join(', ')}];\n`,
    );
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
        },
        files: ['check.ts'],
      }),
    );
    const tsc = join(REPO, 'node_modules/typescript/bin/tsc');
    expectOk(await exec(process.execPath, [tsc, '-p', 'tsconfig.json'], consumer), 'tsc --noEmit of a consumer importing every subpath');
  });
});

/** `ucp-location`, `ucp-location/client`, … from the installed package.json's `exports`. */
function exportedSubpaths(): string[] {
  const pkg = JSON.parse(readFileSync(join(consumer, 'node_modules/ucp-location/package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
  };
  const subpaths = Object.keys(pkg.exports)
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? 'ucp-location' : `ucp-location/${key.slice(2)}`));
  expect(subpaths.length).toBeGreaterThanOrEqual(5);
  return subpaths;
}
