/**
 * The business server's configuration file (`ucp-location.json`): loading and validation.
 *
 * Every key is optional; defaults live in `DEFAULT_CONFIG` and are documented in
 * docs/configuration.md. Unknown keys and wrong types are refused with a `ConfigError` naming the
 * dotted key, because a typo that silently falls back to a default (e.g. a rate limit) is worse
 * than a server that does not start.
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { causeMessage, ConfigError } from './errors.js';
import { canonicalLanguageTag } from './domain/localize.js';
import { LOOKUP_CAPABILITY, SEARCH_CAPABILITY } from './protocol/types.js';
import type { UcpProfile } from './protocol/types.js';
import {
  DEFAULT_LIMITS,
  limitProblem,
  limitRequirement,
  limitsConflict,
  type EngineLimitName,
  type EngineLimits,
} from './domain/engine-limits.js';
import { LOG_LEVELS } from './logging.js';
import type { LogLevel } from './logging.js';
import { editDistance } from './protocol/edit-distance.js';
import { errorCodeOf } from './protocol/error-code.js';

export type LocationCapabilityName = typeof SEARCH_CAPABILITY | typeof LOOKUP_CAPABILITY;

/** The UCP bindings a Business can offer (R-D2): MCP at `/ucp/mcp`, REST at `/ucp/locations/*`. */
export type BindingName = 'mcp' | 'rest';
export const BINDINGS: readonly BindingName[] = ['mcp', 'rest'];

/**
 * How requests' RFC 9421 signatures are treated (docs/signatures.md): `off` ignores them (every
 * caller is who it claims); `if-present` verifies any signature sent and refuses a bad one, while an
 * unsigned caller is served as unverified; `required` refuses unsigned requests (401).
 */
export type SignatureVerification = 'off' | 'if-present' | 'required';
export const SIGNATURE_VERIFICATIONS: readonly SignatureVerification[] = ['off', 'if-present', 'required'];

export interface SignaturesConfig {
  /**
   * A private JWK or JWK Set file (relative paths: from the configuration file's directory). Its
   * public keys are published in the profile's `keys[]` and every answer is signed with its first
   * private key. Absent: answers are not signed and the profile lists no keys.
   */
  signingKey: string | undefined;
  verify: SignatureVerification;
}

/**
 * A Platform profile trusted from a local file (`--trust-platform-profile <file>[=<url>]`): the
 * document is read and validated at start and pre-approved under `url`, or, without one, under a
 * URL derived from the file's content (see trusted-profiles.ts).
 */
export interface TrustedProfileFile {
  file: string;
  url?: string;
}

/** A sliding-window budget: at most `limit` units in any span of `windowSeconds`. */
export interface RateBudget {
  limit: number;
  windowSeconds: number;
}

export interface RateLimitConfig {
  /** false disables every limit (benchmarks, trusted single-tenant deployments). */
  enabled: boolean;
  /**
   * Per client IP address (socket peer): every request to a binding endpoint, charged before its
   * body is read (so invalid requests count too), and each further message of a JSON-RPC batch.
   */
  perIp: RateBudget;
  /**
   * Per Platform profile URL, shared by every client address naming it — except that each client
   * address keeps `clientShare` of it for itself, which no other address can spend.
   */
  perProfile: RateBudget;
  /**
   * Extra, stricter budget for searches that carry `filters.items` (availability probing,
   * R-P2), charged per profile and per IP on top of the budgets above.
   */
  itemSearch: RateBudget;
  /**
   * Fraction (0–1) of each per-profile budget (`perProfile`, and the per-profile part of
   * `itemSearch`) reserved to every client address: a caller that stays within
   * `ceil(limit × clientShare)` calls per window naming a profile is never refused by that
   * profile's budget, however much other addresses spent of it. 0 reserves nothing.
   */
  clientShare: number;
}

export interface CorsConfig {
  /** Exact origins allowed to call from a browser, or `*` for any. Empty = CORS off. */
  origins: string[] | '*';
  /** Preflight cache lifetime, seconds. */
  maxAgeSeconds: number;
}

export interface ProfileFetchConfig {
  /** Connect + response deadline for fetching a Platform profile, ms. */
  timeoutMs: number;
  /** Largest Platform profile accepted, bytes (R-N4 requires ≥ 128 KiB). */
  maxBytes: number;
  /** Resolved Platform profiles kept in the LRU cache. */
  cacheEntries: number;
}

