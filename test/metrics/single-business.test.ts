/**
 * `/metrics` without tenants: a single-business server (in-process) reports under
 * `tenant="default"`, and the metrics endpoint (a real loopback socket) serves only `/metrics`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging.js';
import { ServerMetrics, SINGLE_TENANT, startMetricsServer } from '../../src/metrics/index.js';
import type { MetricsServer } from '../../src/metrics/index.js';
import { DEMO_PLATFORM_PROFILE_URL } from '../../src/server.js';
import type { RunningServer } from '../../src/server.js';
import { postJson, rawRequest } from '../../src/transport/test-support/raw-http.js';
import { startInProcessServer } from '../support/in-process-server.js';

let metrics: ServerMetrics;
let server: RunningServer;
let endpoint: MetricsServer;

beforeAll(async () => {
  metrics = new ServerMetrics();
  server = await startInProcessServer({
    logger: createLogger({ level: 'silent' }),
    instruments: metrics.forTenant(SINGLE_TENANT),
    now: () => Date.parse('2026-12-01T12:00:00Z'),
  });
  endpoint = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await server?.close();
  await endpoint?.close();
});

describe('metrics of a single business', () => {
  it('counts operations by outcome and error code under tenant="default"', async () => {
    const agent = { 'ucp-agent': `profile="${DEMO_PLATFORM_PROFILE_URL}"` };
    expect((await postJson(`${server.url}/ucp/locations/search`, { query: 'coffee' }, agent)).status).toBe(200);
    expect((await postJson(`${server.url}/ucp/locations/search`, { pagination: { cursor: 'forged' } }, agent)).status).toBe(400);
    const res = await rawRequest(endpoint.url);
    expect(res.status).toBe(200);
    expect(res.text).toContain('ucp_requests_total{tenant="default",operation="search",binding="rest",outcome="success"} 1');
    expect(res.text).toContain('ucp_errors_total{tenant="default",operation="search",binding="rest",code="invalid_cursor"} 1');
    expect(res.text).toContain('ucp_store_up{tenant="default"} 1');
    expect(res.text).toMatch(/^ucp_index_loads_total\{tenant="default"\} 1$/m);
    expect(res.text).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('serves nothing but GET /metrics', async () => {
    const other = await rawRequest(endpoint.url.replace('/metrics', '/'));
    expect(other.status).toBe(404);
    const posted = await rawRequest(endpoint.url, { method: 'POST' });
    expect(posted.status).toBe(404);
  });
});
