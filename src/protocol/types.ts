/**
 * Role-neutral UCP profile shapes (overview: ucp.json, profile.json, service.json,
 * capability.json). Profiles are open objects; unknown members are preserved.
 */

/** The release this package implements. */
export const UCP_VERSION = '2026-08-25';

export interface UcpEntity {
  version: string;
  spec?: string;
  schema?: string;
  id?: string;
  config?: Record<string, unknown>;
  [extra: string]: unknown;
}

export type Transport = 'rest' | 'mcp' | 'a2a' | 'embedded';

export interface ServiceBinding extends UcpEntity {
  transport: Transport;
  endpoint?: string;
}

export interface CapabilityEntity extends UcpEntity {
  /** Parent capability name(s); absent for root capabilities. */
  extends?: string | string[];
  /** Optional requirements checked during schema resolution. */
  requires?: {
    protocol?: { min: string; max?: string };
    capabilities?: Record<string, { min: string; max?: string }>;
  };
}

export interface UcpProfileBody {
  version: string;
  services: Record<string, ServiceBinding[]>;
  capabilities?: Record<string, CapabilityEntity[]>;
  payment_handlers: Record<string, UcpEntity[]>;
  /** Business profiles only: older version → URI of a complete leaf profile. */
  supported_versions?: Record<string, string>;
  status?: 'success' | 'error';
  [extra: string]: unknown;
}

export interface UcpProfile {
  ucp: UcpProfileBody;
  keys?: Record<string, unknown>[];
  [extra: string]: unknown;
}

export type ProfileRole = 'business' | 'platform';

/** Capability names of the Location release. */
export const SEARCH_CAPABILITY = 'dev.ucp.common.location.search';
export const LOOKUP_CAPABILITY = 'dev.ucp.common.location.lookup';
export const COMMON_SERVICE = 'dev.ucp.common';
