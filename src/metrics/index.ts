/** The metrics face: the registry the servers report into, and the HTTP endpoint that exposes it. */
export { ServerMetrics, SINGLE_TENANT } from './registry.js';
export { METRICS_PATH, startMetricsServer } from './http.js';
export type { MetricsServer } from './http.js';
