/**
 * The operator console's HTTP host: it serves the bundled single-page app (assets.ts) and the JSON
 * API of routes.ts, built on the same service the MCP tool and REST route call, in-process.
 *
 * Requests that change or reveal state are guarded three ways: the token (off loopback), the Host
 * header (on loopback, against DNS rebinding: the HTTP kit's guard), and a custom header on every
 * API call, which a cross-site form or image cannot send. What a route throws is answered through
 * the HTTP kit's failure table: a refusal with its own text, anything unexpected as a 500 that
 * names where it was logged and nothing of the error itself.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ConfigError } from '../errors.js';
import { closeAfterAnswer } from '../http-kit/body.js';
import { failureOf, HttpError } from '../http-kit/failures.js';
import { HostGuard, loopbackHosts } from '../http-kit/host-guard.js';
import { hostForUrl, isLoopbackHost } from '../http-kit/loopback.js';
import { writeJson } from '../http-kit/respond.js';
import { createLogger, type Logger } from '../logging.js';
import { listeningPort } from '../protocol/guards.js';
import { LocationService } from '../service.js';
import type { LocationStore } from '../store/store.js';
import { checkAccessSettings, presentedToken, TOKEN_COOKIE, tokenMatches } from './access.js';
import { ASSETS, assetType, contentSecurityPolicy, findAssets } from './assets.js';
import { DatasetCache } from './dataset.js';
import { ImportPreviews } from './import-preview.js';
import { consoleRoutes, type ApiRoute } from './routes.js';

export const DEFAULT_CONSOLE_HOST = '127.0.0.1';
export const DEFAULT_CONSOLE_PORT = 8788;
/** Header every API call must carry (see the module comment). */
export const API_HEADER = 'x-ucp-console';

export interface ConsoleOptions {
  store: LocationStore;
  host?: string;
  /** 0 = any free port. */
  port?: number;
  /** Required when `host` is not loopback. */
  token?: string;
  /** Optional XYZ tile URL template (`https://…/{z}/{x}/{y}.png`) for an online basemap; off by default. */
  tileUrl?: string;
  /** Where the built app lives; default: next to this module, else dist/console/web of the checkout. */
  assetsDir?: string;
  /** The clock (epoch ms), for the hours page's "now". */
  now?: () => number;
  /** Where unexpected failures are logged (with the reference their 500 names); default stderr. */
  logger?: Logger;
}

export interface RunningConsole {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The console's JSON answers are never cached: they show the dataset as it is now. */
const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };

export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const host = options.host ?? DEFAULT_CONSOLE_HOST;
  const token = options.token;
  checkAccessSettings(host, token);
  if (options.tileUrl !== undefined && !/^https?:\/\/.+\{z\}.*\{x\}.*\{y\}/.test(options.tileUrl)) {
    throw new ConfigError(
      `--tile-url must be an http(s) URL template with {z}, {x} and {y}, e.g. https://tile.example.org/{z}/{x}/{y}.png; got ${options.tileUrl}`,
    );
  }
  const store = options.store;
  // Cursors issued here are only ever read back here: a per-process secret is enough.
  const service = new LocationService(store, { cursorSecret: randomBytes(32).toString('hex') });
  const now = options.now ?? Date.now;
  const imports = new ImportPreviews(store, now);
  const routes = consoleRoutes({
    store,
    service,
    datasets: new DatasetCache(service),
    imports,
    now,
    tileUrl: options.tileUrl,
  });
  const logger = options.logger ?? createLogger({ destination: 'stderr' });
  const consoleHost = new ConsoleHost(routes, {
    token,
    tileUrl: options.tileUrl,
    assetsDir: options.assetsDir,
    logger,
  });

  const server: Server = createServer((req, res) => void consoleHost.serve(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_CONSOLE_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = listeningPort(server.address());
  // On loopback without a token, only this machine's own names may reach the console.
  if (isLoopbackHost(host) && token === undefined) consoleHost.guard = new HostGuard({ hosts: loopbackHosts(port, host) });
  return {
    url: `http://${hostForUrl(host)}:${port}/`,
    port,
    close: async () => {
      imports.discard();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Who is asking, which route answers, and how a failure is written: everything but the routes. */
class ConsoleHost {
  /** The DNS-rebinding guard, set once the port is known; none off loopback (the token guards there). */
  guard: HostGuard | undefined;
  readonly #csp: string;
  #assetsDir: string | undefined;

  constructor(
    private readonly routes: Readonly<Record<string, ApiRoute>>,
    private readonly settings: { token: string | undefined; tileUrl: string | undefined; assetsDir: string | undefined; logger: Logger },
  ) {
    this.#csp = contentSecurityPolicy(settings.tileUrl);
  }

  async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.#handle(req, res);
    } catch (error) {
      this.#fail(res, error);
    }
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    const refusal = this.guard?.check(req.headers);
    if (refusal !== undefined) throw new HttpError(403, `This console answers only to a loopback Host. ${refusal}`);
    const token = this.settings.token;
    if (token !== undefined && !tokenMatches(token, presentedToken(req, url))) {
      throw new HttpError(
        401,
        `The console needs its token: open ${url.pathname}?token=<token> once (it is then kept in a cookie), or send Authorization: Bearer <token>.`,
      );
    }
    if (url.pathname.startsWith('/api/')) {
      if (req.headers[API_HEADER] !== '1') throw new HttpError(403, `Console API calls must carry the header ${API_HEADER}: 1.`);
      const key = `${req.method ?? 'GET'} ${url.pathname}`;
      const route = Object.hasOwn(this.routes, key) ? this.routes[key] : undefined;
      if (route === undefined) throw new HttpError(404, `No console API ${key}; see docs/console.md.`);
      writeJson(res, 200, await route(req, url), JSON_HEADERS);
      return;
    }
    this.#page(req, res, url);
  }

  /** A file of the web app; with `?token=`, first a redirect that keeps the token in a cookie. */
  #page(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const asset = ASSETS[url.pathname];
    if (asset === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) throw new HttpError(404, 'Not found.');
    const token = this.settings.token;
    if (token !== undefined && url.searchParams.has('token')) {
      // Keep the token in a cookie and drop it from the address bar (and from history).
      res.writeHead(303, {
        location: url.pathname,
        'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`,
      });
      res.end();
      return;
    }
    // Looked up at the first page request, so the API works (and is tested) without a built app.
    const dir = (this.#assetsDir ??= this.#findAssets());
    res.writeHead(200, { 'content-type': assetType(asset), 'cache-control': 'no-cache', 'content-security-policy': this.#csp });
    res.end(req.method === 'HEAD' ? undefined : readFileSync(`${dir}/${asset}`));
  }

  /** The app's folder; not built yet is the operator's to fix, so the answer says how. */
  #findAssets(): string {
    try {
      return findAssets(this.settings.assetsDir);
    } catch (error) {
      if (error instanceof ConfigError) throw new HttpError(503, error.message, { code: 'app_not_built', cause: error });
      throw error;
    }
  }

  /** The HTTP kit's answer for a failure, as `{error: {code, message, …details}}`. */
  #fail(res: ServerResponse, error: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const reference = randomUUID();
    const failure = failureOf(error, reference);
    if (failure.unexpected) {
      this.settings.logger.error({ err: error, requestId: reference }, 'console request failed');
      res.setHeader('Request-Id', reference);
    }
    if (failure.status === 413) closeAfterAnswer(res);
    if (failure.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(failure.retryAfterSeconds));
    writeJson(res, failure.status, { error: { code: failure.code, message: failure.message, ...failure.details } }, JSON_HEADERS);
  }
}
