/**
 * Docs as tests: every fenced code block of the repository's Markdown pages (README.md,
 * CONTRIBUTING.md, CHANGELOG.md, docs/, data/, schemas/) is run or checked here, or carries
 * `<!-- not-runnable: why -->` right above its fence. A page is read top to bottom like a reader
 * at a terminal: its blocks run in order in one scratch directory that looks like a clone (the
 * repository's top-level entries linked in), and servers it leaves running with `&` stay up until
 * the page ends. Pages run side by side.
 *
 * How each block is treated:
 * - `sh`/`bash`/`console`: each command runs with bash and must exit 0 — only the programs in
 *   RUNNABLE_PROGRAMS are ever started (npm ci, npm test, .ci/run … need a marker); JSON it prints must not
 *   be an error (JSON-RPC `error`, `isError`, `ucp.status: "error"`, `ok: false`). A
 *   `ucp-location serve` must report its URL; left running with `&` it serves the rest of the
 *   page, in the foreground it must answer /readyz and then stop with status 0 on Ctrl-C (SIGINT).
 * - `ts`/`js` with `<!-- docs-test: run -->` (a script can do anything, so a person opts it in):
 *   written to a file in the page directory and run with Node (tsx for TS); it must exit 0.
 *   Package imports resolve as in a clone (`ucp-location/server` included).
 * - anything else needs a role, `<!-- docs-test: role key=value … -->` (see ROLES), or a
 *   `not-runnable` marker; `text` blocks may go without one unless they look like commands.
 *
 * The only rewrites (see support/shell.ts): `npm start` → package.json's start script;
 * `npx ucp-location`, `node dist/cli/main.js` → the built CLI (dist/: run `npm run build` first);
 * a documented port (`--port 8080`, `127.0.0.1:8080`) → a free one. 8080 names the demo server
 * `npm start` runs, which this file starts once on a free port, unless the page started its own.
 *
 * Traffic stays on loopback: every Node process started here resolves only loopback names
 * (support/loopback-only.js), and curl may only be pointed at loopback URLs. Time stands still
 * where the pages need it: every Node process started here runs on a clock pinned to DOCS_NOW.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useScratchDir } from '../support/scratch.js';
import { type MatchMode, at as valueAt, differences, without } from './support/json-match.js';
import { type CodeBlock, codeBlocks } from './support/markdown.js';
import { type Finished, type RunningServer, runCommand, startServer, tail } from './support/processes.js';
import {
  LOOPBACK_PORT,
  RUNNABLE_PROGRAMS,
  type ShellCommand,
  asTestRuns,
  consoleCommands,
  curlTargets,
  documentedServePort,
  isHttpServe,
  onFreePort,
  splitCommands,
  unrunnablePrograms,
} from './support/shell.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist/cli/main.js');
const GUARD = pathToFileURL(join(ROOT, 'test/docs/support/loopback-only.js')).href;
const CLOCK = pathToFileURL(join(ROOT, 'test/support/pinned-clock.js')).href;
/**
 * The instant every process started here believes it is (test/support/pinned-clock.js): answers
 * the pages show — which holidays are coming, which closures are spent, `--open-at now` — are the
 * same on whatever day the docs are tested. The pages that show such answers say this date.
 */
const DOCS_NOW = '2026-12-01T12:00:00Z';
const START_SCRIPT = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
const COMMAND_TIMEOUT_MS = 60_000;
const SERVER_START_MS = 60_000; // a busy 2-core machine has taken 15 s to start one

// ---------------------------------------------------------------------------------------------
// Which pages, which blocks, and what each block is.

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'dist-bench', 'coverage', 'tmp']);

/** Markdown pages of the repository; bench/results/ holds generated reports, not docs. */
function markdownPages(dir = ''): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const path = posix.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name) || path === 'bench/results') return [];
        return markdownPages(path);
      }
      return entry.name.endsWith('.md') ? [path] : [];
    })
    .sort();
}

const PAGES = markdownPages();
const BLOCKS = new Map(PAGES.map((page) => [page, codeBlocks(ROOT, page)]));

const SHELL = new Set(['sh', 'bash', 'shell', 'console']);
const SCRIPT = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs']);
const PROSE = new Set(['text', 'txt', 'plaintext']);

