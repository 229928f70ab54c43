/**
 * Assembles the bindings from their parts. Everything here is built once per process: the
 * profile bytes and ETag, the tool catalog (names, descriptions, schemas), the negotiator and the
 * limiter. Requests only look things up.
 */
import type { ServerConfig } from '../config.js';
import type { Logger } from '../logging.js';
import { buildBusinessProfile } from './business-profile.js';
import type { HttpApp } from './http.js';
import { McpHttpEndpoint } from './mcp/http.js';
import type { McpApp } from './mcp/server.js';
import { buildToolCatalog } from './mcp/tools.js';
import type { ToolSchemas } from './mcp/tools.js';
import { ProfileNegotiator } from './negotiate-request.js';
import type { PlatformProfileSource } from './negotiate-request.js';
import type { LocationOperations, OperationDeps, RequestValidators } from './operations.js';
import { prepareProfile } from './profile-endpoint.js';
import type { PreparedProfile } from './profile-endpoint.js';
import type { RequestLimiter } from './rate-limits.js';
import { RestEndpoint } from './rest/routes.js';

export interface UcpAppParts {
  service: LocationOperations;
  validate: RequestValidators;
  toolSchemas: ToolSchemas;
  profileSource: PlatformProfileSource;
  limiter: RequestLimiter;
  config: ServerConfig;
  logger: Logger;
  serverInfo: { name: string; version: string };
}

export interface UcpApp {
  profile: PreparedProfile;
  operations: OperationDeps;
  mcp: McpApp;
}

/** @param baseUrl public origin, no trailing slash; endpoints in the profile are derived from it. */
export function buildUcpApp(parts: UcpAppParts, baseUrl: string): UcpApp {
  const profile = prepareProfile(buildBusinessProfile(baseUrl, parts.config.capabilities));
  const operations: OperationDeps = {
    service: parts.service,
    validate: parts.validate,
    negotiator: new ProfileNegotiator(parts.profileSource, profile.profile),
    limiter: parts.limiter,
  };
  const mcp: McpApp = {
    operations,
    catalog: buildToolCatalog(parts.config.capabilities, parts.toolSchemas),
    serverInfo: parts.serverInfo,
    logger: parts.logger,
  };
  return { profile, operations, mcp };
}

export function buildHttpApp(app: UcpApp, parts: UcpAppParts, baseUrl: string): HttpApp {
  return {
    profile: app.profile,
    mcp: new McpHttpEndpoint(app.mcp, { maxBodyBytes: parts.config.maxBodyBytes, publicUrl: `${baseUrl}/ucp/mcp` }),
    rest: new RestEndpoint(app.operations, parts.logger, { maxBodyBytes: parts.config.maxBodyBytes }),
    logger: parts.logger,
    cors: parts.config.cors,
    baseUrl,
    capabilities: parts.config.capabilities,
  };
}
