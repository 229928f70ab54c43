/**
 * Child process for the end-to-end benchmark: either our business server over an SQLite store
 * (`mcp`), or a bare node:http server (`direct`) that answers the same JSON-RPC body by calling
 * the same in-process service over the same store (memory index included) and sends the UCP
 * payload once — no MCP, no validation, no negotiation: the floor a transport could reach. Runs in its own process so the load generator (autocannon, in the parent) does not share
 * its event loop.
 *
 * Protocol with the parent, one JSON object per stdout line prefixed `BENCH `:
 *   {"url": "http://127.0.0.1:<port>"}   once listening
 *   {"maxRssKiB": n}                      after SIGTERM, just before exiting
 *
 *   node --import tsx bench/e2e-server.ts mcp <store.db>
 *   node --import tsx bench/e2e-server.ts direct <store.db>
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CONFIG, type ServerConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import type { SearchRequest } from '../src/domain/requests.js';
import { LocationService } from '../src/service.js';
import { IndexedLocationStore } from '../src/store/memory-index/index.js';
import { SqliteLocationStore } from '../src/store/sqlite/index.js';
import { BENCH_CURSOR_SECRET } from './lib/contenders/engine.js';
import { BENCH_PLATFORM_URL, benchPlatformProfile } from './lib/platform.js';

function say(value: unknown): void {
  process.stdout.write(`BENCH ${JSON.stringify(value)}\n`);
}

/** Same server timeouts as src/transport/http.ts, so both stacks differ only in what they do per request. */
async function directServer(db: string): Promise<{ url: string; close(): Promise<void> }> {
  const store = await IndexedLocationStore.open(await SqliteLocationStore.open(db, { readonly: true }));
  const service = new LocationService(store, { cursorSecret: BENCH_CURSOR_SECRET });
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 5_000 });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        let body: string;
        try {
          const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            id?: unknown;
            params?: { arguments?: { location?: SearchRequest } };
          };
          const result = await service.search(message.params?.arguments?.location ?? {});
          body = JSON.stringify({ jsonrpc: '2.0', id: message.id ?? null, result });
        } catch (error) {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32602, message: String(error) } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      })();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => void store.close().then(() => done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}

async function main(): Promise<void> {
  const [mode, db] = process.argv.slice(2);
  let running: { url: string; close(): Promise<void> };
  if (mode === 'direct' && db !== undefined) {
    running = await directServer(db);
  } else if (mode === 'mcp' && db !== undefined) {
    const config: ServerConfig = {
      ...DEFAULT_CONFIG,
      logLevel: 'silent',
      cursorSecret: BENCH_CURSOR_SECRET,
      trustedPlatforms: { [BENCH_PLATFORM_URL]: benchPlatformProfile() },
      // Measuring throughput, not the abuse budgets (which would answer 429).
      rateLimits: { ...DEFAULT_CONFIG.rateLimits, enabled: false },
    };
    const server = await startServer({ host: '127.0.0.1', port: 0, db, config, shutdownGraceMs: 1000 });
    running = { url: server.url, close: () => server.close() };
  } else {
    process.stderr.write('usage: e2e-server.ts mcp <store.db> | direct <store.db>\n');
    process.exit(2);
  }
  process.once('SIGTERM', () => {
    void running.close().finally(() => {
      say({ maxRssKiB: process.resourceUsage().maxRSS });
      process.exit(0);
    });
  });
  say({ url: running.url });
}

main().catch((error: unknown) => {
  process.stderr.write(`e2e server failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
