/**
 * Assembles the bindings from their parts. Everything here is built once per process: the
 * profile bytes and ETag, the tool catalog (names, descriptions, schemas), the negotiator and the
 * limiter. Requests only look things up.
 */
import type { RequestListener } from 'node:http';
import type { ServerConfig } from '../config.js';
import { ConfigError } from '../errors.js';
import type { Logger } from '../logging.js';
import { buildBusinessProfile, MCP_PATH } from './business-profile.js';
import { isLoopbackHost, UcpHttpServer } from './http.js';
import type { Hosting, HttpApp, ReadinessProbe } from './http.js';
import { McpHttpEndpoint } from './mcp/http.js';
import type { McpApp } from './mcp/server.js';
import { buildToolCatalog } from './mcp/tools.js';
import type { CallerGuidance, ToolSchemas } from './mcp/tools.js';
import { ProfileNegotiator } from './negotiate-request.js';
import type { PlatformProfileSource } from './negotiate-request.js';
import type { LocationOperations, OperationDeps, OperationObserver, RequestValidators } from './operations.js';
import { prepareProfile } from './profile-endpoint.js';
import type { PreparedProfile } from './profile-endpoint.js';
import type { RequestLimiter } from './rate-limits.js';
import { RestEndpoint } from './rest/routes.js';
import { answerSigner } from './answer-signing.js';
import { RequestVerifier } from './request-signatures.js';
import type { SigningKeySet } from '../protocol/signatures/index.js';

export interface UcpAppParts {
  service: LocationOperations;
  validate: RequestValidators;
  toolSchemas: ToolSchemas;
  profileSource: PlatformProfileSource;
  limiter: RequestLimiter;
  config: ServerConfig;
  logger: Logger;
  serverInfo: { name: string; version: string };
  /** Behind `/readyz` (store reachable and migrated); default: ready once listening. */
  readiness?: ReadinessProbe;
  /** What callers are told beyond the schemas: announced profile URLs, the dataset's amenity ids. */
  guidance?: CallerGuidance;
  /** Told of every binding request once answered (metrics). */
  observe?: OperationObserver;
  /**
   * The Business's own keys (config `signatures.signingKey`): published in the profile's `keys[]`,
   * and every answer of the HTTP bindings is signed with the signing one (R-SIG1, R-SIG3).
   */
  signingKeys?: SigningKeySet;
  /** The clock (epoch ms) for signature `created` / `expires`; default the system clock. */
  now?: () => number;
}

export interface UcpApp {
  profile: PreparedProfile;
  operations: OperationDeps;
  mcp: McpApp;
}

/** @param baseUrl public origin, no trailing slash; endpoints in the profile are derived from it. */
export function buildUcpApp(parts: UcpAppParts, baseUrl: string): UcpApp {
  const document = buildBusinessProfile(baseUrl, parts.config.capabilities, parts.config.transports);
  // Public parts only (jwk.ts publicJwk copies nothing else), so a private key is never served.
  const keys = parts.signingKeys?.published.map((key) => ({ ...key }));
  const profile = prepareProfile(keys === undefined ? document : { ...document, keys });
  const announced = parts.guidance?.profileUrls ?? [];
  const operations: OperationDeps = {
    service: parts.service,
    validate: parts.validate,
    negotiator: new ProfileNegotiator(parts.profileSource, profile.profile),
    limiter: parts.limiter,
    announcedProfileUrls: announced,
    ...(parts.config.continueUrl === undefined ? {} : { continueUrl: parts.config.continueUrl }),
    ...(parts.observe === undefined ? {} : { observe: parts.observe }),
    verifier: new RequestVerifier({ mode: parts.config.signatures.verify, profiles: parts.profileSource, now: parts.now ?? Date.now }),
  };
  const mcp: McpApp = {
    operations,
    catalog: buildToolCatalog(parts.config.capabilities, parts.toolSchemas, {
      profileUrls: announced,
      amenityIds: parts.guidance?.amenityIds ?? [],
      limits: parts.config.limits,
    }),
    serverInfo: parts.serverInfo,
    logger: parts.logger,
  };
  return { profile, operations, mcp };
}

