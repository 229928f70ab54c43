import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratchDir } from '../../test/support/scratch.js';
import { ConfigError } from '../errors.js';
import { TenantRegistry } from './registry.js';

const scratch = useScratchDir('ucp-tenant-registry');

describe('TenantRegistry', () => {
  it('adds, lists and removes tenants, each a directory named by its normalised domain', async () => {
    const registry = new TenantRegistry(join(scratch(), 'a'));
    expect(await registry.list()).toEqual([]);
    const added = await registry.add('Bäckerei.Example');
    expect(added.domain).toBe('xn--bckerei-5wa.example');
    expect(added.baseUrl).toBe('https://xn--bckerei-5wa.example');
    expect(added.hasData).toBe(false);
    await registry.add('brand-a.example', { baseUrl: 'https://locations.brand-a.example' });
    expect((await registry.list()).map((t) => [t.domain, t.baseUrl])).toEqual([
      ['brand-a.example', 'https://locations.brand-a.example'],
      ['xn--bckerei-5wa.example', 'https://xn--bckerei-5wa.example'],
    ]);
    await expect(registry.add('BRAND-A.example')).rejects.toThrow('exists already');
    await registry.remove('brand-a.example');
    expect((await registry.list()).map((t) => t.domain)).toEqual(['xn--bckerei-5wa.example']);
    // Nothing half-made or parked is left beside the tenants.
    expect(readdirSync(registry.dir)).toEqual(['xn--bckerei-5wa.example']);
    await expect(registry.remove('brand-a.example')).rejects.toThrow('No tenant brand-a.example');
  });

  it('checks a configuration before adding, and keeps the profile files it names reachable', async () => {
    const dir = scratch();
    const registry = new TenantRegistry(join(dir, 'b'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ limits: { defaultPageSize: 0 } }));
    await expect(registry.add('brand-c.example', { configFile: bad })).rejects.toBeInstanceOf(ConfigError);
    expect(existsSync(join(registry.dir, 'brand-c.example'))).toBe(false);
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ trustedPlatformProfiles: [{ file: 'profile.json' }] }));
    writeFileSync(join(dir, 'profile.json'), '{}');
    const tenant = await registry.add('brand-c.example', { configFile: good });
    const copied = JSON.parse(readFileSync(tenant.configFile ?? '', 'utf8')) as { trustedPlatformProfiles: Array<{ file: string }> };
    expect(copied.trustedPlatformProfiles[0]?.file).toBe(join(dir, 'profile.json'));
  });

  it('refuses a base URL that is not an https origin', async () => {
    const registry = new TenantRegistry(join(scratch(), 'c'));
    await expect(registry.add('brand-d.example', { baseUrl: 'http://brand-d.example' })).rejects.toThrow('https origin');
    await expect(registry.add('brand-d.example', { baseUrl: 'https://brand-d.example/shop' })).rejects.toThrow('https origin');
  });
});
