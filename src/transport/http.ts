/**
 * The one HTTP server (node:http) of the business: routing, request ids, Host/Origin guard, CORS
 * and graceful shutdown. The bindings themselves live in mcp/ and rest/.
 *
 *   GET|HEAD  /.well-known/ucp          Business profile (R-D1, R-D5)
 *   POST      /ucp/mcp                  MCP, Streamable HTTP, stateless (R-M1, R-M2)
 *   POST      /ucp/locations/search     REST search
 *   POST      /ucp/locations/lookup     REST lookup
 *   GET|HEAD  /healthz                  liveness: the process answers (never touches the store)
 *   GET|HEAD  /readyz                   readiness: the store is reachable and migrated (503 if not)
 *
 * Paths match exactly: a trailing slash is a 404, never a redirect (profiles and endpoints must
 * not redirect, R-D5, R-N3). The routes of a binding the Business does not offer (configuration key
 * `transports`) answer 404 with a message naming the binding to use.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BindingName, CorsConfig } from '../config.js';
import { ForbiddenError } from '../errors.js';
import { withRequestId } from '../logging.js';
import type { Logger } from '../logging.js';
import { MCP_PATH, PROFILE_PATH, REST_LOOKUP_PATH, REST_SEARCH_PATH } from './business-profile.js';
import type { LocationCapability } from './business-profile.js';
import { CAPABILITY_OF } from './operations.js';
import type { McpHttpEndpoint } from './mcp/http.js';
import type { PreparedProfile } from './profile-endpoint.js';
import { serveProfile } from './profile-endpoint.js';
import { RequestTurns } from './request-turns.js';
import type { RequestTurnsOptions } from './request-turns.js';
import { restError, toRestError } from './rest/errors.js';
import type { RestEndpoint } from './rest/routes.js';
import type { RequestLimiter } from './rate-limits.js';
import { clientKey } from './client-key.js';
import { RateLimitedError } from '../errors.js';
import { HostGuard, loopbackHosts, loopbackOrigins } from '../http-kit/host-guard.js';
import { internalErrorMessage } from '../http-kit/failures.js';
import { refuseJsonRpc } from '../http-kit/json-rpc.js';
import { isLoopbackHost } from '../http-kit/loopback.js';
import { writeJson } from '../http-kit/respond.js';

export interface HttpApp {
  profile: PreparedProfile;
  mcp: McpHttpEndpoint;
  rest: RestEndpoint;
  logger: Logger;
  cors: CorsConfig;
  /** Public base URL (origin) written into the profile; its host is always an accepted Host. */
  baseUrl: string;
  /** Advertised capabilities: the REST route of an unadvertised one is a 404 (R-D3). */
  capabilities: readonly LocationCapability[];
  /** Offered bindings (configuration key `transports`): the routes of the other answer 404. Default both. */
  transports?: readonly BindingName[];
  /** Readiness check behind `/readyz`; without one the server is ready once it listens. */
  readiness?: ReadinessProbe;
  /** Charges each binding request to its client address before the body is read; default none. */
  limiter?: RequestLimiter;
  /** Signs the answers of the binding paths (answer-signing.ts), refusals included; absent: unsigned. */
  signAnswer?: (path: string, res: ServerResponse) => void;
}

/** Outcome of a readiness check: `reason` is a short public word, `detail` goes to the log only. */
export interface Readiness {
  ready: boolean;
  /** e.g. 'ok', 'unreachable', 'schema', 'error' — safe to show (no host names). */
  reason: string;
  detail?: string;
}

export type ReadinessProbe = () => Promise<Readiness>;

/** Seconds suggested in Retry-After while not ready. */
const NOT_READY_RETRY_SECONDS = 5;

export interface ListenOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** How long in-flight requests may take to finish on close, ms. */
  shutdownGraceMs?: number;
}

/** Probe paths for process managers and orchestrators (Kubernetes liveness/readiness). */
export const HEALTHZ_PATH = '/healthz';
export const READYZ_PATH = '/readyz';