export interface ServerConfig {
  logLevel: LogLevel;
  /** Location capabilities advertised in /.well-known/ucp; tools exist only for these (R-D3). */
  capabilities: LocationCapabilityName[];
  limits: EngineLimits;
  /**
   * Secret the pagination cursor keys are derived from. Every instance serving the same store must share it;
   * when absent a random key is generated at start (cursors then die with the process).
   */
  cursorSecret: string | undefined;
  /** BCP 47 tag of the strings of records that do not name their own `language` (R-C3); canonical form. */
  dataLanguage: string | undefined;
  /** Pre-approved Platform profiles by profile URL; used instead of fetching (R-G2). */
  trustedPlatforms: Record<string, UcpProfile>;
  /**
   * Pre-approved Platform profiles read from files (relative paths: from the configuration file's
   * directory). Unlike `trustedPlatforms`, their URLs are announced to callers — in the tool
   * descriptions and in every discovery error — because they exist so that MCP hosts connecting
   * directly know which profile URL to send.
   */
  trustedPlatformProfiles: TrustedProfileFile[];
  /** Bindings offered; the profile advertises only these and the other routes answer 404. */
  transports: BindingName[];
  cors: CorsConfig;
  rateLimits: RateLimitConfig;
  /** Largest request body accepted on /ucp/*, bytes. */
  maxBodyBytes: number;
  /**
   * Binding requests allowed to wait for their turn on the event loop; beyond it the server sheds
   * load with 503 + Retry-After instead of letting latency grow (see transport/request-turns.ts).
   */
  maxQueuedRequests: number;
  profileFetch: ProfileFetchConfig;
  /**
   * The Business's fallback web page for buyers (draft `continue_url`): returned with discovery and
   * version failures and the `capabilities_incompatible` outcome, so an agent can hand the buyer
   * over when UCP negotiation fails. Absent: no `continue_url` is sent.
   */
  continueUrl: string | undefined;
  /**
   * Where searches read from: `memory` (an in-memory index of the store, rebuilt per dataset,
   * see docs/benchmarks.md) or `store` (SQL on every request). Stores the server opens itself only.
   */
  index: 'memory' | 'store';
  /** RFC 9421 message signatures: the Business's own key, and how requests are verified. */
  signatures: SignaturesConfig;
}

export const DEFAULT_CONFIG: ServerConfig = {
  logLevel: 'info',
  capabilities: [SEARCH_CAPABILITY, LOOKUP_CAPABILITY],
  limits: { ...DEFAULT_LIMITS },
  cursorSecret: undefined,
  dataLanguage: undefined,
  trustedPlatforms: {},
  trustedPlatformProfiles: [],
  transports: [...BINDINGS],
  cors: { origins: [], maxAgeSeconds: 600 },
  rateLimits: {
    enabled: true,
    perIp: { limit: 600, windowSeconds: 60 },
    perProfile: { limit: 3000, windowSeconds: 60 },
    itemSearch: { limit: 60, windowSeconds: 60 },
    clientShare: 0.1,
  },
  maxBodyBytes: 256 * 1024,
  maxQueuedRequests: 4096,
  profileFetch: { timeoutMs: 5000, maxBytes: 256 * 1024, cacheEntries: 1000 },
  continueUrl: undefined,
  index: 'memory',
  signatures: { signingKey: undefined, verify: 'if-present' },
};

const positiveInt = z.number().int().min(1);
/** An engine limit, held to the bound the service checks too (domain/engine-limits.ts). */
const engineLimit = (name: EngineLimitName) =>
  z
    .number()
    .refine((value) => limitProblem(name, value) === null, limitRequirement(name))
    .optional();
const budget = z.strictObject({ limit: positiveInt, windowSeconds: positiveInt });

