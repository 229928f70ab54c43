/**
 * Platform profiles a Business trusts from local files (`serve --trust-platform-profile
 * <file>[=<url>]`, configuration key `trustedPlatformProfiles`).
 *
 * Why: an MCP host (an LLM desktop app, an agent framework) that connects straight to a Business
 * has no published Platform profile, yet every call must name one (R-G1) and the Business must
 * resolve it (R-G2). `platform-profile init` writes a valid profile; trusting that file makes the
 * host's calls negotiate without any fetch.
 *
 * The URL a file is trusted under, when none is given, is
 * `https://local.ucp-location.invalid/platform/<first 16 hex digits of the SHA-256 of the file>.json`:
 *  - `.invalid` is reserved (RFC 2606, RFC 6761) and never resolves, so the URL cannot be a real
 *    Platform's, cannot be fetched by anyone, and a mistyped one fails fast (the profile resolver
 *    refuses `.invalid` hosts without a DNS query);
 *  - it names the document's content, so the same file gets the same URL on every start and every
 *    machine, and two different files can never share one. Editing the file changes the URL; give
 *    `=<url>` to keep a fixed one.
 * A profile document has no field naming its own URL, so there is nothing better to derive it from.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { TrustedProfileFile } from './config.js';
import { causeMessage, ConfigError } from './errors.js';
import { MAX_JSON_DEPTH, exceedsJsonDepth } from './protocol/json-depth.js';
import { validateProfile } from './protocol/profile.js';
import type { RejectedEntity } from './protocol/profile.js';
import type { UcpProfile } from './protocol/types.js';
import { errorCodeOf } from './protocol/error-code.js';

/** Origin of the URLs derived for trusted profile files; `.invalid` never resolves (RFC 2606). */
export const LOCAL_PROFILE_ORIGIN = 'https://local.ucp-location.invalid';

/** How the flag and the configuration key are spelled in messages. */
export const TRUST_FLAG = '--trust-platform-profile';
export const TRUST_CONFIG_KEY = 'trustedPlatformProfiles';

export interface TrustedProfile {
  /** The profile URL callers send in `meta["ucp-agent"].profile` or `UCP-Agent`. */
  url: string;
  file: string;
  profile: UcpProfile;
  /** The URL was derived from the file (no `=<url>` given). */
  derived: boolean;
  /** Registry entries the validator dropped (e.g. a capability whose schema URL does not bind). */
  rejected: readonly RejectedEntity[];
}

/**
 * `<file>` or `<file>=<https-url>`. The URL part is recognised by its scheme, so a file name that
 * itself contains `=` still works without a URL.
 */
export function parseTrustSpec(spec: string): TrustedProfileFile {
  const match = /^(.+?)=([a-z][a-z0-9+.-]*:.*)$/i.exec(spec);
  if (match === null) {
    if (spec.trim() === '') throw new ConfigError(`${TRUST_FLAG} needs a file: ${TRUST_FLAG} <profile.json>[=<https-url>]`);
    return { file: spec };
  }
  const [, file = '', url = ''] = match;
  if (!isHttpsUrl(url)) {
    throw new ConfigError(
      `${TRUST_FLAG} ${spec}: the URL after "=" must be an absolute https URL (the profile URL callers will send), got ${JSON.stringify(url)}`,
    );
  }
  return { file, url };
}

/** The URL a profile file is trusted under when none is given (see the module comment). */
export function derivedProfileUrl(bytes: Buffer): string {
  return `${LOCAL_PROFILE_ORIGIN}/platform/${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.json`;
}

/**
 * Reads and validates every file; throws ConfigError naming the file (and the JSON pointer of each
 * problem) when one cannot be used, or when two different documents claim the same URL.
 */