export function buildHttpApp(app: UcpApp, parts: UcpAppParts, baseUrl: string): HttpApp {
  return {
    profile: app.profile,
    mcp: new McpHttpEndpoint(app.mcp, { maxBodyBytes: parts.config.maxBodyBytes, publicUrl: `${baseUrl}${MCP_PATH}` }),
    rest: new RestEndpoint(app.operations, parts.logger, { maxBodyBytes: parts.config.maxBodyBytes }),
    logger: parts.logger,
    cors: parts.config.cors,
    baseUrl,
    capabilities: parts.config.capabilities,
    transports: parts.config.transports,
    limiter: parts.limiter,
    ...(parts.readiness === undefined ? {} : { readiness: parts.readiness }),
    ...(parts.signingKeys === undefined ? {} : { signAnswer: answerSigner(parts.signingKeys.signing, parts.now ?? Date.now) }),
  };
}

export interface ListeningUcp {
  http: UcpHttpServer;
  /** Where this process listens, e.g. `http://127.0.0.1:40123`. */
  url: string;
  port: number;
  /** Public base URL written into the profile. */
  baseUrl: string;
  app: UcpApp;
}

/**
 * Binds the HTTP server and builds the app for the bound address.
 * @param baseUrl public origin; default `http://<host>:<bound port>`.
 */
export async function listenUcpHttp(parts: UcpAppParts, options: { host: string; port: number; baseUrl?: string }): Promise<ListeningUcp> {
  const http = new UcpHttpServer({ turns: { maxQueued: parts.config.maxQueuedRequests } });
  const build = appBuilder(parts, options);
  const address = await http.listen({ host: options.host, port: options.port }, (addr) => build.httpApp(addr.port));
  return { http, url: `http://${hostForUrl(options.host)}:${address.port}`, port: address.port, ...build.built() };
}

export interface AttachedUcp extends ListeningUcp {
  /** The whole HTTP layer as node:http would call it, for a request injected without a socket. */
  listener: RequestListener;
}

/**
 * The same server as `listenUcpHttp`, as if bound at `host:port`, but nothing is bound: requests
 * reach it only through `listener` (tests call it in-process). `port` is only written into URLs.
 */
export function attachUcpHttp(
  parts: UcpAppParts,
  options: { host: string; port: number; baseUrl?: string; hosting?: Hosting },
): AttachedUcp {
  const http = new UcpHttpServer({ turns: options.hosting?.turns ?? { maxQueued: parts.config.maxQueuedRequests } });
  const build = appBuilder(parts, options);
  const at = { host: options.host, port: options.port, ...(options.hosting === undefined ? {} : { hosting: options.hosting }) };
  const listener = http.attach(at, () => build.httpApp(options.port));
  return { http, listener, url: `http://${hostForUrl(options.host)}:${options.port}`, port: options.port, ...build.built() };
}

/** Builds the app once the port is known, and keeps what it built for the caller. */
function appBuilder(
  parts: UcpAppParts,
  options: { host: string; baseUrl?: string },
): { httpApp(port: number): HttpApp; built(): { app: UcpApp; baseUrl: string } } {
  let built: { app: UcpApp; baseUrl: string } | undefined;
  return {
    httpApp: (port) => {
      const baseUrl = normaliseBaseUrl(options.baseUrl ?? `http://${hostForUrl(options.host)}:${port}`);
      const app = buildUcpApp(parts, baseUrl);
      built = { app, baseUrl };
      return buildHttpApp(app, parts, baseUrl);
    },
    built: () => {
      if (built === undefined) throw new Error('the server did not build the app');
      return built;
    },
  };
}

/**
 * The public base URL must be an origin (scheme, host, optional port): endpoints are derived by
 * appending `/ucp/...`, and the profile lives at the origin's `/.well-known/ucp`.
 */
export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`--base-url ${JSON.stringify(raw)} is not an absolute URL; expected e.g. https://business.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`--base-url must use https (or http for local development), got ${url.protocol}`);
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new ConfigError(
      `--base-url must be an origin without path, query or credentials (got ${JSON.stringify(raw)}); endpoints are published at <base>/ucp/mcp and <base>/ucp.`,
    );
  }
  // Seed 002: published endpoints MUST be https. Plain http is only for a server nobody else can
  // reach, so it is allowed for a loopback host and nothing else.
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ConfigError(
      `--base-url ${url.origin} would publish http endpoints, but UCP endpoints must be https; pass the https origin your TLS-terminating proxy serves (e.g. --base-url https://${url.host}), or use http only with a loopback host (127.0.0.1, ::1, localhost).`,
    );
  }
  return url.origin;
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