/**
 * Roles a block can be given with `<!-- docs-test: role key=value … -->`, and the block languages
 * each applies to. Shell roles modify how a session runs; the others are the whole check.
 */
const ROLES: Record<string, { langs: ReadonlySet<string>; does: string }> = {
  run: { langs: SCRIPT, does: 'runs the script with Node (tsx for TypeScript) from the page directory; it must exit 0' },
  given: { langs: SHELL, does: 'name=repo/path …: copies repository files into the page directory under the names the commands use' },
  'same-answer-as-previous': {
    langs: SHELL,
    does: '[at=path] [ignore=path,…]: the JSON this block prints equals the previous command block’s (at that path there)',
  },
  output: { langs: new Set(['json']), does: 'match=exact|subset [at=path]: the JSON printed by the previous command block, at that path' },
  data: { langs: new Set(['json', 'ndjson', 'csv']), does: 'as=ndjson|geojson|csv|jsonld|gbp: passes `ucp-location validate`' },
  'csv-cell': { langs: PROSE, does: 'column=hours|exception_hours: each line is a CSV cell that passes `ucp-location validate`' },
  inventory: { langs: new Set(['csv']), does: 'an inventory feed `ucp-location inventory` applies to a store of data/demo.ndjson' },
  config: { langs: new Set(['json']), does: 'a configuration file `ucp-location serve --config` starts with' },
  synopsis: { langs: PROSE, does: 'every --option of each `ucp-location <verb>` line is in that verb’s --help' },
};

type Role = { role: string; options: Record<string, string> };
type Plan =
  | { kind: 'skip'; reason: string }
  | { kind: 'run'; roles: Role[] }
  | { kind: 'check'; roles: Role[] }
  | { kind: 'prose' }
  | { kind: 'invalid'; problem: string };

const LOOKS_RUNNABLE = /^\s*(?:\$ |ucp-location |npx |npm |curl |node |bash )/m;

function planOf(block: CodeBlock): Plan {
  const notRunnable = block.markers.find((m) => m.kind === 'not-runnable');
  const roles = block.markers.flatMap((m) => (m.kind === 'docs-test' ? [{ role: m.role, options: m.options }] : []));
  if (notRunnable !== undefined) {
    return roles.length > 0
      ? { kind: 'invalid', problem: 'is marked both not-runnable and docs-test' }
      : { kind: 'skip', reason: notRunnable.reason };
  }
  if (block.lang === '') return { kind: 'invalid', problem: 'has no language: label the fence (sh, json, ts, text, …)' };
  for (const { role } of roles) {
    const known = ROLES[role];
    if (known === undefined)
      return { kind: 'invalid', problem: `has an unknown docs-test role "${role}" (known: ${Object.keys(ROLES).join(', ')})` };
    if (!known.langs.has(block.lang))
      return { kind: 'invalid', problem: `is a ${block.lang} block; docs-test role "${role}" is for ${[...known.langs].join('/')}` };
  }
  if (SHELL.has(block.lang)) {
    let commands: ShellCommand[];
    try {
      commands = commandsOf(block);
    } catch (error) {
      return { kind: 'invalid', problem: (error as Error).message };
    }
    const refused = [...new Set(commands.flatMap((c) => unrunnablePrograms(asTestRuns(c.text, START_SCRIPT))))];
    if (refused.length > 0) {
      return {
        kind: 'invalid',
        problem: `runs ${refused.join(', ')}, which the docs test never starts (it runs only ${[...RUNNABLE_PROGRAMS].join(', ')}): add <!-- not-runnable: why --> above it`,
      };
    }
    return { kind: 'run', roles };
  }
  if (SCRIPT.has(block.lang)) {
    // A script can do anything; it runs only where a person judged it safe to.
    return roles.some((r) => r.role === 'run')
      ? { kind: 'run', roles }
      : {
          kind: 'invalid',
          problem: `is a ${block.lang} block: add <!-- docs-test: run --> if it may run here, else <!-- not-runnable: why -->`,
        };
  }
  if (roles.length > 0) return { kind: 'check', roles };
  if (PROSE.has(block.lang)) {
    return LOOKS_RUNNABLE.test(block.body)
      ? {
          kind: 'invalid',
          problem: 'looks like commands but is text: make it sh, or add <!-- docs-test: synopsis --> or <!-- not-runnable: why -->',
        }
      : { kind: 'prose' };
  }
  return {
    kind: 'invalid',
    problem: `is a ${block.lang} block without a check: add <!-- docs-test: role … --> or <!-- not-runnable: why --> above it`,
  };
}

