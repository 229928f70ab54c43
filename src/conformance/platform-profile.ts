/**
 * The Platform profiles the checker presents (`--serve-profile`), built by the SDK's
 * `buildPlatformProfile`: one offering both Location capabilities, one offering search only (for the
 * `capabilities_incompatible` probe, R-G5), and one that implements only a release no Business
 * supports (for the `version_unsupported` probe, R-G3), and the first again served with
 * `max-age=0` (R-G2: a Business keeps even that for at least 60 s). Served from 127.0.0.1 with the
 * hosting a Business expects (R-D5: public, max-age, ETag), so a Business that allows loopback
 * profiles can fetch them; the server counts the fetches (R-G2).
 */
import { serveProfilesOnLoopback } from '../client/index.js';
import { buildPlatformProfile } from '../client/index.js';
import { SEARCH_CAPABILITY, UCP_VERSION, type UcpEntity, type UcpProfile } from '../protocol/types.js';
import type { PublicJwk } from '../protocol/signatures/index.js';

export interface ServedProfiles {
  /** Profile offering search and lookup. */
  url: string;
  profile: UcpProfile;
  /** Profile offering search only. */
  searchOnlyUrl: string;
  /** Profile declaring `UNSUPPORTED_PLATFORM_VERSION` throughout (no release in common with any Business). */
  unsupportedVersionUrl: string;
  /** The full profile again, at its own path, served with `max-age=0` (R-G2's TTL floor). */
  maxAgeZeroUrl: string;
  /** How many times the Business fetched (or revalidated) the profile at one of these URLs. */
  fetches(url: string): number;
  close(): Promise<void>;
}

/**
 * A well-formed release date that predates UCP, so no Business lists it in `supported_versions`;
 * the checker still verifies that before relying on it.
 */
export const UNSUPPORTED_PLATFORM_VERSION = '1999-01-01';

export const FULL_PROFILE_PATH = '/platform.json';
const SEARCH_ONLY_PATH = '/platform-search-only.json';
export const UNSUPPORTED_VERSION_PATH = `/platform-${UNSUPPORTED_PLATFORM_VERSION}.json`;
const MAX_AGE_ZERO_PATH = '/platform-max-age-0.json';

/**
 * `profile` as a Platform implementing only `version` would publish it: `ucp.version`, every
 * entity's `version` and the release segment of every ucp.dev URL changed together. A
 * half-changed profile (entities still at 2026-08-25) would be dropped as malformed by R-D4
 * before the version is ever compared, and the probe would then test the wrong rule.
 */
export function profileForVersion(profile: UcpProfile, version: string): UcpProfile {
  const release = `https://ucp.dev/${UCP_VERSION}/`;
  const url = (u: string | undefined): string | undefined =>
    u?.startsWith(release) === true ? `https://ucp.dev/${version}/${u.slice(release.length)}` : u;
  const entity = <T extends UcpEntity>(e: T): T => {
    const out: T = { ...e, version };
    const spec = url(e.spec);
    const schema = url(e.schema);
    if (spec !== undefined) out.spec = spec;
    if (schema !== undefined) out.schema = schema;
    return out;
  };
  const registry = <T extends UcpEntity>(map: Record<string, T[]>): Record<string, T[]> =>
    Object.fromEntries(Object.entries(map).map(([name, list]) => [name, list.map(entity)]));
  const { ucp } = profile;
  return {
    ...profile,
    ucp: {
      ...ucp,
      version,
      services: registry(ucp.services),
      ...(ucp.capabilities === undefined ? {} : { capabilities: registry(ucp.capabilities) }),
    },
  };
}

/**
 * Serves the profiles on 127.0.0.1 (a free port) until `close`, each listing `keys` (the run's
 * signing key, R-SIG1) when given, so whichever profile a probe names, its signature verifies.
 */
export async function serveProfiles(keys: readonly PublicJwk[] = []): Promise<ServedProfiles> {
  const withKeys = (profile: UcpProfile): UcpProfile => (keys.length === 0 ? profile : { ...profile, keys: keys.map((k) => ({ ...k })) });
  const full = withKeys(buildPlatformProfile());
  const server = await serveProfilesOnLoopback(
    new Map<string, unknown>([
      [FULL_PROFILE_PATH, full],
      [SEARCH_ONLY_PATH, withKeys(buildPlatformProfile({ capabilities: [SEARCH_CAPABILITY] }))],
      [UNSUPPORTED_VERSION_PATH, profileForVersion(full, UNSUPPORTED_PLATFORM_VERSION)],
      [MAX_AGE_ZERO_PATH, full],
    ]),
    { maxAgeSeconds: 300, maxAgeByPath: new Map([[MAX_AGE_ZERO_PATH, 0]]) },
  );
  return {
    url: `${server.origin}${FULL_PROFILE_PATH}`,
    profile: full,
    searchOnlyUrl: `${server.origin}${SEARCH_ONLY_PATH}`,
    unsupportedVersionUrl: `${server.origin}${UNSUPPORTED_VERSION_PATH}`,
    maxAgeZeroUrl: `${server.origin}${MAX_AGE_ZERO_PATH}`,
    fetches: (url) => (url.startsWith(`${server.origin}/`) ? server.requests(new URL(url).pathname) : 0),
    close: () => server.close(),
  };
}