export async function loadTrustedProfiles(files: readonly TrustedProfileFile[]): Promise<TrustedProfile[]> {
  const byUrl = new Map<string, TrustedProfile & { digest: string }>();
  for (const entry of files) {
    const loaded = await loadOne(entry);
    const key = normalisedUrl(loaded.url);
    const earlier = byUrl.get(key);
    if (earlier !== undefined) {
      // The same document listed twice is harmless; two documents under one URL is ambiguous.
      if (earlier.digest === loaded.digest) continue;
      throw new ConfigError(
        `Trusted platform profiles ${earlier.file} and ${loaded.file} are both given the URL ${loaded.url}; give each its own URL (${TRUST_FLAG} <file>=<https-url>).`,
      );
    }
    byUrl.set(key, loaded);
  }
  return [...byUrl.values()].map(({ digest: _digest, ...profile }) => profile);
}

/** Largest profile file read, bytes: the same bound as a fetched profile (R-N4 asks ≥ 128 KiB). */
export const MAX_PROFILE_FILE_BYTES = 256 * 1024;

/**
 * The file's bytes, refusing anything but a regular file of at most `MAX_PROFILE_FILE_BYTES`.
 * Opened non-blocking: opening a FIFO for reading would otherwise wait for a writer (holding a
 * thread of libuv's pool, past SIGTERM), and `/dev/zero` would be read for ever.
 */
async function readProfileFile(file: string, what: string): Promise<Buffer> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) {
      throw new ConfigError(`${what}: it is not a regular file (a pipe, device or socket); give the path of a profile .json file.`);
    }
    if (stat.size > MAX_PROFILE_FILE_BYTES) {
      throw new ConfigError(`${what} is ${stat.size} bytes; a platform profile file may have at most ${MAX_PROFILE_FILE_BYTES} bytes.`);
    }
    const buffer = Buffer.alloc(MAX_PROFILE_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_PROFILE_FILE_BYTES) {
        throw new ConfigError(
          `${what} grew past ${MAX_PROFILE_FILE_BYTES} bytes while it was read; a platform profile file may have at most that.`,
        );
      }
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

async function loadOne(entry: TrustedProfileFile): Promise<TrustedProfile & { digest: string }> {
  const what = `Trusted platform profile ${entry.file} (${TRUST_FLAG} / ${TRUST_CONFIG_KEY})`;
  let bytes: Buffer;
  try {
    bytes = await readProfileFile(entry.file, what);
  } catch (cause) {
    if (cause instanceof ConfigError) throw cause;
    const code = errorCodeOf(cause);
    const why =
      code === 'ENOENT'
        ? `the file does not exist (create one with: ucp-location platform-profile init --out ${entry.file}; to give a URL write ${TRUST_FLAG} <file>=https://…)`
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a directory, not a file'
            : String(cause);
    throw new ConfigError(`${what}: cannot read it: ${why}.`, { cause });
  }
  if (exceedsJsonDepth(bytes)) {
    throw new ConfigError(`${what} nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep; a platform profile needs under 10.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (cause) {
    throw new ConfigError(`${what} is not valid JSON: ${causeMessage(cause)}.`, { cause });
  }
  const result = validateProfile(json, 'platform');
  if (!result.ok) {
    const lines = result.errors.slice(0, 10).map((e) => `  - ${e.pointer === '' ? '/' : e.pointer}: ${e.message}`);
    const more = result.errors.length > 10 ? `\n  - … and ${result.errors.length - 10} more` : '';
    throw new ConfigError(
      `${what} is not a valid UCP platform profile:\n${lines.join('\n')}${more}\nA valid one is written by: ucp-location platform-profile init --out <file>`,
    );
  }
  const digest = createHash('sha256').update(bytes).digest('hex');
  return {
    url: entry.url ?? derivedProfileUrl(bytes),
    file: entry.file,
    profile: result.profile,
    derived: entry.url === undefined,
    rejected: result.rejected,
    digest,
  };
}

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Case of scheme and host, default port and the like do not make two URLs different. */
function normalisedUrl(url: string): string {
  return new URL(url).href;
}
