/**
 * Every `mcpServers` entry the docs show works as written, from any working directory: an MCP host
 * starts the command from a directory of its own, so each entry is run here from a scratch
 * directory outside the clone, through the official MCP SDK client, with only the placeholders a
 * reader fills in replaced (`/path/to/ucp-location` → this clone; a store, a profile, a config file
 * → scratch files; the demo's 127.0.0.1:8080 → the server `npm start` runs, on a free port).
 *
 * And the new user's walk, end to end: README → `npm start` → the README's demo entry for the agent
 * bridge, run from another directory → an answer about an item whose availability comes from the
 * demo's feed (data/demo-inventory.csv), which must agree with that feed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useScratchDir } from '../support/scratch.js';
import { codeBlocks } from './support/markdown.js';
import { type RunningServer, startServer } from './support/processes.js';
import { onFreePort } from './support/shell.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist/cli/main.js');
const GUARD = pathToFileURL(join(ROOT, 'test/docs/support/loopback-only.js')).href;
const CLOCK = pathToFileURL(join(ROOT, 'test/support/pinned-clock.js')).href;
const START_SCRIPT = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
const PAGES = ['README.md', 'docs/agent.md', 'docs/configuration.md'];

interface Entry {
  where: string;
  name: string;
  command: string;
  args: string[];
}

function entriesOf(page: string): Entry[] {
  const blocks = codeBlocks(ROOT, page).filter((b) => b.lang === 'json' && b.body.includes('"mcpServers"'));
  const fromBlocks = blocks.flatMap((b) =>
    Object.entries((JSON.parse(b.body) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers).map(
      ([name, e]) => ({ where: `${page}:${b.line}`, name, command: e.command, args: e.args }),
    ),
  );
  // Entries written inline in the prose: `{"command": …, "args": […]}`.
  const inline = [...readFileSync(join(ROOT, page), 'utf8').matchAll(/`(\{"command": [^`]*\})`/g)].map((m, i) => {
    const e = JSON.parse(m[1] ?? '{}') as { command: string; args: string[] };
    return { where: `${page} (inline ${i + 1})`, name: 'inline', command: e.command, args: e.args };
  });
  return [...fromBlocks, ...inline];
}

const ENTRIES = PAGES.flatMap(entriesOf);
const scratch = useScratchDir('host-configs');
let demo: RunningServer | undefined;
let files: { db: string; profile: string; config: string } | undefined;

function env(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('VITEST') && k !== 'NODE_OPTIONS') out[k] = v;
  // Names resolve only on loopback (the docs' public hosts fail at once); the clock is pinned.
  return { ...out, NODE_OPTIONS: `--import=${GUARD} --import=${CLOCK}`, UCP_TEST_NOW: '2026-12-01T12:00:00Z', NO_COLOR: '1' };
}

/** What a reader fills in, filled in. */
function localize(arg: string): string {
  if (files === undefined || demo === undefined) throw new Error('not set up');
  return arg
    .replace('/path/to/ucp-location', ROOT.replace(/\/$/, ''))
    .replace(/^\/(?:path\/to|srv\/ucp)\/[\w-]+\.db$/, files.db)
    .replace(/^\/(?:path\/to|srv\/ucp)\/(?:ucp-)?platform\.json$/, files.profile)
    .replace(/^\/srv\/ucp\/ucp-location\.json$/, files.config)
    .replace('http://127.0.0.1:8080', demo.url);
}

/** A directory outside the clone, as a host's own working directory. */
function elsewhere(): string {
  const dir = scratch();
  if (dir.startsWith(ROOT)) throw new Error(`${dir} is inside the clone`);
  return dir;
}

