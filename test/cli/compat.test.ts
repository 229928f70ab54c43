/**
 * The compatibility promise (README, "Compatibility"): the flags and configuration keys that
 * scripts and deployments use keep working from release to release. A rename keeps the old
 * spelling as a hidden alias; nothing listed here is removed without a major version.
 *
 * Flags are checked at parse level on the real commander program (every verb registered, actions
 * replaced so nothing starts), in each verb's --help, and with one cheap real invocation of the
 * CLI per verb. Configuration keys are checked by loading a real file that sets every documented
 * key, and against docs/configuration.md and DEFAULT_CONFIG so a new key cannot go undocumented.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadCommands } from '../../src/cli/commands/index.js';
import { DEFAULT_CONFIG, loadConfigFile } from '../../src/config.js';
import { LOOKUP_CAPABILITY } from '../../src/protocol/types.js';
import { runCli } from '../client/support/cli.js';
import { useScratchDir } from '../support/scratch.js';
import { allowForChildProcesses } from '../support/child-process-budget.js';

allowForChildProcesses();

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(REPO, 'test/e2e/fixtures/locations.ndjson');

interface Parsed {
  command: string;
  args: string[];
  opts: Record<string, unknown>;
}

/** The real program with every verb; parsing records what the action would have received. */
async function parse(argv: readonly string[]): Promise<Parsed> {
  const program = new Command('ucp-location').exitOverride();
  for (const register of await loadCommands(undefined)) register(program);
  let parsed: Parsed | undefined;
  for (const cmd of program.commands) {
    cmd.exitOverride().configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
    cmd.action((...received: unknown[]) => {
      const self = received.at(-1) as Command;
      parsed = { command: self.name(), args: self.args, opts: self.opts() };
    });
  }
  await program.parseAsync(argv, { from: 'user' });
  if (parsed === undefined) throw new Error(`no verb ran for ${argv.join(' ')}`);
  return parsed;
}

async function helpOf(verb: string): Promise<string> {
  const program = new Command('ucp-location');
  for (const register of await loadCommands(verb)) register(program);
  const cmd = program.commands.find((c) => c.name() === verb);
  if (cmd === undefined) throw new Error(`no verb ${verb}`);
  return cmd.helpInformation();
}

/** Item 8 of "A house newcomers can trust": what scripts are known to use. */
const PROMISED_FLAGS: Record<string, string[]> = {
  serve: ['--host', '--port', '--data', '--db', '--store', '--config', '--allow-loopback-profiles', '--log-level', '--log-format'],
  import: ['--format', '--db', '--store', '--quiet', '--json'],
  migrate: ['--store'],
  conformance: ['--json', '--platform-profile', '--allow-loopback'],
};

describe('CLI flags scripts rely on', () => {
  it('serve --host --port --data --db --store --config --allow-loopback-profiles --log-level --log-format', async () => {
    const parsed = await parse([
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      '8081',
      '--data',
      'a.ndjson',
      'b.csv',
      '--db',
      'stores.db',
      '--store',
      'postgres://ucp@db:5432/ucp',
      '--config',
      'ucp-location.json',
      '--allow-loopback-profiles',
      '--log-level',
      'warn',
      '--log-format',
      'json',
    ]);
    expect(parsed).toEqual({
      command: 'serve',
      args: [],
      opts: {
        host: '127.0.0.1',
        port: '8081',
        data: ['a.ndjson', 'b.csv'],
        db: 'stores.db',
        store: 'postgres://ucp@db:5432/ucp',
        config: 'ucp-location.json',
        allowLoopbackProfiles: true,
        logLevel: 'warn',
        logFormat: 'json',
      },
    });
  });

  it('import <files…> --format --db --store --quiet', async () => {
    const parsed = await parse([
      'import',
      'stores.ndjson',
      'more.csv',
      '--format',
      'ndjson',
      '--db',
      'stores.db',
      '--store',
      'postgres://ucp@db/ucp',
      '--quiet',
    ]);
    expect(parsed).toEqual({
      command: 'import',
      args: ['stores.ndjson', 'more.csv'],
      opts: { format: 'ndjson', db: 'stores.db', store: 'postgres://ucp@db/ucp', quiet: true },
    });
  });

  it('migrate --store', async () => {
    expect((await parse(['migrate', '--store', 'postgres://ucp@db/ucp'])).opts).toEqual({ store: 'postgres://ucp@db/ucp' });
  });

  it('conformance <url> --json --platform-profile --allow-loopback', async () => {
    const parsed = await parse([
      'conformance',
      'https://shop.example',
      '--json',
      '--platform-profile',
      'https://platform.example/profile.json',
      '--allow-loopback',
    ]);
    expect(parsed).toEqual({
      command: 'conformance',
      args: ['https://shop.example'],
      opts: { json: true, platformProfile: 'https://platform.example/profile.json', allowLoopback: true },
    });
  });

  it('the harness notices a flag that is gone (an unknown option is a usage error)', async () => {
    await expect(parse(['serve', '--listen', '127.0.0.1'])).rejects.toSatisfy(
      (error: unknown) => error instanceof CommanderError && error.code === 'commander.unknownOption',
    );
  });

  it.each(Object.entries(PROMISED_FLAGS))('%s --help lists every promised flag', async (verb, flags) => {
    const help = await helpOf(verb);
    for (const flag of flags) expect(help).toMatch(new RegExp(`^\\s+${flag}\\b`, 'm'));
  });
});

