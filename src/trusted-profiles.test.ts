import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratchDir } from '../test/support/scratch.js';
import { buildPlatformProfile } from './client/platform-profile.js';
import { ConfigError } from './errors.js';
import { LOCAL_PROFILE_ORIGIN, loadTrustedProfiles, parseTrustSpec } from './trusted-profiles.js';

const scratch = useScratchDir('ucp-trust');

function write(name: string, value: unknown): string {
  const file = join(scratch(), name);
  writeFileSync(file, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`);
  return file;
}

async function configError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
}

describe('parseTrustSpec', () => {
  it('reads <file> and <file>=<https-url>', () => {
    expect(parseTrustSpec('platform.json')).toEqual({ file: 'platform.json' });
    expect(parseTrustSpec('platform.json=https://agent.example/p.json')).toEqual({
      file: 'platform.json',
      url: 'https://agent.example/p.json',
    });
    // "=" without a URL after it belongs to the file name.
    expect(parseTrustSpec('a=b.json')).toEqual({ file: 'a=b.json' });
  });

  it('refuses a URL that is not https, saying why', () => {
    expect(() => parseTrustSpec('p.json=http://agent.example/p.json')).toThrow(/must be an absolute https URL/);
    expect(() => parseTrustSpec('')).toThrow(/needs a file/);
  });
});

describe('loadTrustedProfiles', () => {
  it('derives a stable URL under the reserved .invalid domain from the file content', async () => {
    const a = write('a.json', buildPlatformProfile());
    const b = write('b.json', buildPlatformProfile({ transports: ['mcp'] }));
    const [first, second] = await loadTrustedProfiles([{ file: a }, { file: b }]);
    expect(first?.url).toMatch(new RegExp(`^${LOCAL_PROFILE_ORIGIN.replace(/\./g, '\\.')}/platform/[0-9a-f]{16}\\.json$`));
    expect(first?.derived).toBe(true);
    expect(second?.url).not.toBe(first?.url);
    // Same bytes, same URL: on every start and for a copy of the file.
    const copy = write('copy.json', buildPlatformProfile());
    expect((await loadTrustedProfiles([{ file: copy }]))[0]?.url).toBe(first?.url);
  });

  it('uses the URL given, and keeps one entry for the same document listed twice', async () => {
    const a = write('given.json', buildPlatformProfile());
    const loaded = await loadTrustedProfiles([
      { file: a, url: 'https://agent.example/p.json' },
      { file: a, url: 'https://AGENT.example:443/p.json' },
    ]);
    expect(loaded.map((t) => [t.url, t.derived])).toEqual([['https://agent.example/p.json', false]]);
  });

  it('refuses two different documents under one URL', async () => {
    const a = write('one.json', buildPlatformProfile());
    const b = write('two.json', buildPlatformProfile({ transports: ['rest'] }));
    const message = await configError(
      loadTrustedProfiles([
        { file: a, url: 'https://agent.example/p.json' },
        { file: b, url: 'https://agent.example/p.json' },
      ]),
    );
    expect(message).toContain(`${a} and ${b} are both given the URL https://agent.example/p.json`);
  });

  it('names the file and the pointer of each problem of an invalid profile', async () => {
    const profile = buildPlatformProfile();
    const file = write('invalid.json', { ...profile, ucp: { ...profile.ucp, version: 'latest' } });
    const message = await configError(loadTrustedProfiles([{ file }]));
    expect(message).toContain(
      `Trusted platform profile ${file} (--trust-platform-profile / trustedPlatformProfiles) is not a valid UCP platform profile`,
    );
    expect(message).toContain('- /ucp/version:');
    expect(message).toContain('ucp-location platform-profile init --out <file>');
  });

  it('says how to make a missing file, and names a file that is not JSON', async () => {
    const missing = join(scratch(), 'missing.json');
    expect(await configError(loadTrustedProfiles([{ file: missing }]))).toContain(
      `the file does not exist (create one with: ucp-location platform-profile init --out ${missing}`,
    );
    const broken = write('broken.json', '{"ucp": ');
    expect(await configError(loadTrustedProfiles([{ file: broken }]))).toContain(
      `${broken} (--trust-platform-profile / trustedPlatformProfiles) is not valid JSON`,
    );
  });
});

describe('loadTrustedProfiles on hostile files (issue 37 N14)', () => {
  it('refuses a deeply nested file with a clear error, not a stack trace', async () => {
    const file = join(scratch(), 'deep.json');
    writeFileSync(file, `{"ucp":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    await expect(loadTrustedProfiles([{ file }])).rejects.toThrow(/nests arrays\/objects more than 64 levels deep/);
  });

  it('refuses a FIFO at once (no writer needed) and /dev/zero as not regular files', async () => {
    const fifo = join(scratch(), 'profile.fifo');
    execFileSync('mkfifo', [fifo]);
    await expect(loadTrustedProfiles([{ file: fifo }])).rejects.toThrow(/not a regular file/);
    await expect(loadTrustedProfiles([{ file: '/dev/zero' }])).rejects.toThrow(/not a regular file/);
  });

  it('refuses a file over the size limit, naming it', async () => {
    const file = join(scratch(), 'huge.json');
    writeFileSync(file, `{"pad":"${'x'.repeat(300 * 1024)}"}`);
    await expect(loadTrustedProfiles([{ file }])).rejects.toThrow(/at most 262144 bytes/);
  });
});