async function connect(entry: Entry): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client({ name: 'host-configs', version: '1.0.0' });
  let stderr = '';
  const transport = new StdioClientTransport({
    command: entry.command === 'node' ? process.execPath : entry.command,
    args: entry.args.map(localize),
    cwd: elsewhere(),
    env: env(),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` first, the documented entries run dist/cli/main.js');
  const dir = scratch();
  const cli = (...args: string[]): void => void execFileSync(process.execPath, [CLI, ...args], { cwd: dir, env: env(), stdio: 'pipe' });
  files = { db: join(dir, 'stores.db'), profile: join(dir, 'platform.json'), config: join(dir, 'config.json') };
  cli('import', join(ROOT, 'data/demo.ndjson'), '--db', files.db, '--quiet');
  cli('platform-profile', 'init', '--out', files.profile);
  writeFileSync(files.config, '{}\n');
  // What `npm start` runs (package.json), on a free port, from the clone as npm would.
  demo = await startServer(onFreePort(START_SCRIPT), { cwd: ROOT, env: env(), timeoutMs: 60_000 });
}, 90_000);

afterAll(async () => {
  await demo?.stop();
});

describe('documented mcpServers entries', () => {
  it('are found on every page that shows one, and none uses npx of the unpublished package name', () => {
    expect(ENTRIES.length).toBeGreaterThanOrEqual(6);
    for (const e of ENTRIES) {
      expect(e.command, e.where).toBe('node');
      expect(e.args[0], e.where).toBe('/path/to/ucp-location/dist/cli/main.js');
    }
  });

  it.each(ENTRIES.map((e) => [e.where, e]))(
    '%s starts from a directory outside the clone and lists its tools',
    async (_where, entry) => {
      const { client, stderr } = await connect(entry);
      try {
        const { tools } = await client.listTools();
        const expected = entry.args.includes('agent')
          ? ['find_locations', 'get_locations', 'list_businesses']
          : ['lookup_locations', 'search_locations'];
        expect(tools.map((t) => t.name).sort(), stderr()).toEqual(expect.arrayContaining(expected));
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});

/** (location, item) → available, as the demo feed leaves it (later rows win). */
function feed(): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const line of readFileSync(join(ROOT, 'data/demo-inventory.csv'), 'utf8').trim().split('\n').slice(1)) {
    const [location, item, flag] = line.split(',');
    out.set(`${location}|${item}`, ['true', '1', 'yes'].includes(flag ?? ''));
  }
  return out;
}

describe("a new user's walk: README → npm start → the README's agent entry from another directory → an answer from the demo feed", () => {
  it('finds a store by an item only the feed makes available, and not one where the feed says sold out', async () => {
    const entry = ENTRIES.find((e) => e.where.startsWith('README.md') && e.args.includes('demo=http://127.0.0.1:8080'));
    if (entry === undefined) throw new Error('README.md shows no agent entry for the demo');
    const records = readFileSync(join(ROOT, 'data/demo.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; visibility?: string; items?: string[]; geo?: { latitude: number; longitude: number } });
    const byId = new Map(records.map((r) => [r.id, r]));
    const states = [...feed()].map(([key, available]) => {
      const [location = '', item = ''] = key.split('|');
      return { record: byId.get(location), item, available };
    });
    const isPublic = (r: (typeof records)[number] | undefined): boolean =>
      r !== undefined && r.visibility !== 'private' && r.geo !== undefined;
    // A new arrival: the record does not carry the item, the feed makes it available.
    const arrival = states.find((s) => s.available && isPublic(s.record) && !(s.record?.items ?? []).includes(s.item));
    // A sell-out: the record carries the item, the feed marks it sold out.
    const soldOut = states.find((s) => !s.available && isPublic(s.record) && (s.record?.items ?? []).includes(s.item));
    if (arrival?.record?.geo === undefined || soldOut?.record?.geo === undefined)
      throw new Error('the demo feed has no arrival or no sell-out');

    const { client, stderr } = await connect(entry);
    try {
      const ask = async (near: { latitude: number; longitude: number }, item: string): Promise<string[]> => {
        const result = await client.callTool({ name: 'find_locations', arguments: { near, radius: '1km', items: [item], limit: 50 } });
        expect(result.isError, `${JSON.stringify(result.content)}\n${stderr()}`).not.toBe(true);
        const content = result.structuredContent as { results: { location: { id: string } }[] };
        return content.results.map((r) => r.location.id);
      };
      expect(await ask(arrival.record.geo, arrival.item)).toContain(arrival.record.id);
      expect(await ask(soldOut.record.geo, soldOut.item)).not.toContain(soldOut.record.id);
      const list = await client.callTool({ name: 'list_businesses', arguments: {} });
      expect(JSON.stringify(list.structuredContent)).toContain('"ok"');
    } finally {
      await client.close();
    }
  }, 90_000);
});
