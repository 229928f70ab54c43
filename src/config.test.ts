import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratchDir } from '../test/support/scratch.js';
import { DEFAULT_CONFIG, loadConfigFile, parseConfig } from './config.js';
import { ConfigError } from './errors.js';
import { limitProblem, limitsConflict, type EngineLimits } from './domain/engine-limits.js';
import { LocationService } from './service.js';
import { SqliteLocationStore } from './store/sqlite/index.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY } from './protocol/types.js';

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfig', () => {
  it('fills every default for an empty file', () => {
    expect(parseConfig({})).toEqual(DEFAULT_CONFIG);
  });

  it('merges partial sections over the defaults', () => {
    const config = parseConfig({ limits: { maxRadiusMeters: 10_000 }, rateLimits: { perIp: { limit: 5, windowSeconds: 1 } } });
    expect(config.limits.maxRadiusMeters).toBe(10_000);
    expect(config.limits.defaultPageSize).toBe(DEFAULT_CONFIG.limits.defaultPageSize);
    expect(config.rateLimits.perIp).toEqual({ limit: 5, windowSeconds: 1 });
    expect(config.rateLimits.itemSearch).toEqual(DEFAULT_CONFIG.rateLimits.itemSearch);
  });

  it('accepts lookup-only or search-only businesses (R-D3)', () => {
    expect(parseConfig({ capabilities: [LOOKUP_CAPABILITY] }).capabilities).toEqual([LOOKUP_CAPABILITY]);
    expect(parseConfig({ capabilities: [SEARCH_CAPABILITY] }).capabilities).toEqual([SEARCH_CAPABILITY]);
  });

  it('names an unknown key with its dotted path and suggests the intended one', () => {
    const err = errorOf(() => parseConfig({ limits: { maxRadius: 5 } }, 'ucp-location.json'));
    expect(err.message).toContain('ucp-location.json');
    expect(err.message).toContain('unknown key "limits.maxRadius"');
    expect(err.message).toContain('did you mean "maxRadiusMeters"');
  });

  it('names the key of a wrong type and says what was expected', () => {
    const err = errorOf(() => parseConfig({ rateLimits: { perProfile: { limit: '10', windowSeconds: 60 } } }));
    expect(err.message).toContain('"rateLimits.perProfile.limit": expected number, received string');
  });

  it('refuses a lookup batch maximum below 10 (R-L3)', () => {
    expect(errorOf(() => parseConfig({ limits: { lookupBatchMax: 5 } })).message).toContain(
      '"limits.lookupBatchMax": must be a whole number ≥ 10 (R-L3',
    );
  });

  it('refuses a page size default above the maximum', () => {
    expect(errorOf(() => parseConfig({ limits: { defaultPageSize: 80 } })).message).toContain(
      '"limits": maxPageSize (50) must be ≥ defaultPageSize (80)',
    );
  });

  it('refuses a profile size limit below the 128 KiB R-N4 requires', () => {
    expect(errorOf(() => parseConfig({ profileFetch: { maxBytes: 1000 } })).message).toContain('131072');
  });

  it('refuses CORS origins that are not origins and trusted platforms keyed by non-URLs', () => {
    expect(errorOf(() => parseConfig({ cors: { origins: ['https://app.example/path'] } })).message).toContain('"cors.origins[0]"');
    expect(errorOf(() => parseConfig({ trustedPlatforms: { 'not a url': { ucp: {} } } })).message).toContain('key "not a url"');
  });

  it('offers both bindings by default and accepts one alone; refuses an empty or repeated list', () => {
    expect(parseConfig({}).transports).toEqual(['mcp', 'rest']);
    expect(parseConfig({ transports: ['rest'] }).transports).toEqual(['rest']);
    expect(errorOf(() => parseConfig({ transports: [] })).message).toContain('"transports": offer at least one binding');
    expect(errorOf(() => parseConfig({ transports: ['mcp', 'mcp'] })).message).toContain('list each binding once');
    expect(errorOf(() => parseConfig({ transports: ['a2a'] })).message).toContain('"transports[0]"');
  });

  it('accepts trusted platform profile files, with an optional https URL', () => {
    expect(
      parseConfig({ trustedPlatformProfiles: [{ file: 'p.json' }, { file: 'q.json', url: 'https://a.example/q.json' }] })
        .trustedPlatformProfiles,
    ).toEqual([{ file: 'p.json' }, { file: 'q.json', url: 'https://a.example/q.json' }]);
    expect(errorOf(() => parseConfig({ trustedPlatformProfiles: [{ file: 'p.json', url: 'http://a.example/p.json' }] })).message).toContain(
      '"trustedPlatformProfiles[0].url": expected an absolute https URL',
    );
    expect(errorOf(() => parseConfig({ trustedPlatformProfiles: [{ path: 'p.json' }] })).message).toContain(
      'unknown key "trustedPlatformProfiles[0].path"',
    );
  });

  it('refuses a short cursor secret', () => {
    expect(errorOf(() => parseConfig({ cursorSecret: 'short' })).message).toContain('"cursorSecret"');
  });
});

