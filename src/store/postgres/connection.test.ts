import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors.js';
import { isUnavailable, poolConfig, redactUrl, resolveSettings } from './connection.js';

describe('resolveSettings', () => {
  it('takes the schema from ?schema= and removes it from the URL handed to pg', () => {
    const s = resolveSettings('postgres://u:secret@db.internal:5432/ucp?schema=tenant_a&sslmode=require');
    expect(s.schema).toBe('tenant_a');
    expect(s.connectionString).toBe('postgres://u:secret@db.internal:5432/ucp?sslmode=require');
    expect(s.display).not.toContain('secret');
  });

  it('reads pool tuning from the URL (explicit options win) and keeps it away from pg', () => {
    const s = resolveSettings('postgres://h/db?pool_max=25&statement_timeout_ms=2500&connect_timeout_ms=800&application_name=x');
    expect(s).toMatchObject({ poolMax: 25, statementTimeoutMs: 2500, connectTimeoutMs: 800 });
    expect(s.connectionString).toBe('postgres://h/db?application_name=x');
    expect(resolveSettings('postgres://h/db?pool_max=25', { poolMax: 3 }).poolMax).toBe(3);
    expect(() => resolveSettings('postgres://h/db?pool_max=lots')).toThrow(/pool_max must be a positive integer/);
    expect(() => resolveSettings('postgres://h/db?pool_max=0')).toThrow(/poolMax must be an integer >= 1/);
  });

  it('refuses schema names that would need quoting, with what is allowed', () => {
    expect(() => resolveSettings('postgres://h/db?schema=Robert%27);DROP')).toThrow(ConfigError);
    expect(() => resolveSettings('postgres://h/db', { schema: 'Upper' })).toThrow(/lower-case letters, digits and _/);
  });

  it('refuses non-PostgreSQL URLs and bad numbers without echoing a password', () => {
    expect(() => resolveSettings('mysql://u:pw@h/db')).toThrow(/expected postgres:\/\//);
    expect(() => resolveSettings('mysql://u:pw@h/db')).not.toThrow(/pw/);
    expect(() => resolveSettings('postgres://h/db', { poolMax: 0 })).toThrow(/poolMax must be an integer >= 1/);
  });

  it('puts the schema first on search_path and keeps public for the extension functions', () => {
    const c = poolConfig(resolveSettings('postgres://h/db?schema=s1'), ['postgis_ext']);
    expect(c.options).toContain('search_path=s1,postgis_ext,public');
    expect(c.statement_timeout).toBe(5000);
  });

  it('redacts passwords', () => {
    expect(redactUrl('postgres://u:hunter2@h/db')).toBe('postgres://u:***@h/db');
  });
});

describe('isUnavailable', () => {
  it('is true for refused/reset connections, server shutdown and our statement timeout', () => {
    for (const e of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('x'), { code: '08006' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })]), {}),
    ]) {
      expect(isUnavailable(e), e.message).toBe(true);
    }
  });

  it('is false for errors retrying will not fix', () => {
    for (const e of [
      Object.assign(new Error('relation "locations" does not exist'), { code: '42P01' }),
      Object.assign(new Error('password authentication failed'), { code: '28P01' }),
      new Error('boom'),
      'text',
      null,
    ]) {
      expect(isUnavailable(e)).toBe(false);
    }
  });
});
