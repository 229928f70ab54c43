import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jwkThumbprint } from './jwk.js';
import { loadSigningKeyFile, writeNewSigningKeyFile } from './key-file.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ucp-keyfile-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('key files (R-SIG1)', () => {
  it('writes a new ES256 key readable by its owner only, whose kid is its thumbprint, and reads it back', async () => {
    const path = join(dir, 'platform.jwk.json');
    const published = await writeNewSigningKeyFile(path);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const onDisk: unknown = JSON.parse(await readFile(path, 'utf8'));
    expect(published.kid).toBe(jwkThumbprint(onDisk));
    const set = await loadSigningKeyFile(path);
    expect(set.signing.kid).toBe(published.kid);
    expect(set.published).toEqual([published]);
  });

  it('never replaces an existing file', async () => {
    const path = join(dir, 'taken.json');
    await writeFile(path, 'keep me');
    await expect(writeNewSigningKeyFile(path)).rejects.toThrow(/already exists/);
    expect(await readFile(path, 'utf8')).toBe('keep me');
  });

  it('reports an unreadable or non-JSON file without quoting its content', async () => {
    await expect(loadSigningKeyFile(join(dir, 'absent.json'))).rejects.toThrow(/Cannot read the signing key file .*absent\.json/);
    const path = join(dir, 'broken.json');
    await writeFile(path, '{"d": "SECRET-PART", oops}');
    const error: unknown = await loadSigningKeyFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toMatch(/not valid JSON/);
    expect(String(error)).not.toContain('SECRET-PART');
  });
});
