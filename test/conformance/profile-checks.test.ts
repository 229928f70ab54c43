/**
 * Profile-level rules (R-D1…R-D6, R-N1, R-N2) judged on crafted profiles served from loopback:
 * each defect is reported under its own rule with the offending pointer, a Business reaching
 * 2026-08-25 through `supported_versions` is followed to its leaf, and a profile served over real
 * TLS (throw-away CA, test host name resolved to 127.0.0.1) passes the https rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type ConformanceReport } from '../../src/conformance/index.js';
import { json, startTestServer, type TestServer } from '../support/http-server.js';
import { createTestPki, type TestPki } from '../support/tls.js';

const V = '2026-08-25';
const RELEASE = `https://ucp.dev/${V}`;

function capability(leaf: 'search' | 'lookup', version = V, schema = `${RELEASE}/schemas/common/location_${leaf}.json`) {
  return [{ version, spec: `${RELEASE}/specification/common/location/${leaf}`, schema }];
}

function profile(origin: string, version = V, extra: Record<string, unknown> = {}) {
  return {
    ucp: {
      version,
      services: {
        'dev.ucp.common': [
          {
            version,
            spec: `${RELEASE}/specification/overview`,
            transport: 'mcp',
            schema: `${RELEASE}/services/common/mcp.openrpc.json`,
            endpoint: `${origin}/ucp/mcp`,
          },
        ],
      },
      capabilities: {
        'dev.ucp.common.location.search': capability('search', version),
        'dev.ucp.common.location.lookup': capability('lookup', version),
      },
      payment_handlers: {},
      ...extra,
    },
  };
}

const GOOD_HEADERS = { 'cache-control': 'public, max-age=300', etag: '"v1"' };
const statusOf = (r: ConformanceReport, check: string) => r.results.filter((x) => x.check === check).map((x) => x.status);
const observed = (r: ConformanceReport, check: string) =>
  r.results.filter((x) => x.check === check).flatMap((x) => x.evidence.map((e) => e.observed ?? ''));

describe('profile checks on crafted profiles', () => {
  let server: TestServer;
  let origin: string;

  beforeAll(async () => {
    server = await startTestServer();
    origin = server.origin('127.0.0.1');
  });
  afterAll(async () => {
    await server.close();
  });

  it('names each defect under its own rule: R-D2, R-D4, R-D5, R-N1, R-N2', async () => {
    const doc = profile(origin);
    doc.ucp.services['dev.ucp.common'][0]!.endpoint = `${origin}/ucp/mcp/`;
    Object.assign(doc.ucp.capabilities, {
      'dev.ucp.common.location.search': capability('search', '2026-01-11'),
      'dev.ucp.common.location.lookup': capability('lookup', V, 'https://evil.example/schemas/location_lookup.json'),
      'com.example': [{ version: '1', spec: 'https://example.com/spec', schema: 'https://example.com/schema.json' }],
    });
    server.route('/.well-known/ucp', json(doc, { 'cache-control': 'private, max-age=30' }));
    const report = await runConformance({ businessUrl: origin, allowLoopback: true, only: ['R-D', 'R-N'] });

    expect(report.ok).toBe(false);
    expect(statusOf(report, 'discovery.cache-control')).toEqual(['fail']);
    expect(observed(report, 'discovery.cache-control').join(' ')).toMatch(/private/);
    expect(observed(report, 'discovery.cache-control').join(' ')).toMatch(/max-age=30/);
    expect(statusOf(report, 'discovery.validator')).toEqual(['fail']);
    expect(statusOf(report, 'discovery.services')).toEqual(['fail']);
    expect(observed(report, 'discovery.services')).toEqual([expect.stringMatching(/ends with a slash/)]);
    expect(statusOf(report, 'discovery.entity-versions')).toEqual(['fail']);
    expect(observed(report, 'discovery.entity-versions')).toEqual([
      expect.stringMatching(/dev\.ucp\.common\.location\.search\/0 declares "2026-01-11"/),
    ]);
    expect(statusOf(report, 'naming.authority-binding')).toEqual(['fail']);
    expect(observed(report, 'naming.authority-binding')).toEqual([
      expect.stringMatching(/location\.lookup\/0 schema https:\/\/evil\.example/),
    ]);
    expect(statusOf(report, 'naming.reverse-domain')).toEqual(['fail']);
    expect(observed(report, 'naming.reverse-domain')).toEqual([expect.stringMatching(/com\.example/)]);
    // The envelope itself is fine: R-D1 holds.
    expect(statusOf(report, 'discovery.profile-valid')).toEqual(['pass']);
  });

  it('reports a profile missing payment_handlers and a wrong version under R-D1 with the pointer', async () => {
    const doc = profile(origin, '2026-01-11') as { ucp: Record<string, unknown> };
    delete doc.ucp['payment_handlers'];
    server.route('/.well-known/ucp', json(doc, GOOD_HEADERS));
    const report = await runConformance({ businessUrl: origin, allowLoopback: true, only: ['R-D1'] });
    expect(statusOf(report, 'discovery.profile-valid')).toEqual(['fail']);
    expect(observed(report, 'discovery.profile-valid').join(' ')).toMatch(/\/ucp\/payment_handlers/);
    expect(statusOf(report, 'discovery.version')).toEqual(['fail']);
  });

  it('follows supported_versions to the 2026-08-25 leaf and uses its endpoints (R-D6)', async () => {
    const leafUrl = `${origin}/ucp/profiles/${V}.json`;
    server.route('/.well-known/ucp', json(profile(origin, '2027-03-01', { supported_versions: { [V]: leafUrl } }), GOOD_HEADERS));
    server.route(`/ucp/profiles/${V}.json`, json(profile(origin), GOOD_HEADERS));
    const report = await runConformance({ businessUrl: origin, allowLoopback: true, only: ['R-D', 'R-N'] });
    expect(report.results.filter((r) => r.status === 'fail')).toEqual([]);
    expect(statusOf(report, 'discovery.supported-versions')).toEqual(['pass']);
    expect(report.results.find((r) => r.check === 'discovery.version')?.detail).toMatch(/supported_versions/);
  });

  it('fails R-D6 when the leaf declares another release', async () => {
    const leafUrl = `${origin}/ucp/profiles/${V}.json`;
    server.route('/.well-known/ucp', json(profile(origin, '2027-03-01', { supported_versions: { [V]: leafUrl } }), GOOD_HEADERS));
    server.route(`/ucp/profiles/${V}.json`, json(profile(origin, '2026-09-01'), GOOD_HEADERS));
    const report = await runConformance({ businessUrl: origin, allowLoopback: true, only: ['R-D6'] });
    expect(statusOf(report, 'discovery.supported-versions')).toEqual(['fail']);
    expect(observed(report, 'discovery.supported-versions').join(' ')).toMatch(/2026-09-01/);
  });
});

describe('profile served over https', () => {
  let pki: TestPki;
  let server: TestServer;

  beforeAll(async () => {
    pki = createTestPki();
    server = await startTestServer({ tls: pki.issue(['business.test']) });
  });
  afterAll(async () => {
    await server.close();
    pki.dispose();
  });

  it('passes every R-D5 hosting rule, https included', async () => {
    const origin = server.origin('business.test');
    server.route('/.well-known/ucp', json(profile(origin), GOOD_HEADERS));
    const report = await runConformance({
      businessUrl: origin,
      // business.test is mapped to this machine; loopback must be allowed to reach it.
      allowLoopback: true,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      ca: pki.ca,
      only: ['R-D5'],
    });
    expect(report.results.map((r) => `${r.check}:${r.status}`)).toEqual([
      'discovery.https:pass',
      'discovery.no-redirect:pass',
      'discovery.cache-control:pass',
      'discovery.validator:pass',
    ]);
  });
});
