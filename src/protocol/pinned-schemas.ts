/**
 * The release's own schema documents (`schemas/2026-08-25/`), pinned in the package so that
 * validating `dev.ucp.*` payloads never needs the network. Each file's `$id` is its public URL
 * under `https://ucp.dev/2026-08-25/schemas/`, which is also the URL profiles advertise.
 * The profile schemas (`profile/`) belong to the profile validator and are not loaded here.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deepFreeze, isSchemaObject, type JsonSchema } from './schema-walk.js';

/** Public base URL of the release's schema documents. */
export const UCP_SCHEMA_BASE = 'https://ucp.dev/2026-08-25/schemas/';

export const UCP_METADATA_SCHEMA_URL = `${UCP_SCHEMA_BASE}ucp.json`;
export const LOCATION_SEARCH_SCHEMA_URL = `${UCP_SCHEMA_BASE}common/location_search.json`;
export const LOCATION_LOOKUP_SCHEMA_URL = `${UCP_SCHEMA_BASE}common/location_lookup.json`;
export const ERROR_RESPONSE_SCHEMA_URL = `${UCP_SCHEMA_BASE}common/types/error_response.json`;
export const MCP_TOOL_CALL_SCHEMA_URL = `${UCP_SCHEMA_BASE}transports/mcp_tool_call.json`;

/** Subfolders of the release directory owned by other validators. */
const FOREIGN_FOLDERS = new Set(['profile']);

/** Same relative depth from `src/protocol/` and from the built `dist/protocol/`. */
const RELEASE_DIR = fileURLToPath(new URL('../../schemas/2026-08-25/', import.meta.url));

function jsonFiles(dir: string, top: boolean): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) return top && FOREIGN_FOLDERS.has(entry) ? [] : jsonFiles(full, false);
    return entry.endsWith('.json') ? [full] : [];
  });
}

let cache: ReadonlyMap<string, JsonSchema> | undefined;

/**
 * URL → frozen document, read once from the package. Throws when a file is not valid JSON or its
 * `$id` does not match its path (a packaging bug, never a user error).
 */
export function pinnedSchemaDocuments(): ReadonlyMap<string, JsonSchema> {
  if (cache !== undefined) return cache;
  const docs = new Map<string, JsonSchema>();
  for (const file of jsonFiles(RELEASE_DIR, true).sort()) {
    const url = UCP_SCHEMA_BASE + relative(RELEASE_DIR, file).split(sep).join('/');
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isSchemaObject(parsed) || parsed.$id !== url) {
      throw new Error(`Pinned schema ${file} must be a JSON object whose $id is ${url}`);
    }
    docs.set(url, deepFreeze(parsed));
  }
  cache = docs;
  return docs;
}