const ALLOWED_HEADERS = 'Content-Type, Accept, UCP-Agent, Request-Id, Idempotency-Key, Mcp-Protocol-Version, Mcp-Session-Id';
const EXPOSED_HEADERS = 'Request-Id, Retry-After, ETag';
/** Longest client-supplied Request-Id we echo; longer or odd ones are replaced by a UUID. */
const REQUEST_ID = /^[\x21-\x7e]{1,200}$/;

/** What counts as loopback is the HTTP kit's, shared with the console and the agent bridge. */
export { isLoopbackHost };

/**
 * The DNS-rebinding guard of a server bound to loopback: only its own names pass (127.0.0.1,
 * localhost, [::1] and the bound address on its port, and the host of its public base URL), and
 * only their origins plus the configured CORS origins may post to it.
 */
export function loopbackGuard(
  port: number,
  bindHost: string,
  baseUrl: string,
  extraOrigins: readonly string[],
  hostNames: readonly string[] = [],
): HostGuard {
  const base = new URL(baseUrl);
  // A tenant's domain (behind `serve --tenants`) is admitted on any port, and pages on it may call us.
  const names = hostNames.map((n) => n.toLowerCase());
  return new HostGuard({
    hosts: [...loopbackHosts(port, bindHost), base.host, ...names],
    origins: [
      ...loopbackOrigins(port, bindHost),
      base.origin,
      ...extraOrigins,
      ...names.flatMap((n) => [`https://${n}`, `http://${n}`, `http://${n}:${port}`]),
    ],
  });
}

/**
 * How a server is hosted when it is one of several behind a router in the same process
 * (`serve --tenants`): the router has matched the Host already, and these replace what a
 * stand-alone server works out from its socket.
 */
export interface Hosting {
  /** Host names the DNS-rebinding guard admits at any port, besides its own. */
  hostNames: readonly string[];
  /** The client address budgets are charged to (e.g. from X-Forwarded-For); default the socket peer. */
  clientAddress?: (req: IncomingMessage) => string | undefined;
  /** One queue of turns shared by every server of the process, so its bound holds for them all. */
  turns?: RequestTurns;
}

export class UcpHttpServer {
  #server: Server | undefined;
  #guard: HostGuard | undefined;
  #inFlight = 0;
  #closing = false;
  readonly #turns: RequestTurns;
  #clientAddress: ((req: IncomingMessage) => string | undefined) | undefined;

  constructor(options: { turns?: Partial<RequestTurnsOptions> | RequestTurns } = {}) {
    this.#turns = options.turns instanceof RequestTurns ? options.turns : new RequestTurns(options.turns);
  }