const schema = z.strictObject({
  $schema: z.string().optional(),
  logLevel: z.enum(LOG_LEVELS as [LogLevel, ...LogLevel[]]).optional(),
  capabilities: z
    .array(z.enum([SEARCH_CAPABILITY, LOOKUP_CAPABILITY]))
    .min(1, 'advertise at least one capability')
    .refine((a) => new Set(a).size === a.length, 'list each capability once')
    .optional(),
  limits: z
    .strictObject({
      defaultPageSize: engineLimit('defaultPageSize'),
      maxPageSize: engineLimit('maxPageSize'),
      maxRadiusMeters: engineLimit('maxRadiusMeters'),
      browseCap: engineLimit('browseCap'),
      lookupBatchMax: engineLimit('lookupBatchMax'),
    })
    .optional(),
  cursorSecret: z.string().min(32, 'use at least 32 characters (e.g. `openssl rand -hex 32`)').optional(),
  dataLanguage: z
    .string()
    .refine((tag) => canonicalLanguageTag(tag) !== null, 'expected a BCP 47 language tag such as "en" or "de-CH"')
    .optional(),
  trustedPlatforms: z
    .record(z.string().refine(isHttpUrl, 'expected an absolute http(s) profile URL'), z.looseObject({ ucp: z.looseObject({}) }))
    .optional(),
  trustedPlatformProfiles: z
    .array(
      z.strictObject({
        file: z.string().min(1, 'expected the path of a platform profile JSON file'),
        url: z.string().refine(isHttpsUrl, 'expected an absolute https URL (the profile URL callers send)').optional(),
      }),
    )
    .optional(),
  transports: z
    .array(z.enum(BINDINGS as [BindingName, ...BindingName[]]))
    .min(1, 'offer at least one binding: ["mcp"], ["rest"] or both')
    .refine((a) => new Set(a).size === a.length, 'list each binding once')
    .optional(),
  cors: z
    .strictObject({
      origins: z
        .union([
          z.literal('*'),
          z.array(z.string().refine(isOrigin, 'expected an origin such as "https://app.example" (scheme, host, optional port; no path)')),
        ])
        .optional(),
      maxAgeSeconds: z.number().int().min(0).optional(),
    })
    .optional(),
  rateLimits: z
    .strictObject({
      enabled: z.boolean().optional(),
      perIp: budget.optional(),
      perProfile: budget.optional(),
      itemSearch: budget.optional(),
      clientShare: z.number().min(0).max(1).optional(),
    })
    .optional(),
  maxBodyBytes: z
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .optional(),
  maxQueuedRequests: z.number().int().min(1).max(1_000_000).optional(),
  index: z.enum(['memory', 'store']).optional(),
  signatures: z
    .strictObject({
      signingKey: z.string().min(1, 'expected the path of a private JWK or JWK Set file').optional(),
      verify: z.enum(['off', 'if-present', 'required']).optional(),
    })
    .optional(),
  profileFetch: z
    .strictObject({
      timeoutMs: z.number().int().min(100).max(60_000).optional(),
      maxBytes: z
        .number()
        .int()
        .min(128 * 1024, 'must be at least 131072 (R-N4: 128 KiB)')
        .optional(),
      cacheEntries: positiveInt.optional(),
    })
    .optional(),
  continueUrl: z
    .string()
    .refine(isHttpsUrl, 'expected an absolute https URL (a page where the buyer can continue, e.g. the store locator)')
    .optional(),
});

type ConfigInput = z.infer<typeof schema>;

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function isHttpUrl(value: string): boolean {
  const url = parseUrl(value);
  return url !== undefined && (url.protocol === 'https:' || url.protocol === 'http:');
}

function isHttpsUrl(value: string): boolean {
  return parseUrl(value)?.protocol === 'https:';
}

function isOrigin(value: string): boolean {
  return isHttpUrl(value) && parseUrl(value)?.origin === value;
}

/**
 * Validates a parsed configuration object and fills in defaults.
 * @param source where the value came from, for error messages (a file path).
 */
