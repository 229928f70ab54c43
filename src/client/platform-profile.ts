/**
 * The Platform profile a Platform publishes and names in every request (R-G1): the release, the
 * transports it speaks (`dev.ucp.common` over MCP and REST) and the Location capabilities it
 * understands, each with the release's canonical spec and schema URLs (authority `ucp.dev`, so
 * they bind, R-N2). Both registries the schema requires are present even when empty (R-D1).
 */
import {
  COMMON_SERVICE,
  LOOKUP_CAPABILITY,
  SEARCH_CAPABILITY,
  UCP_VERSION,
  type ServiceBinding,
  type UcpProfile,
} from '../protocol/types.js';
import type { BindingName } from './caller.js';

export interface PlatformProfileOptions {
  /** Default both, MCP first. */
  transports?: readonly BindingName[];
  /** Default search and lookup. */
  capabilities?: readonly (typeof SEARCH_CAPABILITY | typeof LOOKUP_CAPABILITY)[];
}

const RELEASE_BASE = `https://ucp.dev/${UCP_VERSION}`;

const SERVICE_SCHEMA: Readonly<Record<BindingName, string>> = {
  mcp: `${RELEASE_BASE}/services/common/mcp.openrpc.json`,
  rest: `${RELEASE_BASE}/services/common/rest.openapi.json`,
};

export function buildPlatformProfile(options: PlatformProfileOptions = {}): UcpProfile {
  const transports = options.transports ?? ['mcp', 'rest'];
  const capabilities = options.capabilities ?? [SEARCH_CAPABILITY, LOOKUP_CAPABILITY];
  const services: ServiceBinding[] = transports.map((transport) => ({
    version: UCP_VERSION,
    spec: `${RELEASE_BASE}/specification/overview`,
    transport,
    schema: SERVICE_SCHEMA[transport],
  }));
  const caps: NonNullable<UcpProfile['ucp']['capabilities']> = {};
  for (const name of [SEARCH_CAPABILITY, LOOKUP_CAPABILITY] as const) {
    if (!capabilities.includes(name)) continue;
    const leaf = name === SEARCH_CAPABILITY ? 'search' : 'lookup';
    caps[name] = [
      {
        version: UCP_VERSION,
        spec: `${RELEASE_BASE}/specification/common/location/${leaf}`,
        schema: `${RELEASE_BASE}/schemas/common/location_${leaf}.json`,
      },
    ];
  }
  return { ucp: { version: UCP_VERSION, services: { [COMMON_SERVICE]: services }, capabilities: caps, payment_handlers: {} } };
}
