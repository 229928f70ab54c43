/**
 * `--serve-profile <file>`: publishes a Platform profile on 127.0.0.1 (random port) for the
 * duration of one command, so a Business running locally with `--allow-loopback-profiles` can
 * fetch it. Served the way R-D5 asks of any profile (cacheable, with a validator, no redirect),
 * so the Business's cache works as in production.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../../errors.js';

export const SERVED_PROFILE_PATH = '/platform-profile.json';

export interface ServedProfile {
  /** `http://127.0.0.1:<port>/platform-profile.json` */
  url: string;
  /** The parsed document (handed to the SDK so it is not fetched back). */
  document: unknown;
  close(): Promise<void>;
}

/** Reads and parses `file`, then serves it; ConfigError when the file is unreadable or not JSON. */
export async function serveProfileFile(file: string): Promise<ServedProfile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    throw new ConfigError(`--serve-profile: cannot read ${file} (${code === 'ENOENT' ? 'no such file' : String(code ?? cause)}). Create one with: ucp-location platform-profile init --out ${file}`, { cause });
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`--serve-profile: ${file} is not valid JSON (${(cause as Error).message})`, { cause });
  }
  const body = Buffer.from(JSON.stringify(document));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== SERVED_PROFILE_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const headers = { 'content-type': 'application/json', 'cache-control': 'public, max-age=60', etag };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(200, { ...headers, 'content-length': String(body.length) }).end(req.method === 'HEAD' ? undefined : body);
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
    url: `http://127.0.0.1:${port}${SERVED_PROFILE_PATH}`,
    document,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