const where = (block: CodeBlock): string => `${block.file}:${block.line}`;

function commandsOf(block: CodeBlock): ShellCommand[] {
  return block.lang === 'console' ? consoleCommands(block.body, block.line + 1) : splitCommands(block.body, block.line + 1);
}

// ---------------------------------------------------------------------------------------------
// The machine the docs describe, made of this repository and loopback.

const scratch = useScratchDir('ucp-docs');
let binDir = '';
let demo: RunningServer | undefined;

function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // Only the test runner's own variables stay behind; the platform profile variable would
    // change what the CLI does, so a page must set it itself.
    if (key.startsWith('VITEST') || key === 'NODE_OPTIONS' || key === 'UCP_PLATFORM_PROFILE') continue;
    env[key] = value;
  }
  return {
    ...env,
    PATH: `${binDir}:${process.env['PATH'] ?? ''}`,
    NODE_OPTIONS: `--import=${GUARD} --import=${CLOCK}`,
    UCP_TEST_NOW: DOCS_NOW,
    NO_COLOR: '1',
  };
}

/** Newest modification time of the sources tsconfig.build.json compiles (tests and test support excluded). */
function newestSourceMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return /\.test\.ts$/.test(path) ? 0 : stat.mtimeMs;
  if (path.endsWith('test-support')) return 0;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestSourceMtime(join(path, entry))), 0);
}

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` first (npm test does), the docs describe the built package');
  if (statSync(CLI).mtimeMs < newestSourceMtime(join(ROOT, 'src'))) {
    throw new Error('dist/ is older than src/: run `npm run build` first (npm test does), the docs test runs the built CLI');
  }
  binDir = join(scratch(), 'bin');
  mkdirSync(binDir);
  writeFileSync(join(binDir, 'ucp-location'), `#!/bin/sh\nexec node ${JSON.stringify(CLI)} "$@"\n`, { mode: 0o755 });
  // What `npm start` runs, moved to a free port.
  demo = await startServer(onFreePort(asTestRuns('npm start', START_SCRIPT)), { cwd: ROOT, env: childEnv(), timeoutMs: SERVER_START_MS });
}, SERVER_START_MS + 5_000);

afterAll(async () => {
  await demo?.stop();
});