// One invocation at a time, so each test's time is its own on a busy machine (side by side they
// all shared one clock: the time of every CLI start at once).
describe('CLI flags, one real invocation each', () => {
  const scratch = useScratchDir('ucp-compat');

  it('import --format --db --quiet writes the database and prints nothing', async () => {
    const db = join(scratch(), 'stores.db');
    const run = await runCli(['import', FIXTURE, '--format', 'ndjson', '--db', db, '--quiet']);
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(existsSync(db)).toBe(true);
  });

  it('serve --db --store reaches the verb, which asks for one of the two (exit 2)', async () => {
    const run = await runCli(['serve', '--db', 'a.db', '--store', 'b.db', '--port', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Give either --store or --db');
  });

  it('migrate --store reaches the verb, which explains it is for PostgreSQL (exit 2)', async () => {
    const run = await runCli(['migrate', '--store', join(scratch(), 'not-postgres.db')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('migrate applies to the PostgreSQL store only');
  });

  it('conformance --json --platform-profile --allow-loopback answers in JSON when nothing listens', async () => {
    // Port 9 (discard) on loopback: nothing listens there, so the checker fails fast and says so.
    const run = await runCli([
      'conformance',
      'http://127.0.0.1:9',
      '--json',
      '--platform-profile',
      'https://platform.example/profile.json',
      '--allow-loopback',
      '--timeout',
      '2000',
    ]);
    expect(run.stderr).not.toContain('unknown option');
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false });
  });
});

describe('configuration keys (docs/configuration.md)', () => {
  const scratch = useScratchDir('ucp-compat-config');
  const profile = JSON.parse(readFileSync(join(REPO, 'data/demo-platform-profile.json'), 'utf8')) as Record<string, unknown>;
  const profileUrl = 'https://platform.example/profiles/v2026-01/agent.json';

  /** Every documented key, dotted, with a value that differs from its default. */
  const PROMISED_KEYS: Record<string, unknown> = {
    logLevel: 'warn',
    capabilities: [LOOKUP_CAPABILITY],
    'limits.defaultPageSize': 5,
    'limits.maxPageSize': 40,
    'limits.maxRadiusMeters': 10_000,
    'limits.browseCap': 30,
    'limits.lookupBatchMax': 20,
    cursorSecret: 'a-secret-of-at-least-thirty-two-characters',
    dataLanguage: 'de-CH',
    trustedPlatforms: { [profileUrl]: profile },
    // Read at start, not when the file is loaded: an absolute path stays as written.
    trustedPlatformProfiles: [{ file: '/srv/ucp/platform-profile.json', url: 'https://platform.example/profiles/ours.json' }],
    transports: ['mcp'],
    'cors.origins': ['https://app.example'],
    'cors.maxAgeSeconds': 60,
    'rateLimits.enabled': false,
    'rateLimits.perIp': { limit: 10, windowSeconds: 1 },
    'rateLimits.perProfile': { limit: 20, windowSeconds: 2 },
    'rateLimits.itemSearch': { limit: 3, windowSeconds: 4 },
    'rateLimits.clientShare': 0.5,
    maxBodyBytes: 100_000,
    maxQueuedRequests: 100,
    index: 'store',
    'profileFetch.timeoutMs': 1000,
    'profileFetch.maxBytes': 200_000,
    'profileFetch.cacheEntries': 10,
    continueUrl: 'https://shop.example/stores',
    // Absolute, so loading leaves it as written (a relative path is resolved from the file's folder).
    'signatures.signingKey': '/etc/ucp-location/business-key.jwk',
    'signatures.verify': 'required',
  };

  function get(object: unknown, dotted: string): unknown {
    return dotted.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], object);
  }

  it('a file setting every documented key loads, and each key takes effect', async () => {
    const file: Record<string, unknown> = {};
    for (const [dotted, value] of Object.entries(PROMISED_KEYS)) {
      const [section, key] = dotted.split('.') as [string, string | undefined];
      if (key === undefined) file[section] = value;
      else file[section] = { ...(file[section] as Record<string, unknown> | undefined), [key]: value };
    }
    const path = join(scratch(), 'ucp-location.json');
    writeFileSync(path, JSON.stringify(file));
    const config = await loadConfigFile(path);
    for (const [dotted, value] of Object.entries(PROMISED_KEYS)) {
      expect(get(config, dotted), dotted).toEqual(value);
      expect(get(DEFAULT_CONFIG, dotted), `${dotted} must differ from its default to prove it took effect`).not.toEqual(value);
    }
  });

  it('every key of the configuration is promised here and documented', () => {
    const actual = Object.entries(DEFAULT_CONFIG).flatMap(([key, value]) =>
      ['limits', 'cors', 'rateLimits', 'profileFetch', 'signatures'].includes(key)
        ? Object.keys(value as object).map((sub) => `${key}.${sub}`)
        : [key],
    );
    expect(actual.sort()).toEqual(Object.keys(PROMISED_KEYS).sort());
    const docs = readFileSync(join(REPO, 'docs/configuration.md'), 'utf8');
    for (const key of Object.keys(PROMISED_KEYS)) expect(docs, `docs/configuration.md documents ${key}`).toContain(`\`${key}\``);
  });
});