describe('loadConfigFile', () => {
  const scratch = useScratchDir('ucp-config');

  it('reads and validates a JSON file', async () => {
    const file = join(scratch(), 'ok.json');
    writeFileSync(file, JSON.stringify({ $schema: './config.schema.json', logLevel: 'warn' }));
    expect((await loadConfigFile(file)).logLevel).toBe('warn');
  });

  it('finds trusted profile files named with a relative path next to the configuration file', async () => {
    const file = join(scratch(), 'trusting.json');
    writeFileSync(file, JSON.stringify({ trustedPlatformProfiles: [{ file: 'platform.json' }, { file: '/abs/p.json' }] }));
    expect((await loadConfigFile(file)).trustedPlatformProfiles).toEqual([
      { file: join(scratch(), 'platform.json') },
      { file: '/abs/p.json' },
    ]);
  });

  it('says when the file is missing', async () => {
    await expect(loadConfigFile(join(scratch(), 'missing.json'))).rejects.toThrow(/does not exist/);
  });

  it('says when the file is not JSON, naming the file', async () => {
    const file = join(scratch(), 'bad.json');
    writeFileSync(file, '{ "logLevel": ');
    await expect(loadConfigFile(file)).rejects.toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON`));
  });
});

describe('engine limits: the configuration file and the service hold them to one bound, in the same words', () => {
  const refused: ReadonlyArray<[keyof EngineLimits, number]> = [
    ['maxRadiusMeters', 0],
    ['maxRadiusMeters', -1],
    ['lookupBatchMax', 9],
    ['lookupBatchMax', 10.5],
    ['defaultPageSize', 0],
    ['maxPageSize', 2.5],
    ['browseCap', 0],
  ];

  it.each(refused)('%s = %s is refused by both, with the same reason (R-L3 for lookupBatchMax)', async (name, value) => {
    const reason = limitProblem(name, value);
    expect(reason).not.toBeNull();
    expect(errorOf(() => parseConfig({ limits: { [name]: value } })).message).toContain(`"limits.${name}": ${reason}`);
    const store = await SqliteLocationStore.open(':memory:');
    try {
      const serviceError = errorOf(() => new LocationService(store, { cursorSecret: 'x', limits: { [name]: value } }));
      expect(serviceError.message).toBe(`Engine limit ${name} ${reason}; got ${value}`);
    } finally {
      await store.close();
    }
  });

  it('accepts the smallest values both allow: a 10-id lookup batch, a radius just above 0 m', async () => {
    const limits = { lookupBatchMax: 10, maxRadiusMeters: 0.5, defaultPageSize: 1, maxPageSize: 1, browseCap: 1 };
    expect(parseConfig({ limits }).limits).toEqual(limits);
    const store = await SqliteLocationStore.open(':memory:');
    try {
      expect(new LocationService(store, { cursorSecret: 'x', limits }).limits).toEqual(limits);
    } finally {
      await store.close();
    }
  });

  it('refuses a default page larger than the largest page, in the same words', async () => {
    const limits = { defaultPageSize: 80, maxPageSize: 50 };
    const conflict = limitsConflict({ ...DEFAULT_CONFIG.limits, ...limits });
    expect(conflict).toBe('maxPageSize (50) must be ≥ defaultPageSize (80)');
    expect(errorOf(() => parseConfig({ limits })).message).toContain(`"limits": ${conflict}`);
    const store = await SqliteLocationStore.open(':memory:');
    try {
      expect(errorOf(() => new LocationService(store, { cursorSecret: 'x', limits })).message).toBe(`Engine limits: ${conflict}`);
    } finally {
      await store.close();
    }
  });
});
