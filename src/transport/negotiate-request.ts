/**
 * Negotiation on every request (R-G1…R-G6), Business side: resolve the Platform profile, check its
 * version, intersect capabilities, and either hand back the response `ucp` envelope for the
 * operation or the `capabilities_incompatible` business outcome.
 *
 * Discovery and version failures are *thrown* as UcpNegotiationError (transport errors, R-G5);
 * `capabilities_incompatible` is *returned*, because it is a successful response (MCP result,
 * REST 200) whose body says `status: "error"`.
 *
 * The decision is pure given the two profiles, and the resolver hands back the same object for
 * the same cached document, so outcomes are memoised per profile object: a busy Platform costs
 * one intersection per profile refresh, not one per request.
 */
import { UcpNegotiationError } from '../errors.js';
import type { UcpResponseMeta } from '../domain/requests.js';
import { negotiateCapabilities, responseCapabilities, type DroppedCapability } from '../protocol/negotiation.js';
import type { RejectedEntity } from '../protocol/profile.js';
import type { UcpProfile } from '../protocol/types.js';
import { checkPlatformVersion } from '../protocol/versions.js';
import type { LocationCapability } from './business-profile.js';
import { errorMessage, errorResponse } from './error-response.js';
import type { ErrorResponse } from './error-response.js';

export type NegotiationOutcome = { compatible: true; ucp: UcpResponseMeta } | { compatible: false; response: ErrorResponse };

export interface RequestNegotiator {
  /** @param client the caller's address: it spends only its own share of the discovery budget. */
  negotiate(profileUrl: string, capability: LocationCapability, client?: string): Promise<NegotiationOutcome>;
}

/** `PlatformProfileResolver` (protocol/profile-resolver.ts) satisfies this. */
export interface PlatformProfileSource {
  /** The validated Platform profile; throws UcpNegotiationError (invalid/unreachable/malformed). */
  resolve(profileUrl: string, context?: { client?: string | undefined }): Promise<UcpProfile>;
  /** As `resolve`, also naming the entries dropped from it (so a refusal can say why a capability is missing). */
  resolveWithReport?(
    profileUrl: string,
    context?: { client?: string | undefined },
  ): Promise<{ profile: UcpProfile; rejected: readonly RejectedEntity[] }>;
}

export class ProfileNegotiator implements RequestNegotiator {
  readonly #source: PlatformProfileSource;
  readonly #business: UcpProfile;
  readonly #memo = new WeakMap<UcpProfile, Map<LocationCapability, NegotiationOutcome>>();

  constructor(source: PlatformProfileSource, business: UcpProfile) {
    this.#source = source;
    this.#business = business;
  }

  async negotiate(profileUrl: string, capability: LocationCapability, client?: string): Promise<NegotiationOutcome> {
    const { profile: platform, rejected } =
      this.#source.resolveWithReport === undefined
        ? { profile: await this.#source.resolve(profileUrl, { client }), rejected: [] }
        : await this.#source.resolveWithReport(profileUrl, { client });
    let perProfile = this.#memo.get(platform);
    if (perProfile === undefined) {
      perProfile = new Map();
      this.#memo.set(platform, perProfile);
    }
    let outcome = perProfile.get(capability);
    if (outcome === undefined) {
      outcome = decide(this.#business, platform, capability, rejected);
      perProfile.set(capability, outcome);
    }
    return outcome;
  }
}

/**
 * The pure decision; throws `version_unsupported`, returns everything else. `rejected`: entries
 * dropped from the Platform profile when it was validated, so a capability the profile lists but
 * that was dropped is reported as such, not as missing.
 */
export function decide(
  business: UcpProfile,
  platform: UcpProfile,
  capability: LocationCapability,
  rejected: readonly RejectedEntity[] = [],
): NegotiationOutcome {
  const check = checkPlatformVersion(platform.ucp.version, business.ucp);
  if (!check.ok) throw new UcpNegotiationError('version_unsupported', check.reason);
  // We publish a single release (no supported_versions), so the negotiated version is ours.
  const version = check.version;
  const { active, dropped } = negotiateCapabilities(business.ucp.capabilities ?? {}, platform.ucp.capabilities ?? {}, {
    protocolVersion: version,
  });
  const capabilities = responseCapabilities(active, capability);
  if (Object.keys(capabilities).length > 0) return { compatible: true, ucp: { version, capabilities } };

  const why = (d: DroppedCapability): string => {
    const entries = rejected.filter((r) => r.registry === 'capabilities' && r.name === d.name);
    if (d.reason !== 'not_offered_by_platform' || entries.length === 0) return d.detail;
    return `the platform profile lists ${d.name}, but its entry was dropped: ${entries.map((r) => `${r.pointer}: ${r.reason}`).join('; ')}`;
  };
  const own = dropped.find((d) => d.name === capability);
  const others = dropped.filter((d) => d !== own);
  const fix =
    own === undefined
      ? ''
      : own.reason === 'not_offered_by_platform' && rejected.some((r) => r.name === capability)
        ? ` Fix that entry of the platform profile.`
        : own.reason === 'not_offered_by_platform' || own.reason === 'no_mutual_version'
          ? ` Add ${capability} version ${business.ucp.version} to the platform profile's ucp.capabilities.`
          : '';
  const also = others.length === 0 ? '' : ` Also dropped: ${others.map((d) => `${d.name} (${why(d)})`).join('; ')}.`;
  const content = `No compatible version of ${capability} between this business and the platform profile: ${own === undefined ? `this business does not offer ${capability}` : why(own)}.${fix}${also}`;
  return {
    compatible: false,
    response: errorResponse([errorMessage('capabilities_incompatible', content, 'unrecoverable')], undefined, version),
  };
}
