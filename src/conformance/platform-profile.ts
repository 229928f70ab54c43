/**
 * The Platform profiles the checker presents (`--serve-profile`), built by the SDK's
 * `buildPlatformProfile`: one offering both Location capabilities, one offering search only (for the
 * `capabilities_incompatible` probe). Served from 127.0.0.1 with the hosting a Business expects
 * (R-D5: public, max-age, ETag), so a Business that allows loopback profiles can fetch them.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildPlatformProfile } from '../client/platform-profile.js';
import { SEARCH_CAPABILITY, type UcpProfile } from '../protocol/types.js';

export interface ServedProfiles {
  /** Profile offering search and lookup. */
  url: string;
  profile: UcpProfile;
  /** Profile offering search only. */
  searchOnlyUrl: string;
  close(): Promise<void>;
}

/** Serves both profiles on 127.0.0.1 (a free port) until `close`. */
export async function serveProfiles(): Promise<ServedProfiles> {
  const full = buildPlatformProfile();
  const documents = new Map<string, Buffer>([
    ['/platform.json', Buffer.from(JSON.stringify(full))],
    ['/platform-search-only.json', Buffer.from(JSON.stringify(buildPlatformProfile({ capabilities: [SEARCH_CAPABILITY] })))],
  ]);
  const server: Server = createServer((req, res) => {
    const body = documents.get((req.url ?? '/').split('?')[0] ?? '/');
    if (body === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag, 'cache-control': 'public, max-age=300' }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, etag, 'cache-control': 'public, max-age=300' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/platform.json`,
    profile: full,
    searchOnlyUrl: `http://127.0.0.1:${port}/platform-search-only.json`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
