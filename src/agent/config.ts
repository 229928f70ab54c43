/**
 * Which businesses the agent bridge talks to: repeatable `--business <url>` / `--business
 * <name>=<url>` flags and an optional JSON file (`--config`). Everything is checked at start, so a
 * typo fails the command with a message naming the flag or key rather than surfacing later as a
 * business that is "unreachable" in the middle of a conversation.
 *
 * A name is what the model passes as `business`; without one it is derived from the host
 * (`https://www.stores.example` → `stores.example`, `http://127.0.0.1:8080` → `127.0.0.1:8080`),
 * which keeps it readable and tells the model where the answers come from.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { causeMessage, ConfigError } from '../errors.js';
import { SafeFetchError, parseFetchUrl } from '../protocol/safe-fetch.js';
import { errorCodeOf } from '../protocol/error-code.js';

export type TransportChoice = 'auto' | 'mcp' | 'rest';

export interface AgentBusiness {
  /** What the model passes as `business`; unique, compared case-insensitively. */
  name: string;
  /** The business origin (or any URL on it); discovery reads its `/.well-known/ucp`. */
  url: string;
  /** Longest one business may take to answer one tool call, discovery included, ms. */
  timeoutMs: number;
  /** `auto`: MCP when both sides offer it, else REST. */
  transport: TransportChoice;
}

export interface AgentSettings {
  businesses: AgentBusiness[];
  /**
   * To order by distance, the bridge reads up to this many matches from each business (its own
   * pages are in no distance order, R-S4), then sorts what it read.
   */
  maxMatchesPerBusiness: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_MATCHES = 100;
/** Largest `maxMatchesPerBusiness`: sorting more in memory per call is not worth the fan-out cost. */
const MAX_MATCHES_CEILING = 1_000;

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

const businessSchema = z.strictObject({
  name: z.string().regex(NAME_PATTERN, 'use letters, digits, ".", "_", ":" or "-" (at most 64 characters)').optional(),
  url: z.string().min(1, 'give the business origin, e.g. "https://stores.example"'),
  timeoutMs: z.number().int().min(100).max(120_000).optional(),
  transport: z.enum(['auto', 'mcp', 'rest']).optional(),
});

const fileSchema = z.strictObject({
  $schema: z.string().optional(),
  businesses: z.array(businessSchema).optional(),
  timeoutMs: z.number().int().min(100).max(120_000).optional(),
  maxMatchesPerBusiness: z.number().int().min(1).max(MAX_MATCHES_CEILING).optional(),
  /** Path of the bridge's private JWK (or JWK Set) file, relative to the config file; like --signing-key. */
  signingKey: z.string().min(1, 'give the path of a private JWK file, e.g. "platform-key.jwk"').optional(),
  /** Like --require-business-signatures. */
  requireBusinessSignatures: z.boolean().optional(),
});

export type AgentConfigFile = z.infer<typeof fileSchema>;

/** Parses one `--business` value: `<url>` or `<name>=<url>`. */
export function parseBusinessFlag(value: string): { name?: string; url: string } {
  const text = value.trim();
  const scheme = text.indexOf('://');
  const equals = text.indexOf('=');
  // `name=https://…`: an `=` before the scheme separates a name (a URL's own `=` comes later).
  if (equals > 0 && (scheme < 0 || equals < scheme)) {
    const name = text.slice(0, equals).trim();
    const url = text.slice(equals + 1).trim();
    if (!NAME_PATTERN.test(name)) {
      throw new ConfigError(
        `--business ${JSON.stringify(value)}: the name ${JSON.stringify(name)} must use letters, digits, ".", "_", ":" or "-"; e.g. --business acme=https://stores.acme.example`,
      );
    }
    if (url === '')
      throw new ConfigError(`--business ${JSON.stringify(value)} has a name but no URL; e.g. --business ${name}=https://stores.example`);
    return { name, url };
  }
  if (text === '')
    throw new ConfigError('--business needs a URL, e.g. --business https://stores.example or --business acme=https://stores.acme.example');
  return { url: text };
}

/** A readable default name: the host without `www.`, with the port when it is not the scheme's default. */
export function deriveName(url: string): string {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^www\./i, '').replace(/^\[|\]$/g, '');
  return parsed.port === '' ? host : `${host}:${parsed.port}`;
}