  /**
   * Binds, then builds the app from the bound address (the base URL, and so the profile, may
   * depend on the port when 0 was asked) before the first request can be read.
   */
  async listen(options: ListenOptions, makeApp: (address: AddressInfo) => HttpApp): Promise<AddressInfo> {
    const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 5_000 });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    let listener: RequestListener;
    try {
      listener = this.attach({ host: options.host, port: address.port }, () => makeApp(address));
    } catch (error) {
      // The port is bound already: release it, or a failed start leaves a server that answers nothing.
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw error;
    }
    this.#server = server;
    server.on('request', listener);
    return address;
  }

  /**
   * The request listener `listen()` installs, for an app served at `host:port`, without binding
   * anything: tests drive the whole HTTP layer in-process through it (an injected request and
   * response, no socket), and `listen()` hands the same listener to node:http.
   */
  attach(at: { host: string; port: number; hosting?: Hosting }, makeApp: () => HttpApp): RequestListener {
    const app = makeApp();
    if (isLoopbackHost(at.host)) {
      const corsOrigins = app.cors.origins === '*' ? [] : app.cors.origins;
      this.#guard = loopbackGuard(at.port, at.host, app.baseUrl, corsOrigins, at.hosting?.hostNames);
    }
    this.#clientAddress = at.hosting?.clientAddress;
    return (req: IncomingMessage, res: ServerResponse) => {
      this.#inFlight++;
      res.once('close', () => {
        this.#inFlight--;
        // While closing, a connection whose last answer just went out would otherwise idle until
        // keepAliveTimeout (5 s) before close() can resolve.
        if (this.#closing) setImmediate(() => this.#server?.closeIdleConnections());
      });
      // The id is chosen here, not in #handle, so that even this last-resort path logs it.
      const requestId = pickRequestId(req.headers['request-id']);
      // The request's scope exists for log lines; a silent logger writes none, and the scope's
      // async hooks cost something on every promise of the request (Node 20), so it is skipped.
      const handled = app.logger.isLevelEnabled('fatal')
        ? withRequestId(requestId, () => this.#handle(app, req, res, requestId))
        : this.#handle(app, req, res, requestId);
      handled.catch((err: unknown) => {
        app.logger.error({ requestId, err }, 'unhandled error in request handler');
        if (res.headersSent) {
          res.destroy(); // half an answer is already out: only closing tells the client it is incomplete
          return;
        }
        req.resume();
        // On /ucp/mcp even this answer is JSON-RPC: MCP clients parse nothing else.
        if (req.url?.split('?')[0] === MCP_PATH) {
          writeJson(res, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: `Internal error (Request-Id ${requestId}).` } });
        } else {
          writeJson(res, 500, restError(500, 'internal_error', internalErrorMessage(requestId), 'unrecoverable').body);
        }
      });
    };
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Graceful stop: refuse new connections, let in-flight requests finish (idle keep-alive
   * connections are closed at once), force-close whatever is left after the grace period.
   */
  async close(graceMs = 10_000): Promise<void> {
    const server = this.#server;
    if (server === undefined || this.#closing) return;
    this.#closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    await closed;
    clearTimeout(timer);
  }

  /** Last readiness reason logged, so a flapping probe logs changes only. */
  #readyReason: string | undefined;

  /**
   * `/healthz` answers from the process alone (a dead database must not get the process
   * restarted); `/readyz` asks the store, and answers 503 with Retry-After while it is not ready.
   * Neither body names hosts or versions; Node sends no body for HEAD.
   */
  async #health(app: HttpApp, kind: 'healthz' | 'readyz', res: ServerResponse): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    if (kind === 'healthz') {
      writeJson(res, 200, { status: 'ok' });
      return;
    }
    let r: Readiness;
    try {
      r = app.readiness === undefined ? { ready: true, reason: 'ok' } : await app.readiness();
    } catch (err) {
      r = { ready: false, reason: 'error', detail: err instanceof Error ? err.message : String(err) };
    }
    if (r.reason !== this.#readyReason) {
      if (r.ready) app.logger.info({ reason: r.reason }, 'ready: the store is reachable and migrated');
      else app.logger.warn({ reason: r.reason, detail: r.detail }, 'not ready');
      this.#readyReason = r.reason;
    }
    if (!r.ready) res.setHeader('Retry-After', String(NOT_READY_RETRY_SECONDS));
    writeJson(res, r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not_ready', store: r.reason });
  }

  async #handle(app: HttpApp, req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    res.setHeader('Request-Id', requestId);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const method = req.method ?? 'GET';
    // First, so every answer on a binding path goes out signed, the guard's refusals included.
    app.signAnswer?.(path, res);
    app.logger.debug({ requestId, method, path }, 'http request');

    const refusal = this.#guard?.check(req.headers);
    if (refusal !== undefined) {
      app.logger.warn({ requestId, host: req.headers.host, origin: req.headers.origin }, 'refused by Host/Origin guard');
      if (path === MCP_PATH) await refuseJsonRpc(req, res, 403, { code: -32000, message: `Forbidden: ${refusal}` });
      else {
        req.resume();
        writeRest(res, toRestError(new ForbiddenError(refusal), requestId));
      }
      return;
    }
    applyCors(req, res, app.cors);

    const route = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
    const transports = app.transports ?? BINDINGS;
    const binding = route === undefined ? undefined : bindingOf(route.kind);
    if (binding !== undefined && !transports.includes(binding)) {
      const message = bindingOffMessage(binding, app);
      if (binding === 'mcp') await refuseJsonRpc(req, res, 404, { code: -32000, message });
      else {
        req.resume();
        writeRest(res, restError(404, 'not_found', message, 'unrecoverable'));
      }
      return;
    }
    if (
      route === undefined ||
      ((route.kind === 'search' || route.kind === 'lookup') && !app.capabilities.includes(CAPABILITY_OF[route.kind]))
    ) {
      req.resume();
      writeRest(
        res,
        restError(404, 'not_found', `No resource at ${path}. UCP endpoints: ${endpointsOf(app).join(', ')}.`, 'unrecoverable'),
      );
      return;
    }
    if (method === 'OPTIONS') {
      req.resume();
      res.statusCode = 204;
      res.setHeader('Allow', [...route.methods, 'OPTIONS'].join(', '));
      res.end();
      return;
    }
    if (!route.methods.includes(method)) {
      req.resume();
      res.setHeader('Allow', [...route.methods, 'OPTIONS'].join(', '));
      const message = `Method ${method} is not allowed on ${path}; use ${route.methods.join(' or ')}.`;
      if (route.kind === 'mcp') writeJson(res, 405, { jsonrpc: '2.0', id: null, error: { code: -32000, message } });
      else writeRest(res, restError(405, 'method_not_allowed', message, 'unrecoverable'));
      return;
    }
    // Budgets are kept per peer: an IPv4 address or an IPv6 /64 (client-key.ts).
    const clientIp = clientKey(this.#clientAddress?.(req) ?? req.socket.remoteAddress);
    switch (route.kind) {
      case 'healthz':
      case 'readyz':
        req.resume();
        await this.#health(app, route.kind, res);
        return;
      case 'profile':
        serveProfile(req, res, app.profile);
        return;
      case 'mcp':
      case 'search':
      case 'lookup':
        // The cheapest refusal first: before the body is read, parsed or validated, and before
        // any profile fetch, so invalid requests are paid for by whoever sends them.
        if (!(await this.#chargeClient(app, req, res, route.kind, clientIp, requestId))) return;
        if (!(await this.#turns.turn())) {
          await this.#shed(app, req, res, route.kind, requestId);
          return;
        }
        // The client gave up while the request waited: nobody would read the answer.
        if (req.socket.destroyed) return;
        if (route.kind === 'mcp') await app.mcp.handle(req, res, { requestId, clientIp });
        else await app.rest.handle(req, res, route.kind, { requestId, clientIp });
        return;
    }
  }

  /** Charges one request to the client address; answers 429 in the binding's shape when spent. */
  async #chargeClient(
    app: HttpApp,
    req: IncomingMessage,
    res: ServerResponse,
    kind: 'mcp' | 'search' | 'lookup',
    clientIp: string | undefined,
    requestId: string,
  ): Promise<boolean> {
    if (app.limiter === undefined) return true;
    try {
      await app.limiter.admitClient(clientIp);
      return true;
    } catch (err) {
      if (!(err instanceof RateLimitedError)) throw err;
      // debug, not info: a flood of refusals must not turn into a flood of log lines.
      app.logger.debug({ requestId, status: 429, binding: kind === 'mcp' ? 'mcp' : 'rest' }, 'refused before reading: client budget spent');
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
      if (kind === 'mcp') {
        await refuseJsonRpc(req, res, 429, { code: -32000, message: err.message, data: { retry_after: err.retryAfterSeconds } });
      } else {
        req.resume();
        writeRest(res, toRestError(err, requestId));
      }
      return false;
    }
  }

  /** When the last "shedding load" warning was logged (ms since epoch): one per interval is enough. */
  #lastShedWarning = 0;

  /** Answers 503 + Retry-After without doing the work: the turn queue is full. */
  async #shed(
    app: HttpApp,
    req: IncomingMessage,
    res: ServerResponse,
    kind: 'mcp' | 'search' | 'lookup',
    requestId: string,
  ): Promise<void> {
    const now = Date.now();
    if (now - this.#lastShedWarning >= SHED_WARNING_INTERVAL_MS) {
      this.#lastShedWarning = now;
      app.logger.warn({ requestId, queued: this.#turns.queued }, 'overloaded: request queue full, answering 503 with Retry-After');
    }
    const message = 'The server is overloaded; retry after the time given in Retry-After.';
    res.setHeader('Retry-After', String(SHED_RETRY_AFTER_SECONDS));
    if (kind === 'mcp') {
      await refuseJsonRpc(req, res, 503, { code: -32000, message, data: { retry_after: SHED_RETRY_AFTER_SECONDS } });
    } else {
      req.resume();
      writeJson(res, 503, restError(503, 'service_unavailable', message, 'recoverable').body);
    }
  }
}

/** Retry-After (s) when the request queue is full: the queue drains in well under a second. */
const SHED_RETRY_AFTER_SECONDS = 1;
const SHED_WARNING_INTERVAL_MS = 10_000;

type RouteKind = 'profile' | 'mcp' | 'search' | 'lookup' | 'healthz' | 'readyz';

const BINDINGS: readonly BindingName[] = ['mcp', 'rest'];

function bindingOf(kind: RouteKind): BindingName | undefined {
  if (kind === 'mcp') return 'mcp';
  return kind === 'search' || kind === 'lookup' ? 'rest' : undefined;
}

/** The endpoints this server really answers on, for 404 messages. */
function endpointsOf(app: HttpApp): string[] {
  const transports = app.transports ?? BINDINGS;
  const rest = [
    ...(app.capabilities.includes(CAPABILITY_OF.search) ? [REST_SEARCH_PATH] : []),
    ...(app.capabilities.includes(CAPABILITY_OF.lookup) ? [REST_LOOKUP_PATH] : []),
  ];
  return [PROFILE_PATH, ...(transports.includes('mcp') ? [MCP_PATH] : []), ...(transports.includes('rest') ? rest : [])];
}

/**
 * For a caller of a binding this Business does not offer: where to go instead (the profile says
 * the same), and for its operator, the configuration key that turns the binding on.
 */
function bindingOffMessage(binding: BindingName, app: HttpApp): string {
  const name = binding === 'mcp' ? 'MCP' : 'REST';
  const other = binding === 'mcp' ? `REST at ${endpointsOf(app).slice(1).join(' and ')}` : `MCP at ${MCP_PATH}`;
  return (
    `This business does not offer the ${name} binding; use ${other}, as ${PROFILE_PATH} advertises. ` +
    `(Operators: the configuration key "transports" lists the bindings offered.)`
  );
}

const ROUTES: Readonly<Record<string, { kind: RouteKind; methods: readonly string[] }>> = {
  [PROFILE_PATH]: { kind: 'profile', methods: ['GET', 'HEAD'] },
  // Stateless: no server-initiated stream to GET and no session to DELETE.
  [MCP_PATH]: { kind: 'mcp', methods: ['POST'] },
  [REST_SEARCH_PATH]: { kind: 'search', methods: ['POST'] },
  [REST_LOOKUP_PATH]: { kind: 'lookup', methods: ['POST'] },
  [HEALTHZ_PATH]: { kind: 'healthz', methods: ['GET', 'HEAD'] },
  [READYZ_PATH]: { kind: 'readyz', methods: ['GET', 'HEAD'] },
};

function writeRest(res: ServerResponse, mapped: { status: number; body: unknown; retryAfterSeconds?: number }): void {
  if (mapped.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(mapped.retryAfterSeconds));
  writeJson(res, mapped.status, mapped.body);
}

/** CORS is off unless origins are configured; then only those origins (or `*`) get the headers. */
function applyCors(req: IncomingMessage, res: ServerResponse, cors: CorsConfig): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  const any = cors.origins === '*';
  if (!any && !cors.origins.includes(origin)) return;
  res.setHeader('Access-Control-Allow-Origin', any ? '*' : origin);
  if (!any) res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', String(cors.maxAgeSeconds));
  }
}

function pickRequestId(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/** `::ffff:203.0.113.7` and `203.0.113.7` are one client for rate limiting. */
