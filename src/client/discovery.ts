/**
 * The I/O half of discovery: fetch the Business profile (and, when an older release is selected,
 * its leaf profile) and the Platform profile through the `SafeFetcher`, validate them, select the
 * version, then hand the documents to the pure negotiation (negotiate.ts).
 *
 * Order matters (R-N3): `validateProfile` drops every entity whose schema URL fails authority
 * binding before anything else happens, and nothing here fetches a schema; schemas are composed
 * afterwards, from the surviving (bound) entities only.
 */
import { validateProfile, type ProfileValidation } from '../protocol/profile.js';
import { summarizeIssues } from '../protocol/schemas.js';
import { SafeFetchError, parseFetchUrl, type SafeFetcher } from '../protocol/safe-fetch.js';
import type { UcpProfile } from '../protocol/types.js';
import { businessVersions, checkLeafProfile, selectVersion } from '../protocol/versions.js';
import { DiscoveryError, ProfileError, VersionUnsupportedError, type ErrorSubject } from './errors.js';
import { fromSafeFetchError } from './fetch-errors.js';
import { decideNegotiation, type NegotiationDecision } from './negotiate.js';

/** Where the Business publishes its profile (R-D1). */
export const PROFILE_PATH = '/.well-known/ucp';

export interface DiscoveryInput {
  businessUrl: string;
  platformProfileUrl: string;
  /** The document published at `platformProfileUrl`, when the caller has it (no fetch then). */
  platformProfile?: unknown;
  fetcher: SafeFetcher;
  allowLoopback: boolean;
}

export interface DiscoveryResult {
  businessProfileUrl: string;
  /** The Business profile as fetched from /.well-known/ucp, entries failing validation removed. */
  businessProfile: UcpProfile;
  /** The profile negotiation used: the leaf of the selected release, or `businessProfile`. */
  effectiveProfile: UcpProfile;
  /** Set when an older release was selected through `supported_versions`. */
  leafProfileUrl: string | undefined;
  platformProfile: UcpProfile;
  /** The negotiated release. */
  version: string;
  /** Releases the Business offers, newest first. */
  businessVersions: string[];
  decision: NegotiationDecision;
}

/** `https://shop.example` (or any URL on it, or the profile URL itself) → its profile URL. */
export function businessProfileUrl(businessUrl: string, allowLoopback: boolean): string {
  let url: URL;
  try {
    url = parseFetchUrl(businessUrl.trim(), allowLoopback);
  } catch (error) {
    if (error instanceof SafeFetchError) throw fromSafeFetchError(error, 'business_profile', businessUrl);
    throw error;
  }
  if (url.pathname === PROFILE_PATH && url.search === '') return url.href;
  return new URL(PROFILE_PATH, url.origin).href;
}

export async function discover(input: DiscoveryInput): Promise<DiscoveryResult> {
  const allowLoopbackHttp = input.allowLoopback;
  const profileUrl = businessProfileUrl(input.businessUrl, input.allowLoopback);
  checkPlatformProfileUrl(input.platformProfileUrl, input.allowLoopback);

  // Both profiles are independent documents: fetch them concurrently.
  const [businessRaw, platformRaw] = await Promise.all([
    fetchJson(input.fetcher, profileUrl, 'business_profile'),
    input.platformProfile !== undefined
      ? Promise.resolve(input.platformProfile)
      : fetchJson(input.fetcher, input.platformProfileUrl, 'platform_profile'),
  ]);
  const business = expectValid(validateProfile(businessRaw, 'business', { allowLoopbackHttp }), 'business_profile', profileUrl);
  const platform = expectValid(
    validateProfile(platformRaw, 'platform', { allowLoopbackHttp }),
    'platform_profile',
    input.platformProfileUrl,
  );

  const platformVersion = platform.profile.ucp.version;
  const offered = businessVersions(business.profile.ucp);
  const selection = selectVersion(business.profile.ucp, [platformVersion]);
  if (selection === null) {
    throw new VersionUnsupportedError(
      `No UCP release in common: the platform profile declares ${platformVersion}, the business offers ${offered.join(', ') || 'no dated release'}. Publish a platform profile for one of the business's releases.`,
      offered,
      platformVersion,
    );
  }

  let effective = business;
  let effectiveRaw = businessRaw;
  let leafUrl: string | undefined;
  if (selection.profileUrl !== undefined) {
    leafUrl = selection.profileUrl;
    const leafRaw = await fetchJson(input.fetcher, leafUrl, 'leaf_profile');
    const leafCheck = validateProfile(leafRaw, 'business', { leaf: true, allowLoopbackHttp });
    if (!leafCheck.ok) {
      throw new ProfileError(
        'leaf_profile_invalid',
        'leaf_profile',
        `The business profile for release ${selection.version} (${leafUrl}) is not a valid leaf profile: ${summarizeIssues(leafCheck.errors)}`,
        { issues: leafCheck.errors },
      );
    }
    const leafVersion = checkLeafProfile(leafCheck.profile, selection.version);
    if (!leafVersion.ok) {
      throw new ProfileError(
        'leaf_profile_invalid',
        'leaf_profile',
        `The business lists ${leafUrl} as its profile for release ${selection.version}, but that document does not match (R-D6): ${summarizeIssues(leafVersion.errors)}`,
        { issues: leafVersion.errors },
      );
    }
    effective = leafCheck;
    effectiveRaw = leafRaw;
  }

  const decision = decideNegotiation({
    businessRaw: effectiveRaw,
    business: effective.profile,
    businessRejected: effective.rejected,
    platformRaw,
    platform: platform.profile,
    platformRejected: platform.rejected,
    version: selection.version,
  });
  return {
    businessProfileUrl: profileUrl,
    businessProfile: business.profile,
    effectiveProfile: effective.profile,
    leafProfileUrl: leafUrl,
    platformProfile: platform.profile,
    version: selection.version,
    businessVersions: offered,
    decision,
  };
}

/** The Business will fetch this URL; refuse what it would refuse anyway, before any request. */
function checkPlatformProfileUrl(url: string, allowLoopback: boolean): void {
  try {
    parseFetchUrl(url, allowLoopback);
  } catch (error) {
    if (error instanceof SafeFetchError) {
      throw new DiscoveryError(
        'invalid_url',
        'platform_profile',
        `The platform profile URL ${JSON.stringify(url)} is unusable: ${error.message}. The business fetches it, so it must be an https URL it can reach (or, for local development, a loopback URL with --allow-loopback).`,
        { cause: error, url },
      );
    }
    throw error;
  }
}

async function fetchJson(fetcher: SafeFetcher, url: string, subject: ErrorSubject): Promise<unknown> {
  try {
    return (await fetcher.get(url)).body;
  } catch (error) {
    if (error instanceof SafeFetchError) throw fromSafeFetchError(error, subject, url);
    throw error;
  }
}

function expectValid(
  result: ProfileValidation,
  subject: 'business_profile' | 'platform_profile',
  url: string,
): Extract<ProfileValidation, { ok: true }> {
  if (result.ok) return result;
  const what = subject === 'business_profile' ? 'business profile' : 'platform profile';
  throw new ProfileError(
    'profile_malformed',
    subject,
    `The ${what} at ${url} is not a valid UCP ${what}: ${summarizeIssues(result.errors)}`,
    {
      issues: result.errors,
    },
  );
}