export function parseConfig(value: unknown, source = 'configuration'): ServerConfig {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  - ${describeIssue(issue)}`);
    throw new ConfigError(`${source} is invalid:\n${lines.join('\n')}\nSee docs/configuration.md for every key and its default.`);
  }
  const config = merge(parsed.data);
  const conflict = limitsConflict(config.limits);
  if (conflict !== null) throw new ConfigError(`${source} is invalid:\n  - "limits": ${conflict}`);
  return config;
}

/** Reads and validates a JSON configuration file. */
export async function loadConfigFile(path: string): Promise<ServerConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    const code = errorCodeOf(cause);
    const why = code === 'ENOENT' ? 'the file does not exist' : code === 'EACCES' ? 'permission denied' : String(cause);
    throw new ConfigError(`Cannot read configuration file ${path}: ${why}.`, { cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`Configuration file ${path} is not valid JSON: ${causeMessage(cause)}.`, { cause });
  }
  const config = parseConfig(json, path);
  // Profile files named in a configuration file are found next to it, wherever the server starts.
  const base = dirname(resolve(path));
  return {
    ...config,
    trustedPlatformProfiles: config.trustedPlatformProfiles.map((t) => (isAbsolute(t.file) ? t : { ...t, file: resolve(base, t.file) })),
    signatures: {
      ...config.signatures,
      signingKey:
        config.signatures.signingKey === undefined || isAbsolute(config.signatures.signingKey)
          ? config.signatures.signingKey
          : resolve(base, config.signatures.signingKey),
    },
  };
}

function merge(input: ConfigInput): ServerConfig {
  const d = DEFAULT_CONFIG;
  return {
    logLevel: input.logLevel ?? d.logLevel,
    capabilities: input.capabilities ?? [...d.capabilities],
    limits: { ...d.limits, ...stripUndefined(input.limits ?? {}) },
    cursorSecret: input.cursorSecret ?? d.cursorSecret,
    dataLanguage: input.dataLanguage === undefined ? d.dataLanguage : (canonicalLanguageTag(input.dataLanguage) ?? undefined),
    trustedPlatforms: (input.trustedPlatforms ?? {}) as Record<string, UcpProfile>,
    trustedPlatformProfiles: (input.trustedPlatformProfiles ?? []).map((t) =>
      t.url === undefined ? { file: t.file } : { file: t.file, url: t.url },
    ),
    transports: input.transports ?? [...d.transports],
    cors: { ...d.cors, ...stripUndefined(input.cors ?? {}) },
    rateLimits: { ...d.rateLimits, ...stripUndefined(input.rateLimits ?? {}) },
    maxBodyBytes: input.maxBodyBytes ?? d.maxBodyBytes,
    maxQueuedRequests: input.maxQueuedRequests ?? d.maxQueuedRequests,
    profileFetch: { ...d.profileFetch, ...stripUndefined(input.profileFetch ?? {}) },
    continueUrl: input.continueUrl ?? d.continueUrl,
    index: input.index ?? d.index,
    signatures: { ...d.signatures, ...stripUndefined(input.signatures ?? {}) },
  };
}

function stripUndefined<T extends object>(o: T): { [K in keyof T]-?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]-?: Exclude<T[K], undefined> };
}

function dotted(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
    .join('.')
    .replace(/\.\[/g, '[');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const at = dotted(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeys(issue.path);
    return issue.keys
      .map((k) => {
        const key = at ? `${at}.${k}` : k;
        const hint = closest(k, known);
        return `unknown key "${key}"${hint ? ` (did you mean "${hint}"?)` : ''}; known keys here: ${known.join(', ')}`;
      })
      .join('\n  - ');
  }
  const where = at ? `"${at}"` : 'the top level';
  if (issue.code === 'invalid_key') {
    const key = issue.path[issue.path.length - 1];
    const parent = dotted(issue.path.slice(0, -1));
    return `"${parent}": key ${JSON.stringify(key)} is invalid: ${issue.issues.map((i) => i.message).join('; ')}`;
  }
  // zod prefixes most messages with "Invalid input: "; the key name already says where.
  return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

/** Keys allowed by the (strict) object schema at `path`, for "did you mean" hints. */
function knownKeys(path: readonly PropertyKey[]): string[] {
  let node: z.core.$ZodType = schema;
  for (const segment of [...path, null]) {
    // Unwrap optional/default wrappers to reach the object.
    for (;;) {
      const def = node._zod.def as { type: string; innerType?: z.core.$ZodType };
      if ((def.type === 'optional' || def.type === 'default') && def.innerType) node = def.innerType;
      else break;
    }
    const def = node._zod.def as { type: string; shape?: Record<string, z.core.$ZodType> };
    if (def.type !== 'object' || !def.shape) return [];
    if (segment === null) return Object.keys(def.shape).filter((k) => k !== '$schema');
    const next = def.shape[String(segment)];
    if (!next) return [];
    node = next;
  }
  return [];
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    // A truncated key ("maxRadius" for "maxRadiusMeters") is the commonest typo.
    const d = c.toLowerCase().startsWith(word.toLowerCase()) ? 0 : editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}
