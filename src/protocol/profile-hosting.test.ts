import { describe, expect, it } from 'vitest';
import { checkProfileHosting, type HostedResponse } from './profile-hosting.js';

const good: HostedResponse = {
  url: 'https://platform.example/profiles/agent.json',
  status: 200,
  headers: { 'cache-control': 'public, max-age=300', etag: '"abc"' },
};

const rules = (r: HostedResponse): string[] => checkProfileHosting(r).map((p) => `${p.level}:${p.rule}`);

describe('checkProfileHosting (R-D5)', () => {
  it('finds nothing wrong with https, public max-age ≥ 60 and a validator', () => {
    expect(checkProfileHosting(good)).toEqual([]);
    expect(
      rules({ ...good, headers: { 'cache-control': 'max-age=60, public', 'last-modified': 'Tue, 01 Sep 2026 00:00:00 GMT' } }),
    ).toEqual([]);
  });

  it('requires https (R-D5)', () => {
    expect(rules({ ...good, url: 'http://platform.example/p.json' })).toEqual(['must:https']);
  });

  it('reports a redirect (R-D5)', () => {
    expect(rules({ ...good, status: 301 })).toEqual(['must:no-redirect']);
  });

  it('requires a Cache-Control header (R-D5)', () => {
    expect(rules({ ...good, headers: { etag: '"x"' } })).toEqual(['must:cache-control-present']);
  });

  it('requires public and max-age ≥ 60 (R-D5)', () => {
    expect(rules({ ...good, headers: { 'cache-control': 'max-age=300', etag: '"x"' } })).toEqual(['must:cache-control-public']);
    expect(rules({ ...good, headers: { 'cache-control': 'public, max-age=59', etag: '"x"' } })).toEqual(['must:cache-control-max-age']);
    expect(rules({ ...good, headers: { 'cache-control': 'public', etag: '"x"' } })).toEqual(['must:cache-control-max-age']);
  });

  it('forbids private, no-store and no-cache, each reported (R-D5)', () => {
    const problems = checkProfileHosting({
      ...good,
      headers: { 'cache-control': 'public, max-age=300, private, no-store, no-cache', etag: '"x"' },
    });
    expect(problems.map((p) => p.rule)).toEqual(Array(3).fill('cache-control-forbidden-directive'));
    expect(problems.map((p) => p.message).join(' ')).toMatch(/private.*no-store.*no-cache/);
  });

  it('asks for a validator (ETag or Last-Modified) as a should (R-D5)', () => {
    expect(rules({ ...good, headers: { 'cache-control': 'public, max-age=300' } })).toEqual(['should:validator']);
  });

  it('reads multi-line Cache-Control headers', () => {
    expect(rules({ ...good, headers: { 'cache-control': ['public', 'max-age=120'], etag: '"x"' } })).toEqual([]);
  });
});
