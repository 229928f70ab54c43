/**
 * The Platform the end-to-end benchmark speaks for: a profile pre-approved in the server's
 * configuration (`trustedPlatforms`), so negotiation resolves it from memory — a benchmark must
 * not depend on the network, and a real deployment caches profiles the same way.
 */
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY, UCP_VERSION } from '../../src/protocol/types.js';
import type { CapabilityEntity, UcpProfile } from '../../src/protocol/types.js';

export const BENCH_PLATFORM_URL = 'https://platform.bench.example/.well-known/ucp';

export function benchPlatformProfile(): UcpProfile {
  const capability = (leaf: string): CapabilityEntity[] => [
    {
      version: UCP_VERSION,
      spec: `https://ucp.dev/${UCP_VERSION}/specification/common/location/${leaf}`,
      schema: `https://ucp.dev/${UCP_VERSION}/schemas/common/location_${leaf}.json`,
    },
  ];
  return {
    ucp: {
      version: UCP_VERSION,
      services: {
        'dev.ucp.common': [
          {
            version: UCP_VERSION,
            spec: `https://ucp.dev/${UCP_VERSION}/specification/overview`,
            transport: 'mcp',
            schema: `https://ucp.dev/${UCP_VERSION}/services/common/mcp.openrpc.json`,
          },
        ],
      },
      capabilities: { [SEARCH_CAPABILITY]: capability('search'), [LOOKUP_CAPABILITY]: capability('lookup') },
      payment_handlers: {},
    },
  };
}
