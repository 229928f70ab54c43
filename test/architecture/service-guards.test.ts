/**
 * A suite that makes a PostgreSQL database must say which services it needs, so that `npm test`
 * on a machine without PostGIS skips it loudly instead of failing (CI turns those skips into
 * failures). test/index/index-file-postgres.test.ts once used a plain `describe` and failed on
 * such a machine: this reads every test file for the pattern.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : testFiles(path);
    return e.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('architecture: suites that need a service check for it', () => {
  it('every test file that creates a PostgreSQL database skips when PostGIS is missing', () => {
    const unguarded = [...testFiles(join(ROOT, 'test')), ...testFiles(join(ROOT, 'src'))]
      .filter((f) => f !== import.meta.filename)
      .filter((f) => readFileSync(f, 'utf8').includes('createTestDatabase('))
      .filter((f) => {
        const text = readFileSync(f, 'utf8');
        // The service check (describeWith or missingService) and the service it names.
        return !(/\b(?:describeWith|missingService)\(/.test(text) && text.includes("'postgis'"));
      })
      .map((f) => relative(ROOT, f));
    expect(unguarded).toEqual([]);
  });
});
