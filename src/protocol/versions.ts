/**
 * Protocol version selection (R-D6, R-G3). Pure: the caller fetches leaf profiles.
 *
 * A Business advertises its current release in `ucp.version` and older ones through
 * `supported_versions` (release → URI of a complete leaf profile). Versions are dated releases
 * (`YYYY-MM-DD`), compared as strings: for that fixed-width form, code-unit order is date order.
 */
import type { ProfileIssue } from './profile.js';
import type { UcpProfile, UcpProfileBody } from './types.js';

/** The parts of a profile body that version selection reads. */
export type VersionedBody = Pick<UcpProfileBody, 'version' | 'supported_versions'>;

export interface VersionSelection {
  version: string;
  /** Present when an older release was selected: the leaf profile to fetch and use instead. */
  profileUrl?: string;
}

export type PlatformVersionCheck = { ok: true; version: string; profileUrl?: string } | { ok: false; reason: string };

const RELEASE = /^\d{4}-\d{2}-\d{2}$/;

export function isReleaseVersion(v: unknown): v is string {
  return typeof v === 'string' && RELEASE.test(v);
}

/** Code-unit order; for `YYYY-MM-DD` strings this is chronological. Never locale-aware. */
export function compareVersions(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function olderVersions(business: VersionedBody): Map<string, string> {
  const out = new Map<string, string>();
  const supported = business.supported_versions;
  if (supported === undefined || supported === null || typeof supported !== 'object') return out;
  for (const [v, uri] of Object.entries(supported)) {
    if (typeof uri === 'string') out.set(v, uri);
  }
  return out;
}

/** Every release the Business supports, newest first (current version plus supported_versions keys). */
export function businessVersions(business: VersionedBody): string[] {
  const all = new Set<string>([business.version, ...olderVersions(business).keys()]);
  return [...all].filter(isReleaseVersion).sort((a, b) => compareVersions(b, a));
}

/**
 * Platform side: the most recent release both parties support (R-D6). When it is the Business's
 * current version the fetched profile is used as is; otherwise `profileUrl` names the leaf
 * profile to fetch (and to check with `checkLeafProfile`). Non-date strings are never selected.
 * Returns null when there is no mutual release.
 */
export function selectVersion(business: VersionedBody, platformVersions: readonly string[]): VersionSelection | null {
  const wanted = new Set(platformVersions.filter(isReleaseVersion));
  const best = businessVersions(business).find((v) => wanted.has(v));
  if (best === undefined) return null;
  if (best === business.version) return { version: best };
  const profileUrl = olderVersions(business).get(best);
  return profileUrl === undefined ? { version: best } : { version: best, profileUrl };
}

/**
 * A leaf profile reached through `supported_versions[expectedVersion]` must declare exactly that
 * release and must not itself carry `supported_versions` (R-D6). On any error the Platform must
 * not use it.
 */
export function checkLeafProfile(leaf: UcpProfile, expectedVersion: string): { ok: true } | { ok: false; errors: ProfileIssue[] } {
  const errors: ProfileIssue[] = [];
  if (leaf.ucp.version !== expectedVersion) {
    errors.push({
      pointer: '/ucp/version',
      message: `leaf profile declares version ${JSON.stringify(leaf.ucp.version)} but was reached through supported_versions key ${JSON.stringify(expectedVersion)}; the two must be equal`,
    });
  }
  if (leaf.ucp.supported_versions !== undefined) {
    errors.push({
      pointer: '/ucp/supported_versions',
      message: 'a leaf profile describes exactly one release and must not contain supported_versions',
    });
  }
  return errors.length === 0 ? { ok: true } : { ok: false, errors };
}

/**
 * Business side, on every request (R-G3): the Platform's `ucp.version` must equal the
 * Business's `version` or be a key of its `supported_versions`; otherwise the caller answers
 * `version_unsupported` with `reason` as the message. Exact string equality, no ranges.
 */
export function checkPlatformVersion(platformVersion: string, business: VersionedBody): PlatformVersionCheck {
  if (platformVersion === business.version) return { ok: true, version: platformVersion };
  const older = olderVersions(business).get(platformVersion);
  if (older !== undefined) return { ok: true, version: platformVersion, profileUrl: older };
  const supported = businessVersions(business);
  const list = supported.length > 1 ? ` (supported: ${supported.join(', ')})` : '';
  return {
    ok: false,
    reason: `Version ${JSON.stringify(platformVersion)} is not supported. This business implements version ${business.version}${list}; declare one of these in the platform profile's ucp.version.`,
  };
}
