/**
 * `--serve-profile <file>`: publishes a Platform profile on 127.0.0.1 (random port) for the
 * duration of one command, so a Business running locally with `--allow-loopback-profiles` can
 * fetch it. Served the way R-D5 asks of any profile (cacheable, with a validator, no redirect),
 * so the Business's cache works as in production (client/loopback-profile-server.ts).
 */
import { readFile } from 'node:fs/promises';
import { serveProfilesOnLoopback } from '../../client/index.js';
import { causeMessage, ConfigError } from '../../errors.js';
import { errorCodeOf } from '../../protocol/error-code.js';

export const SERVED_PROFILE_PATH = '/platform-profile.json';

export interface ServedProfile {
  /** `http://127.0.0.1:<port>/platform-profile.json` */
  url: string;
  /** The parsed document (handed to the SDK so it is not fetched back). */
  document: unknown;
  close(): Promise<void>;
}

/** Reads and parses `file`, then serves it; ConfigError when the file is unreadable or not JSON. */
export async function serveProfileFile(file: string): Promise<ServedProfile> {
  return serveProfileDocument(await readProfileFile(file));
}

/** Reads and parses a profile file for --serve-profile; ConfigError when it is unreadable or not JSON. */
export async function readProfileFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    const code = errorCodeOf(cause);
    throw new ConfigError(
      `--serve-profile: cannot read ${file} (${code === 'ENOENT' ? 'no such file' : code || String(cause)}). Create one with: ucp-location platform-profile init --out ${file}`,
      { cause },
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`--serve-profile: ${file} is not valid JSON (${causeMessage(cause)})`, { cause });
  }
  return document;
}

/** Serves a Platform profile document already at hand (e.g. a generated default one). */
export async function serveProfileDocument(document: unknown): Promise<ServedProfile> {
  const server = await serveProfilesOnLoopback(new Map([[SERVED_PROFILE_PATH, document]]), { maxAgeSeconds: 60 });
  return { url: `${server.origin}${SERVED_PROFILE_PATH}`, document, close: () => server.close() };
}
