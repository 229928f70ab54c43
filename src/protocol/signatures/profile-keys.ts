/**
 * Where a UCP profile publishes its keys: the top-level `keys[]` JWK Set (the 2026-08-25 profile
 * schema's name), and `signing_keys[]` which some profiles carry instead or as well.
 */
import { isRecord } from '../guards.js';

/** Every published key entry of a profile, `keys[]` first; entries are unvalidated JWKs (a verifier skips what it cannot use). */
export function profileKeys(profile: unknown): unknown[] {
  if (!isRecord(profile)) return [];
  const out: unknown[] = [];
  for (const member of ['keys', 'signing_keys']) {
    const list = profile[member];
    if (!Array.isArray(list)) continue;
    const entries: readonly unknown[] = list;
    out.push(...entries);
  }
  return out;
}

/** Whether a profile publishes any key: such a profile is trusted and charged only for verified requests (R-SIG4). */
export function publishesKeys(profile: unknown): boolean {
  return profileKeys(profile).length > 0;
}