/** Reads and checks an agent configuration file. */
export async function loadAgentConfigFile(path: string): Promise<AgentConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    const code = errorCodeOf(cause);
    throw new ConfigError(`--config: cannot read ${path} (${code === 'ENOENT' ? 'no such file' : code || String(cause)})`, { cause });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`--config: ${path} is not valid JSON (${causeMessage(cause)})`, { cause });
  }
  return parseAgentConfig(value, path);
}

export function parseAgentConfig(value: unknown, source = 'agent configuration'): AgentConfigFile {
  const parsed = fileSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const key = issue.path.map(String).join('.');
    return `  - ${key === '' ? '(top level)' : `"${key}"`}: ${issue.message}`;
  });
  throw new ConfigError(`${source} is invalid:\n${lines.join('\n')}\nSee docs/agent.md for the keys.`);
}

/**
 * The businesses from the flags and the file (file entries first, then flags), every URL checked
 * and every name unique. At least one business is required.
 */
export function resolveSettings(
  flags: readonly string[],
  file: AgentConfigFile | undefined,
  options: { allowLoopback: boolean },
): AgentSettings {
  const defaultTimeout = file?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const given: {
    name?: string | undefined;
    url: string;
    timeoutMs?: number | undefined;
    transport?: TransportChoice | undefined;
    from: string;
  }[] = [
    ...(file?.businesses ?? []).map((b, i) => ({ ...b, from: `businesses[${i}]` })),
    ...flags.map((flag) => ({ ...parseBusinessFlag(flag), from: `--business ${flag}` })),
  ];
  if (given.length === 0) {
    throw new ConfigError(
      'name at least one business: --business https://stores.example (repeatable; --business acme=https://… to name it), or a "businesses" list in --config',
    );
  }
  const businesses: AgentBusiness[] = [];
  const names = new Map<string, string>();
  const origins = new Map<string, string>();
  for (const entry of given) {
    const url = checkUrl(entry.url, entry.from, options.allowLoopback);
    const name = entry.name ?? deriveName(url);
    const key = name.toLowerCase();
    const clash = names.get(key);
    if (clash !== undefined) {
      throw new ConfigError(
        `${entry.from}: the name ${JSON.stringify(name)} is already used by ${clash}; give each business its own name (name=url)`,
      );
    }
    const origin = new URL(url).origin;
    const sameOrigin = origins.get(origin);
    if (sameOrigin !== undefined) throw new ConfigError(`${entry.from}: ${origin} is already configured as ${JSON.stringify(sameOrigin)}`);
    names.set(key, entry.from);
    origins.set(origin, name);
    businesses.push({ name, url, timeoutMs: entry.timeoutMs ?? defaultTimeout, transport: entry.transport ?? 'auto' });
  }
  return { businesses, maxMatchesPerBusiness: file?.maxMatchesPerBusiness ?? DEFAULT_MAX_MATCHES };
}

function checkUrl(raw: string, from: string, allowLoopback: boolean): string {
  try {
    const url = parseFetchUrl(raw.trim(), allowLoopback);
    // An origin reads better without the slash WHATWG adds; discovery only uses the origin anyway.
    return url.pathname === '/' && url.search === '' ? url.origin : url.href;
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    const hint =
      error.reason === 'insecure_http'
        ? ' Plain http is accepted only for a business on this machine, with --allow-loopback (local development).'
        : ' Give the business origin, e.g. https://stores.example.';
    throw new ConfigError(`${from}: ${error.message}.${hint}`, { cause: error });
  }
}
