/**
 * Setup step 1: fetch and judge the Business profile. Unlike the Platform SDK's discovery, which
 * stops at the first problem, the checker keeps everything it saw (status, headers, the raw
 * document, every rejected entry) so that each rule can be reported on its own.
 *
 * The fetch itself is `SafeFetcher.fetchDocument`: one guarded GET (https, no redirects, address
 * guard, limits), uncached, with the response headers R-D5 is judged on.
 */
import { businessProfileUrl } from '../client/index.js';
import { SafeFetchError, SafeFetcher, type SafeFetcherOptions } from '../protocol/safe-fetch.js';
import { validateProfile } from '../protocol/profile.js';
import { COMMON_SERVICE, UCP_VERSION, type UcpProfile } from '../protocol/types.js';
import { checkLeafProfile, selectVersion } from '../protocol/versions.js';
import type { DiscoveryState } from './check.js';
import { isRecord } from './oracle.js';
import type { TransportChoice } from './types.js';

type FetcherOptions = Pick<SafeFetcherOptions, 'allowLoopback' | 'resolve' | 'ca' | 'totalTimeoutMs'>;

/**
 * Fetches the profile (and, when needed, the 2026-08-25 leaf) and picks the endpoints to exercise.
 * Throws the SDK's `UcpClientError` when `businessUrl` itself is unusable (not absolute, http).
 */
export async function discoverBusiness(
  businessUrl: string,
  transport: TransportChoice,
  fetcherOptions: FetcherOptions,
): Promise<DiscoveryState> {
  const profileUrl = businessProfileUrl(businessUrl, fetcherOptions.allowLoopback === true);
  const fetcher = new SafeFetcher({ ...fetcherOptions, connectTimeoutMs: fetcherOptions.totalTimeoutMs ?? 5_000 });
  const state: DiscoveryState = { profileUrl, endpoints: {} };
  try {
    state.response = await fetcher.fetchDocument(profileUrl);
  } catch (error) {
    state.fetchError = describeFetchError(error);
    return state;
  }
  const allowLoopbackHttp = fetcherOptions.allowLoopback === true;
  state.validation = validateProfile(state.response.body, 'business', { allowLoopbackHttp });
  if (!state.validation.ok) return state;
  let profile: UcpProfile | undefined = state.validation.profile;

  // R-D6: a Business whose current release is newer reaches 2026-08-25 through supported_versions.
  const selected = selectVersion(profile.ucp, [UCP_VERSION]);
  if (selected?.profileUrl !== undefined) {
    const leafUrl = selected.profileUrl;
    const problems: string[] = [];
    profile = undefined;
    try {
      const leaf = await fetcher.fetchDocument(leafUrl);
      const judged = validateProfile(leaf.body, 'business', { leaf: true, allowLoopbackHttp });
      if (!judged.ok) problems.push(...judged.errors.map((e) => `${e.pointer || '/'}: ${e.message}`));
      else {
        const check = checkLeafProfile(judged.profile, UCP_VERSION);
        if (!check.ok) problems.push(...check.errors.map((e) => `${e.pointer}: ${e.message}`));
        else profile = judged.profile;
      }
    } catch (error) {
      problems.push(describeFetchError(error).message);
    }
    state.leaf = { url: leafUrl, problems };
  } else if (selected === null) {
    profile = undefined;
  }
  if (profile === undefined) return state;
  state.profile = profile;
  state.endpoints = pickEndpoints(profile, transport);
  return state;
}

/** The first surviving `dev.ucp.common` entry per wanted transport (validation already dropped bad ones). */
export function pickEndpoints(profile: UcpProfile, transport: TransportChoice): { mcp?: string; rest?: string } {
  const out: { mcp?: string; rest?: string } = {};
  const entries = profile.ucp.services[COMMON_SERVICE] ?? [];
  for (const name of ['mcp', 'rest'] as const) {
    if (transport !== 'both' && transport !== name) continue;
    const entry = entries.find((e) => isRecord(e) && e.transport === name && typeof e.endpoint === 'string');
    if (entry?.endpoint !== undefined) out[name] = entry.endpoint.replace(/\/+$/, '');
  }
  return out;
}

function describeFetchError(error: unknown): { reason: string; message: string; status?: number } {
  if (error instanceof SafeFetchError) {
    return { reason: error.reason, message: error.message, ...(error.status === undefined ? {} : { status: error.status }) };
  }
  return { reason: 'error', message: error instanceof Error ? error.message : String(error) };
}
