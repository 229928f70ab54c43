/**
 * The Business profile this server publishes at `/.well-known/ucp` (R-D1…R-D4, seed 000 "Discovery").
 *
 * Every `dev.ucp.*` entry declares exactly the profile's `ucp.version` (R-D4); the spec/schema URLs
 * are the release's canonical ones from seed 000, and the endpoints are derived from the public
 * base URL: MCP at `<base>/ucp/mcp`, REST at `<base>/ucp` (OpenAPI paths append to it, R-D2).
 */
import type { BindingName } from '../config.js';
import { COMMON_SERVICE, LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION } from '../protocol/types.js';
import type { CapabilityEntity, UcpProfile } from '../protocol/types.js';

export type LocationCapability = typeof SEARCH_CAPABILITY | typeof LOOKUP_CAPABILITY;

const RELEASE_BASE = `https://ucp.dev/${UCP_VERSION}`;

/** Canonical capability declarations of release 2026-08-25 (seed 000). */
export const CAPABILITY_DECLARATIONS: Readonly<Record<LocationCapability, CapabilityEntity>> = {
  [SEARCH_CAPABILITY]: {
    version: UCP_VERSION,
    spec: `${RELEASE_BASE}/specification/common/location/search`,
    schema: `${RELEASE_BASE}/schemas/common/location_search.json`,
  },
  [LOOKUP_CAPABILITY]: {
    version: UCP_VERSION,
    spec: `${RELEASE_BASE}/specification/common/location/lookup`,
    schema: `${RELEASE_BASE}/schemas/common/location_lookup.json`,
  },
};

/** Path prefix of every UCP endpoint below the base URL. */
export const UCP_PATH = '/ucp';
export const MCP_PATH = `${UCP_PATH}/mcp`;
export const REST_SEARCH_PATH = `${UCP_PATH}/locations/search`;
export const REST_LOOKUP_PATH = `${UCP_PATH}/locations/lookup`;
export const PROFILE_PATH = '/.well-known/ucp';

/**
 * @param baseUrl public origin, e.g. `https://business.example.com` (no trailing slash, no path)
 * @param capabilities the Location capabilities this Business adopts (each MAY be adopted alone, R-D3)
 * @param transports the bindings it offers (configuration key `transports`); only these are advertised
 */
export function buildBusinessProfile(
  baseUrl: string,
  capabilities: readonly LocationCapability[],
  transports: readonly BindingName[] = ['mcp', 'rest'],
): UcpProfile {
  const base = baseUrl.replace(/\/+$/, '');
  const caps: Record<string, CapabilityEntity[]> = {};
  // Fixed order (search, lookup) so the document, and hence its ETag, does not depend on config order.
  for (const name of [SEARCH_CAPABILITY, LOOKUP_CAPABILITY] as const) {
    if (capabilities.includes(name)) caps[name] = [{ ...CAPABILITY_DECLARATIONS[name] }];
  }
  return {
    ucp: {
      version: UCP_VERSION,
      services: {
        // Fixed order (MCP, REST), like the capabilities.
        [COMMON_SERVICE]: [
          {
            version: UCP_VERSION,
            spec: `${RELEASE_BASE}/specification/overview`,
            transport: 'mcp' as const,
            schema: `${RELEASE_BASE}/services/common/mcp.openrpc.json`,
            endpoint: `${base}${MCP_PATH}`,
          },
          {
            version: UCP_VERSION,
            spec: `${RELEASE_BASE}/specification/overview`,
            transport: 'rest' as const,
            schema: `${RELEASE_BASE}/services/common/rest.openapi.json`,
            endpoint: `${base}${UCP_PATH}`,
          },
        ].filter((binding) => transports.includes(binding.transport)),
      },
      capabilities: caps,
      payment_handlers: {},
    },
  };
}