function isError(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as { jsonrpc?: unknown; error?: unknown; result?: { isError?: unknown }; ucp?: { status?: unknown }; ok?: unknown };
  if (v.jsonrpc !== undefined && v.error !== undefined) return `a JSON-RPC error: ${JSON.stringify(v.error)}`;
  if (v.result?.isError === true) return 'an MCP tool error (isError)';
  if (v.ucp?.status === 'error') return `a UCP error response: ${JSON.stringify(value)}`;
  if (v.ok === false) return `a failure report: ${JSON.stringify(value)}`;
  return null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describeExit(f: Finished): string {
  if (f.timedOut) return `was stopped after ${COMMAND_TIMEOUT_MS} ms`;
  return f.signal === null ? `exited with status ${f.code}` : `ended by ${f.signal}`;
}

/** One page being read: its directory, the servers it left running, the last output it printed. */
class PageSession {
  readonly dir: string;
  private readonly servers = new Map<number, RunningServer>();
  private readonly started: RunningServer[] = [];
  lastOutput: { json: unknown; where: string } | undefined;

  constructor(readonly page: string) {
    this.dir = join(scratch(), page.replace(/[/.]/g, '_'));
    mkdirSync(this.dir);
    // A clone's layout, so paths such as data/demo.ndjson and node_modules resolve; what the
    // commands write lands here, never in the repository.
    for (const entry of readdirSync(ROOT)) {
      if (entry !== '.git') symlinkSync(join(ROOT, entry), join(this.dir, entry));
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.started.map((server) => server.stop()));
  }

  /** The real port behind a documented one: this page's server on it, else (8080) the demo server. */
  private portFor(documented: number, at: string): number {
    const own = this.servers.get(documented);
    if (own !== undefined) return own.port;
    if (documented === 8080 && demo !== undefined) return demo.port;
    throw new Error(`${at}: nothing listens on documented port ${documented} (start a server on it earlier in the page)`);
  }

  localize(command: string, at: string): string {
    return command.replace(LOOPBACK_PORT, (hostPort: string, port: string) =>
      hostPort.replace(/\d+$/, String(this.portFor(Number(port), at))),
    );
  }

  env(): NodeJS.ProcessEnv {
    return childEnv();
  }

  async run(command: ShellCommand): Promise<void> {
    const at = `${this.page}:${command.line}`;
    const text = asTestRuns(command.text, START_SCRIPT);
    // Checked again here, so that no plan can start what the classification refused.
    const refused = unrunnablePrograms(text);
    if (refused.length > 0) throw new Error(`${at}: refusing to run ${refused.join(', ')} (not in RUNNABLE_PROGRAMS)`);
    if (isHttpServe(text)) return this.serve(text, command.background, at);
    if (command.background) throw new Error(`${at}: only \`ucp-location serve\` may be left running with &`);
    const localized = this.localize(text, at);
    if (/^curl\s/.test(localized)) {
      for (const url of curlTargets(localized)) {
        if (!['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname))
          throw new Error(`${at}: curl would contact ${url}, beyond loopback`);
      }
    }
    const finished = await runCommand(localized, { cwd: this.dir, env: this.env(), timeoutMs: COMMAND_TIMEOUT_MS });
    if (finished.code !== 0) {
      throw new Error(
        `${at}: \`${command.text}\` ${describeExit(finished)}\n--- stderr\n${tail(finished.stderr)}\n--- stdout\n${tail(finished.stdout)}`,
      );
    }
    const json = parseJson(finished.stdout);
    const error = isError(json);
    if (error !== null) throw new Error(`${at}: \`${command.text}\` printed ${error}`);
    this.lastOutput = { json, where: at };
  }

  private async serve(text: string, background: boolean, at: string): Promise<void> {
    const host = /\s--host[=\s]+(\S+)/.exec(text)?.[1];
    if (host !== undefined && !['127.0.0.1', 'localhost', '::1'].includes(host)) {
      throw new Error(`${at}: the server would listen on ${host}, beyond loopback; mark the block not-runnable`);
    }
    const server = await startServer(this.localize(onFreePort(text), at), { cwd: this.dir, env: this.env(), timeoutMs: SERVER_START_MS });
    if (background) {
      this.started.push(server);
      this.servers.set(documentedServePort(text), server);
      return;
    }
    // In the foreground the reader's terminal is the server until Ctrl-C.
    const ready = await fetch(`${server.url}/readyz`).then(
      (response) => response.status,
      (error: unknown) => String(error),
    );
    const stopped = await server.stop('SIGINT');
    if (stopped.code !== 0)
      throw new Error(`${at}: the server ${describeExit(stopped)} on Ctrl-C\n${tail(stopped.stderr + stopped.stdout)}`);
    expect(ready, `${at}: GET /readyz`).toBe(200);
  }
}

// ---------------------------------------------------------------------------------------------
// Checks of blocks that are not shell sessions.

const cli = (args: string): string => `ucp-location ${args}`;

async function mustSucceed(session: PageSession, command: string, at: string): Promise<Finished> {
  const finished = await runCommand(command, { cwd: session.dir, env: session.env(), timeoutMs: COMMAND_TIMEOUT_MS });
  if (finished.code !== 0) throw new Error(`${at}: \`${command}\` ${describeExit(finished)}\n${tail(finished.stdout + finished.stderr)}`);
  return finished;
}

function option(role: Role, key: string, block: CodeBlock): string {
  const value = role.options[key];
  if (value === undefined) throw new Error(`${where(block)}: docs-test ${role.role} needs ${key}=…`);
  return value;
}

function csvField(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

async function check(session: PageSession, block: CodeBlock, role: Role): Promise<void> {
  const at = where(block);
  const file = (ext: string): string => join(session.dir, `block-${block.line}.${ext}`);
  switch (role.role) {
    case 'output': {
      const previous = session.lastOutput;
      if (previous === undefined) throw new Error(`${at}: no command printed JSON before this block`);
      const mode = option(role, 'match', block) as MatchMode;
      if (mode !== 'exact' && mode !== 'subset') throw new Error(`${at}: match must be exact or subset`);
      const real = valueAt(previous.json, role.options['at'] ?? '');
      expect(differences(JSON.parse(block.body), real, mode), `${at} against what ${previous.where} printed`).toEqual([]);
      return;
    }
    case 'data': {
      const as = option(role, 'as', block);
      let text = block.body;
      if (as === 'ndjson') {
        // Shown wrapped for reading; a file holds one record per line.
        const whole = parseJson(block.body);
        const records =
          whole !== undefined
            ? [whole]
            : block.body
                .split('\n')
                .filter((l) => l.trim() !== '')
                .map((l) => JSON.parse(l) as unknown);
        text = records.map((r) => JSON.stringify(r)).join('\n');
      }
      // A Business Profile sheet is a .csv that only --format tells apart from ours.
      const path = as === 'gbp' ? file('csv') : file(as);
      writeFileSync(path, `${text}\n`);
      await mustSucceed(session, cli(`validate ${path}${as === 'gbp' ? ' --format gbp' : ''}`), at);
      return;
    }
    case 'csv-cell': {
      const column = option(role, 'column', block);
      const cells = block.body.split('\n').filter((l) => l.trim() !== '');
      const rows = cells.map((cell, i) => `doc_${i},Docs sample ${i},Europe/Madrid,${csvField(cell.trim())}`);
      writeFileSync(file('csv'), `id,name,timezone,${column}\n${rows.join('\n')}\n`);
      await mustSucceed(session, cli(`validate ${file('csv')}`), at);
      return;
    }
    case 'inventory': {
      const db = file('db');
      writeFileSync(file('csv'), `${block.body}\n`);
      await mustSucceed(session, cli(`import ${join(ROOT, 'data/demo.ndjson')} --db ${db} --quiet`), at);
      await mustSucceed(session, cli(`inventory ${file('csv')} --db ${db}`), at);
      return;
    }
    case 'config': {
      writeFileSync(file('json'), block.body);
      const server = await startServer(cli(`serve --port 0 --config ${file('json')}`), {
        cwd: session.dir,
        env: session.env(),
        timeoutMs: SERVER_START_MS,
      });
      const stopped = await server.stop();
      expect(stopped.code, `${at}: the server with this configuration stopped with`).toBe(0);
      return;
    }
    case 'synopsis': {
      const entries = block.body.split(/\n(?=ucp-location )/).filter((e) => e.startsWith('ucp-location '));
      if (entries.length === 0) throw new Error(`${at}: a synopsis names no \`ucp-location <verb>\` line`);
      await Promise.all(
        entries.map(async (entry) => {
          const words = entry.split(/\s+/).slice(1);
          const verb = words
            .slice(
              0,
              words.findIndex((w) => !/^[a-z][a-z-]*$/.test(w)),
            )
            .join(' ');
          const help = (await mustSucceed(session, cli(`${verb} --help`), at)).stdout;
          const options = [...new Set([...entry.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]))];
          const missing = options.filter((o) => !new RegExp(`(?:^|[\\s,])${o}(?=[\\s=,<[]|$)`, 'm').test(help));
          expect(missing, `${at}: options of \`ucp-location ${verb}\` absent from its --help`).toEqual([]);
        }),
      );
      return;
    }
    default:
      throw new Error(`${at}: docs-test role ${role.role} does not apply here`);
  }
}

async function runBlock(session: PageSession, block: CodeBlock, roles: Role[]): Promise<void> {
  const previous = session.lastOutput;
  if (SCRIPT.has(block.lang)) {
    const ts = block.lang === 'ts' || block.lang === 'typescript';
    const path = join(session.dir, `block-${block.line}.${ts ? 'ts' : 'mjs'}`);
    writeFileSync(path, session.localize(block.body, where(block)));
    const finished = await mustSucceed(session, `node ${ts ? '--import tsx ' : ''}${path}`, where(block));
    const error = isError(parseJson(finished.stdout));
    if (error !== null) throw new Error(`${where(block)}: the script printed ${error}`);
    return;
  }
  for (const role of roles.filter((r) => r.role === 'given')) {
    for (const [name, source] of Object.entries(role.options)) copyFileSync(join(ROOT, source), join(session.dir, name));
  }
  for (const command of commandsOf(block)) await session.run(command);
  for (const role of roles.filter((r) => r.role === 'same-answer-as-previous')) {
    const mine = session.lastOutput;
    if (previous === undefined || mine === undefined || mine === previous)
      throw new Error(`${where(block)}: needs JSON printed by this block and by one before it`);
    const ignore = (role.options['ignore'] ?? '').split(',').filter((p) => p !== '');
    const before = without(valueAt(previous.json, role.options['at'] ?? ''), ignore);
    const sides = [`the answer at ${previous.where}`, 'this one'] as const;
    expect(differences(before, without(mine.json, ignore), 'exact', sides), `${where(block)} against ${previous.where}`).toEqual([]);
  }
}

// ---------------------------------------------------------------------------------------------

describe('docs: every code block is run, checked, or marked not runnable with a reason', () => {
  it('classifies every block of every page', () => {
    const problems = [...BLOCKS.values()].flat().flatMap((block) => {
      const plan = planOf(block);
      return plan.kind === 'invalid' ? [`${where(block)} ${plan.problem}`] : [];
    });
    expect(problems).toEqual([]);
  });
});

for (const [page, blocks] of BLOCKS) {
  const plans = blocks.flatMap((block) => {
    const plan = planOf(block);
    return plan.kind === 'skip' || plan.kind === 'run' || plan.kind === 'check' ? [{ block, plan }] : [];
  });
  if (plans.length === 0) continue;
  describe.concurrent(page, () => {
    let session: PageSession | undefined;
    const open = (): PageSession => (session ??= new PageSession(page));
    afterAll(async () => {
      await session?.close();
    });
    for (const { block, plan } of plans) {
      const title = `${where(block)} ${block.lang}`;
      if (plan.kind === 'skip') {
        it.skip(`${title} — not runnable: ${plan.reason}`, () => undefined);
        continue;
      }
      it.sequential(
        `${title} — ${plan.kind === 'run' ? 'runs' : plan.roles.map((r) => r.role).join(', ')}`,
        async () => {
          const s = open();
          if (plan.kind === 'run') await runBlock(s, block, plan.roles);
          else if (plan.kind === 'check') for (const role of plan.roles) await check(s, block, role);
        },
        120_000,
      );
    }
  });
}

// ---------------------------------------------------------------------------------------------
// What the pages state about the repository around them.

function prose(page: string): string {
  // Code blocks and inline code are no claims about links or files.
  return readFileSync(join(ROOT, page), 'utf8')
    .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, '')
    .replace(/`[^`\n]*`/g, '``');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(page: string): Set<string> {
  return new Set([...prose(page).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map((m) => anchorOf(m[1] ?? '')));
}

interface DemoRecord {
  id: string;
  aliases?: string[];
  visibility?: 'public' | 'private';
  timezone?: string;
  address?: { address_country?: string };
  amenities?: Record<string, unknown>;
  items?: string[];
  serves?: { areas?: unknown[] };
}

const DEMO: DemoRecord[] = readFileSync(join(ROOT, 'data/demo.ndjson'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as DemoRecord);

const distinct = (values: (string | undefined)[]): number => new Set(values.filter((v) => v !== undefined)).size;

/** Numbers the pages quote about the demo dataset, derived from the files themselves. */
const FACTS = {
  locations: DEMO.length,
  public: DEMO.filter((r) => r.visibility !== 'private').length,
  private: DEMO.filter((r) => r.visibility === 'private').length,
  countries: distinct(DEMO.map((r) => r.address?.address_country)),
  timeZones: distinct(DEMO.map((r) => r.timezone)),
  amenityTypes: distinct(DEMO.flatMap((r) => Object.keys(r.amenities ?? {}))),
  itemIds: distinct(DEMO.flatMap((r) => r.items ?? [])),
  polygonAreas: DEMO.reduce((n, r) => n + (r.serves?.areas?.length ?? 0), 0),
  inventoryRows: readFileSync(join(ROOT, 'data/demo-inventory.csv'), 'utf8').trim().split('\n').length - 1,
};

/** Each pattern must occur on its page, and its numbers (in order) must be these facts. */
const CLAIMS: { page: string; pattern: RegExp; facts: (keyof typeof FACTS)[] }[] = [
  { page: 'README.md', pattern: /(\d+) Locations of the fictional/, facts: ['locations'] },
  { page: 'README.md', pattern: /in (\d+) countries and (\d+) time zones/, facts: ['countries', 'timeZones'] },
  {
    page: 'data/README.md',
    pattern: /\*\*(\d+) Locations\*\* \((\d+) public, (\d+) private\) in (\d+) countries and (\d+) IANA time zones/,
    facts: ['locations', 'public', 'private', 'countries', 'timeZones'],
  },
  { page: 'data/README.md', pattern: /\*\*Amenities\*\*: (\d+) types/, facts: ['amenityTypes'] },
  { page: 'data/README.md', pattern: /(\d+) polygon areas/, facts: ['polygonAreas'] },
  { page: 'data/README.md', pattern: /\*\*Items\*\*: (\d+) item ids/, facts: ['itemIds'] },
  { page: 'data/README.md', pattern: /holds ([\d,]+) feed rows/, facts: ['inventoryRows'] },
];

describe('docs: what the pages state about the repository', () => {
  it('link only to files and headings that exist', () => {
    const broken = PAGES.flatMap((page) =>
      [...prose(page).matchAll(/\]\(([^)\s]+)\)/g)].flatMap((m) => {
        const link = m[1] ?? '';
        if (/^[a-z][a-z+.-]*:/i.test(link)) return [];
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? page : posix.normalize(posix.join(posix.dirname(page), path));
        if (!existsSync(join(ROOT, target))) return [`${page}: ${link} (no ${target})`];
        if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(target).has(anchor)) return [`${page}: ${link} (no such heading)`];
        return [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('cite no ARCHITECTURE or SPEC file: neither is in the repository (docs/architecture.md is)', () => {
    const citing = PAGES.flatMap((page) =>
      readFileSync(join(ROOT, page), 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\b(?:ARCHITECTURE|SPEC)\b/.test(line) ? [`${page}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(citing).toEqual([]);
  });

  it("quote the demo dataset's numbers as data/demo.ndjson and data/demo-inventory.csv have them", () => {
    const wrong = CLAIMS.flatMap(({ page, pattern, facts }) => {
      const match = pattern.exec(readFileSync(join(ROOT, page), 'utf8'));
      if (match === null) return [`${page}: no longer says ${String(pattern)} (update this test with the new wording)`];
      return facts.flatMap((fact, i) => {
        const stated = Number((match[i + 1] ?? '').replace(/,/g, ''));
        return stated === FACTS[fact] ? [] : [`${page}: "${match[0]}" states ${fact} = ${stated}, the data has ${FACTS[fact]}`];
      });
    });
    expect(wrong).toEqual([]);
  });

  it('name only Locations the demo has, and private ids and aliases as the demo defines them, in blocks that run', () => {
    const byId = new Map(DEMO.map((r) => [r.id, r]));
    const byName = new Map(DEMO.flatMap((r) => [r.id, ...(r.aliases ?? [])].map((name) => [name, r] as const)));
    const wrong = [...BLOCKS.values()]
      .flat()
      .filter((block) => planOf(block).kind === 'run')
      .flatMap((block) => [
        ...[...block.body.matchAll(/\b(?:loc|hub)_[a-z0-9_]+/g)].flatMap((m) =>
          byId.has(m[0]) ? [] : [`${where(block)}: ${m[0]} is not in the demo`],
        ),
        ...[...block.body.matchAll(/--private-id[=\s]+(\S+)/g)].flatMap((m) =>
          byName.get(m[1] ?? '')?.visibility === 'private'
            ? []
            : [`${where(block)}: --private-id ${m[1]} is no private Location of the demo`],
        ),
        ...[...block.body.matchAll(/--alias[=\s]+([^=\s]+)=(\S+)/g)].flatMap((m) =>
          byId.get(m[2] ?? '')?.aliases?.includes(m[1] ?? '') === true
            ? []
            : [`${where(block)}: ${m[1]} is no alias of ${m[2]} in the demo`],
        ),
      ]);
    expect(wrong).toEqual([]);
  });
});
