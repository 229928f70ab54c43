import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { caOption, timeoutOption } from './options.js';

describe('timeoutOption (--timeout)', () => {
  it('is undefined when absent and a number of milliseconds from 100 up', () => {
    expect(timeoutOption(undefined)).toBeUndefined();
    expect(timeoutOption('100')).toBe(100);
    expect(timeoutOption('30000')).toBe(30_000);
  });

  it.each(['99', '0', '-5', '1.5', '5s', '', '1e400'])('refuses %j with a message naming the option', (value) => {
    expect(() => timeoutOption(value)).toThrow(ConfigError);
    expect(() => timeoutOption(value)).toThrow(`--timeout ${JSON.stringify(value)} must be a whole number of milliseconds, at least 100`);
  });
});

describe('caOption (--ca)', () => {
  it('is undefined when absent and the file text otherwise', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ucp-ca-'));
    try {
      const file = join(dir, 'ca.pem');
      writeFileSync(file, '-----BEGIN CERTIFICATE-----\n');
      expect(caOption(undefined)).toBeUndefined();
      expect(caOption(file)).toBe('-----BEGIN CERTIFICATE-----\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the option, the file and the error code when the file cannot be read', () => {
    expect(() => caOption('/nonexistent/ca.pem')).toThrow(ConfigError);
    expect(() => caOption('/nonexistent/ca.pem')).toThrow('--ca: cannot read /nonexistent/ca.pem (ENOENT)');
  });
});
