/**
 * `serve --metrics-port`: the Prometheus exposition at `/metrics`, plain HTTP on its own port.
 * It has no Host guard and no token, like most exporters: bind it where only the scraper reaches
 * (the default `--host` is loopback), never on a public interface.
 */
import { createServer } from 'node:http';
import { ConfigError } from '../errors.js';
import { errorCodeOf } from '../protocol/error-code.js';
import { listeningPort } from '../protocol/guards.js';
import type { ServerMetrics } from './registry.js';

export const METRICS_PATH = '/metrics';

export interface MetricsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(metrics: ServerMetrics, at: { host: string; port: number }): Promise<MetricsServer> {
  const server = createServer({ requestTimeout: 10_000, headersTimeout: 5_000, keepAliveTimeout: 5_000 }, (req, res) => {
    req.resume();
    const path = (req.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`Only GET ${METRICS_PATH} is served here.\n`);
      return;
    }
    metrics.exposition().then(
      ({ contentType, text }) => {
        res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(text) });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(`Collecting metrics failed: ${err instanceof Error ? err.message : String(err)}\n`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => {
      const code = errorCodeOf(err);
      reject(
        code === 'EADDRINUSE'
          ? new ConfigError(`--metrics-port ${at.port} on ${at.host} is already in use; choose another (0 picks a free one).`, {
              cause: err,
            })
          : err,
      );
    });
    server.listen(at.port, at.host, () => resolve());
  });
  const port = listeningPort(server.address());
  return {
    url: `http://${at.host.includes(':') ? `[${at.host}]` : at.host}:${port}${METRICS_PATH}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
