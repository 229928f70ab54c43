/**
 * The Business's `continue_url` (config `continueUrl`, R-C5) goes where the draft places it, on every
 * binding: in discovery / version failures (MCP `error.data.continue_url`, REST error body) and in
 * the `capabilities_incompatible` outcome. Without the key, no `continue_url` at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { startInProcessServer } from '../support/in-process-server.js';
import type { RunningServer } from '../../src/server.js';
import { expectNegotiationError, openBinding } from './support/bindings.js';
import type { Binding, BindingName } from './support/bindings.js';
import { startPlatforms, testResolver } from './support/platform.js';
import type { Platforms } from './support/platform.js';
import { openE2eStore } from './support/store.js';

const CONTINUE = 'https://shop.example/stores';

let storeFile: Awaited<ReturnType<typeof openE2eStore>>;
let platforms: Platforms;
let withUrl: RunningServer;
let without: RunningServer;

async function start(config: Record<string, unknown>): Promise<RunningServer> {
  return startInProcessServer({
    host: '127.0.0.1',
    port: 0,
    db: storeFile.path,
    allowLoopbackProfiles: true,
    resolveHost: testResolver,
    logger: createLogger({ level: 'silent', destination: 'stderr' }),
    config: parseConfig({ cursorSecret: 'e2e-cursor-secret-0123456789abcdef0123456789', ...config }),
  });
}

beforeAll(async () => {
  storeFile = await openE2eStore();
  platforms = await startPlatforms();
  withUrl = await start({ continueUrl: CONTINUE });
  without = await start({});
});

afterAll(async () => {
  await withUrl?.close();
  await without?.close();
  await platforms?.close();
  await storeFile?.dispose();
});

describe.each(['mcp-raw', 'mcp-sdk', 'rest'] as BindingName[])('continue_url on binding %s (R-C5)', (name) => {
  let binding: Binding;
  let plain: Binding;
  beforeAll(async () => {
    binding = await openBinding(name, withUrl.url);
    plain = await openBinding(name, without.url);
  });
  afterAll(async () => {
    await binding?.close();
    await plain?.close();
  });

  it('the capabilities_incompatible outcome carries the configured continue_url (R-C5)', async () => {
    const outcome = await binding.call('search', { query: 'grocery' }, platforms.lookupOnly);
    expect(outcome.ok).toBe(true);
    if (outcome.ok) {
      expect(outcome.payload['continue_url']).toBe(CONTINUE);
      expect((outcome.payload['messages'] as { code: string }[])[0]?.code).toBe('capabilities_incompatible');
    }
    const bare = await plain.call('search', { query: 'grocery' }, platforms.lookupOnly);
    expect(bare.ok && 'continue_url' in bare.payload).toBe(false);
  });

  it('discovery and version failures carry it too; successful answers never do (R-C5)', async () => {
    const version = await binding.call('search', {}, platforms.oldVersion);
    expectNegotiationError(name, version, 'version_unsupported');
    expect(!version.ok && version.continueUrl).toBe(CONTINUE);
    const unreachable = await binding.call('search', {}, platforms.redirect);
    expectNegotiationError(name, unreachable, 'profile_unreachable');
    expect(!unreachable.ok && unreachable.continueUrl).toBe(CONTINUE);
    const bare = await plain.call('search', {}, platforms.oldVersion);
    expect(!bare.ok && bare.continueUrl).toBeUndefined();
    const ok = await binding.call('search', { query: 'grocery' }, platforms.good);
    expect(ok.ok && 'continue_url' in ok.payload).toBe(false);
  });
});

describe('continueUrl configuration', () => {
  it('accepts an absolute https URL and refuses anything else with a message naming the key', () => {
    expect(parseConfig({ continueUrl: CONTINUE }).continueUrl).toBe(CONTINUE);
    expect(parseConfig({}).continueUrl).toBeUndefined();
    expect(() => parseConfig({ continueUrl: '/stores' })).toThrow(/continueUrl.*https URL/s);
  });
});
