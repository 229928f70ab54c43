/**
 * A throw-away HTTP server on 127.0.0.1 (a free port) that publishes Platform profiles for local
 * work: the CLI's `--serve-profile <file>` and the conformance checker's own profiles. A Business
 * running locally with loopback profiles allowed can fetch them.
 *
 * Documents are served the way R-D5 asks of any profile, so the Business's cache behaves as in
 * production: `cache-control: public, max-age=…`, a strong ETag answered with 304 on
 * `If-None-Match`, never a redirect. Only GET and HEAD of a published path succeed; anything else
 * is a 404. Plain http is deliberate: the server only ever listens on loopback.
 *
 * Not part of the SDK's public surface (client/index.ts): it is Node-only tooling.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackProfileServer {
  /** `http://127.0.0.1:<port>`; a document's URL is this origin followed by its path. */
  origin: string;
  /** GET/HEAD requests received for a published path so far (query strings ignored), 304s included. */
  requests(path: string): number;
  close(): Promise<void>;
}

export interface LoopbackProfileOptions {
  /** `max-age` of the cache-control header, seconds. */
  maxAgeSeconds: number;
  /** A different `max-age` for some paths (e.g. 0, to see whether a Business applies a TTL floor). */
  maxAgeByPath?: ReadonlyMap<string, number>;
}

/** Serves each document (a JSON value, by absolute path such as `/platform.json`) until `close`. */
export async function serveProfilesOnLoopback(
  documents: ReadonlyMap<string, unknown>,
  options: LoopbackProfileOptions,
): Promise<LoopbackProfileServer> {
  const published = new Map<string, { body: Buffer; etag: string; cacheControl: string; requests: number }>();
  for (const [path, document] of documents) {
    const body = Buffer.from(JSON.stringify(document));
    const maxAge = options.maxAgeByPath?.get(path) ?? options.maxAgeSeconds;
    published.set(path, {
      body,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      cacheControl: `public, max-age=${maxAge}`,
      requests: 0,
    });
  }
  const server = createServer((req, res) => {
    const entry = published.get((req.url ?? '/').split('?')[0] ?? '/');
    if (entry === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    entry.requests += 1;
    const headers = { 'content-type': 'application/json', 'cache-control': entry.cacheControl, etag: entry.etag };
    if (req.headers['if-none-match'] === entry.etag) {
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(200, { ...headers, 'content-length': String(entry.body.length) }).end(req.method === 'HEAD' ? undefined : entry.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests: (path) => published.get(path)?.requests ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
