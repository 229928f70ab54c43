/**
 * The Platform profiles the checker presents (`--serve-profile`), built by the SDK's
 * `buildPlatformProfile`: one offering both Location capabilities, one offering search only (for the
 * `capabilities_incompatible` probe). Served from 127.0.0.1 with the hosting a Business expects
 * (R-D5: public, max-age, ETag), so a Business that allows loopback profiles can fetch them.
 */
import { serveProfilesOnLoopback } from '../client/loopback-profile-server.js';
import { buildPlatformProfile } from '../client/platform-profile.js';
import { SEARCH_CAPABILITY, type UcpProfile } from '../protocol/types.js';

export interface ServedProfiles {
  /** Profile offering search and lookup. */
  url: string;
  profile: UcpProfile;
  /** Profile offering search only. */
  searchOnlyUrl: string;
  close(): Promise<void>;
}

const FULL_PATH = '/platform.json';
const SEARCH_ONLY_PATH = '/platform-search-only.json';

/** Serves both profiles on 127.0.0.1 (a free port) until `close`. */
export async function serveProfiles(): Promise<ServedProfiles> {
  const full = buildPlatformProfile();
  const server = await serveProfilesOnLoopback(
    new Map<string, unknown>([
      [FULL_PATH, full],
      [SEARCH_ONLY_PATH, buildPlatformProfile({ capabilities: [SEARCH_CAPABILITY] })],
    ]),
    { maxAgeSeconds: 300 },
  );
  return {
    url: `${server.origin}${FULL_PATH}`,
    profile: full,
    searchOnlyUrl: `${server.origin}${SEARCH_ONLY_PATH}`,
    close: () => server.close(),
  };
}
