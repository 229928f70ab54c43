/**
 * Profile validation for both roles (R-D1..R-D4, R-D6, R-N1..R-N3).
 *
 * Two levels, on purpose:
 *  - the envelope (`ucp`, `version`, the registries as maps of arrays, `keys`, `supported_versions`)
 *    is structural: any problem makes the whole profile malformed (`profile_malformed`);
 *  - registry entries are judged one by one: an entry with a bad name, a bad shape, a non-https
 *    `spec`, a `schema` URL that fails authority binding, a `dev.ucp.*` version other than
 *    `ucp.version`, or a non-https endpoint is removed from the returned profile and reported in
 *    `rejected` — "treated as not present and never activated" — while the rest goes on.
 *
 * No network I/O. The JSON Schemas are package assets under `schemas/2026-08-25/profile/`, read
 * and compiled once, on first use.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { checkAuthorityBinding } from './authority.js';
import { checkNamingConvention, isReservedUcpName } from './names.js';
import type { EntityKind } from './names.js';
import type { ProfileRole, UcpProfile } from './types.js';
import { ajvParam } from './validation-errors.js';

export type RegistryName = 'services' | 'capabilities' | 'payment_handlers';

/** A structural problem: `pointer` is an RFC 6901 JSON pointer into the profile document. */
export interface ProfileIssue {
  pointer: string;
  message: string;
}

/** One registry entry that was dropped; `index` is its position in the array (-1: the whole key). */
export interface RejectedEntity {
  pointer: string;
  registry: RegistryName;
  name: string;
  index: number;
  reason: string;
}

export type ProfileValidation =
  | { ok: true; profile: UcpProfile; errors: []; rejected: RejectedEntity[] }
  | { ok: false; errors: ProfileIssue[]; rejected: RejectedEntity[] };

export interface ValidateProfileOptions {
  /**
   * The document is a version-specific leaf profile (reached through `supported_versions`):
   * it must not carry `supported_versions` itself (R-D6).
   */
  leaf?: boolean;
  /**
   * Local development only: accept `http://127.0.0.1:port`, `http://[::1]:port` and
   * `http://localhost:port` where https is otherwise required (service endpoints, `spec` URLs,
   * `supported_versions` URIs). Authority binding of `schema` URLs is never relaxed: loopback
   * hosts cannot own a namespace, so `dev.ucp.*` entries must still use https://ucp.dev schemas.
   */
  allowLoopbackHttp?: boolean;
}

const PROFILE_SCHEMA_DIR = new URL('../../schemas/2026-08-25/profile/', import.meta.url);
const COMMON_ID = 'https://ucp-location.invalid/schemas/2026-08-25/profile/profile-common.json';
const VERSION_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

const REGISTRY_KIND: Readonly<Record<RegistryName, EntityKind>> = {
  services: 'service',
  capabilities: 'capability',
  payment_handlers: 'payment_handler',
};
const REGISTRIES: readonly RegistryName[] = ['services', 'capabilities', 'payment_handlers'];

interface Validators {
  envelope: Record<ProfileRole, ValidateFunction>;
  item: Record<ProfileRole, Record<RegistryName, ValidateFunction>>;
}

let compiled: Validators | undefined;

function loadSchema(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(file, PROFILE_SCHEMA_DIR), 'utf8')) as Record<string, unknown>;
}

/** Compiles the profile schemas once per process; later calls reuse the same functions. */
function validators(): Validators {
  if (compiled !== undefined) return compiled;
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false });
  addFormatsModule.default(ajv);
  ajv.addSchema(loadSchema('profile-common.json'));
  const business = ajv.compile(loadSchema('business-profile.json'));
  const platform = ajv.compile(loadSchema('platform-profile.json'));
  const def = (name: string): ValidateFunction => {
    const v = ajv.getSchema(`${COMMON_ID}#/$defs/${name}`);
    if (v === undefined) throw new Error(`profile-common.json has no $defs/${name}`);
    return v;
  };
  compiled = {
    envelope: { business, platform },
    item: {
      business: {
        services: def('service_business'),
        capabilities: def('capability_business'),
        payment_handlers: def('payment_handler_business'),
      },
      platform: {
        services: def('service_platform'),
        capabilities: def('capability_platform'),
        payment_handlers: def('payment_handler_platform'),
      },
    },
  };
  return compiled;
}

/** RFC 6901 escaping of one reference token. */
function token(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

/** Turns Ajv errors into pointer + sentence pairs a profile author can act on. */
function describeErrors(errors: readonly ErrorObject[] | null | undefined, base = ''): ProfileIssue[] {
  const out: ProfileIssue[] = [];
  const seen = new Set<string>();
  // A failed oneOf also reports each branch's own failure at the same place; in these schemas
  // nothing else validates that place (only `extends` uses oneOf), so its sentence alone is clearer.
  const oneOfAt = (errors ?? []).filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath);
  for (const e of errors ?? []) {
    // `if` merely announces that its `then` failed; the `then` error says what is wrong.
    if (e.keyword === 'if') continue;
    if (e.keyword !== 'oneOf' && oneOfAt.some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`))) continue;
    let pointer = base + e.instancePath;
    let message: string;
    switch (e.keyword) {
      case 'required': {
        const missing = String(ajvParam(e, 'missingProperty'));
        pointer = `${pointer}/${token(missing)}`;
        message = `required member "${missing}" is missing`;
        break;
      }
      case 'pattern':
        message =
          ajvParam(e, 'pattern') === VERSION_PATTERN
            ? `must be a dated release in YYYY-MM-DD form, e.g. "2026-08-25" (got ${JSON.stringify(e.data)})`
            : `${JSON.stringify(e.data)} does not match ${String(ajvParam(e, 'pattern'))}`;
        break;
      case 'enum':
        message = `must be one of ${JSON.stringify(ajvParam(e, 'allowedValues'))} (got ${JSON.stringify(e.data)})`;
        break;
      case 'const':
        message = `must be ${JSON.stringify(ajvParam(e, 'allowedValue'))} (got ${JSON.stringify(e.data)})`;
        break;
      case 'format':
        message = `must be a valid ${String(ajvParam(e, 'format'))} (got ${JSON.stringify(e.data)})`;
        break;
      case 'type': {
        const expected = String(ajvParam(e, 'type'));
        message = `must be ${expected === 'object' ? 'an object' : expected === 'array' ? 'an array' : `a ${expected}`} (got ${kindOf(e.data)})`;
        break;
      }
      case 'minItems':
        message = `must not be empty`;
        break;
      case 'oneOf':
        message = e.instancePath.endsWith('/extends')
          ? `must be a reverse-domain name or a non-empty array of them (got ${JSON.stringify(e.data)})`
          : `must match exactly one of the allowed shapes`;
        break;
      case 'not':
        message = 'must not contain private key members (d, p, q, dp, dq, qi, oth, k); publish public keys only';
        break;
      case 'propertyNames':
        continue; // the nested pattern error names the bad key
      default:
        message = e.message ?? `fails "${e.keyword}"`;
    }
    const key = `${pointer}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ pointer, message });
  }
  return out;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * null when `value` is an acceptable https URL (or, when allowed, a loopback http URL);
 * otherwise a sentence saying what was expected.
 */
function httpsProblem(value: string, what: string, allowLoopbackHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${what} ${JSON.stringify(value)} is not an absolute URL; expected https://…`;
  }
  if (url.username !== '' || url.password !== '') return `${what} ${JSON.stringify(value)} must not contain credentials`;
  if (url.protocol === 'https:') return null;
  if (allowLoopbackHttp && url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  const hint = allowLoopbackHttp ? ' (plain http is accepted only for 127.0.0.1, [::1] and localhost in development)' : '';
  return `${what} ${JSON.stringify(value)} must use https${hint}`;
}

/** Every reason an individual registry entry must be dropped; empty when it stands. */
function entityProblems(
  registry: RegistryName,
  name: string,
  entry: unknown,
  role: ProfileRole,
  protocolVersion: string,
  allowLoopbackHttp: boolean,
): string[] {
  const problems: string[] = [];
  const naming = checkNamingConvention(name, REGISTRY_KIND[registry]);
  if (!naming.ok) problems.push(naming.reason);
  const validate = validators().item[role][registry];
  if (!validate(entry)) {
    for (const issue of describeErrors(validate.errors)) problems.push(`${issue.pointer || '(entry)'}: ${issue.message}`);
  }
  if (!isRecord(entry)) return problems;
  const { spec, schema, version, endpoint } = entry;
  if (typeof spec === 'string') {
    const p = httpsProblem(spec, 'spec URL', allowLoopbackHttp);
    if (p !== null) problems.push(p);
  }
  if (typeof schema === 'string') {
    const binding = checkAuthorityBinding(name, schema);
    if (!binding.ok) problems.push(`authority binding failed: ${binding.reason}`);
  }
  // R-D4 covers UCP-authored services, capabilities and extensions; payment-handler versions
  // belong to their authors (overview, "Component Versioning"), so handlers are exempt.
  if (registry !== 'payment_handlers' && isReservedUcpName(name) && typeof version === 'string' && version !== protocolVersion) {
    problems.push(
      `${name} declares version ${JSON.stringify(version)} but every dev.ucp.* entry must declare the profile's ucp.version ${JSON.stringify(protocolVersion)}`,
    );
  }
  if (registry === 'services' && typeof endpoint === 'string') {
    const p = httpsProblem(endpoint, 'endpoint', allowLoopbackHttp);
    if (p !== null) problems.push(p);
  }
  return problems;
}

/**
 * Validates a parsed profile document for `role`. On success `profile` is a deep copy with
 * every rejected entry removed (a registry key whose entries were all rejected disappears).
 */
export function validateProfile(json: unknown, role: ProfileRole, options: ValidateProfileOptions = {}): ProfileValidation {
  const allowLoopbackHttp = options.allowLoopbackHttp ?? false;
  const envelope = validators().envelope[role];
  const errors: ProfileIssue[] = envelope(json) ? [] : describeErrors(envelope.errors);
  if (errors.length === 0 && !isRecord(json)) errors.push({ pointer: '', message: 'a profile must be a JSON object' });
  if (errors.length > 0 || !isRecord(json) || !isRecord(json.ucp)) {
    return { ok: false, errors, rejected: [] };
  }
  const ucp = json.ucp;
  const supported = ucp.supported_versions;
  if (options.leaf === true && supported !== undefined) {
    errors.push({
      pointer: '/ucp/supported_versions',
      message: 'a version-specific (leaf) profile must not contain supported_versions; it describes exactly one release',
    });
  }
  if (role === 'business' && isRecord(supported)) {
    for (const [v, uri] of Object.entries(supported)) {
      if (typeof uri !== 'string') continue; // already reported by the schema
      const p = httpsProblem(uri, `profile URI for ${v}`, allowLoopbackHttp);
      if (p !== null) errors.push({ pointer: `/ucp/supported_versions/${token(v)}`, message: p });
    }
  }
  if (errors.length > 0) return { ok: false, errors, rejected: [] };

  const protocolVersion = String(ucp.version);
  const profile = structuredClone(json) as UcpProfile;
  const out = profile.ucp as unknown as Record<string, unknown>;
  const rejected: RejectedEntity[] = [];
  for (const registry of REGISTRIES) {
    const map = ucp[registry];
    if (map === undefined) continue;
    const kept: [string, unknown[]][] = [];
    for (const [name, entries] of Object.entries(map as Record<string, unknown[]>)) {
      const base = `/ucp/${registry}/${token(name)}`;
      const survivors: unknown[] = [];
      entries.forEach((entry, index) => {
        const problems = entityProblems(registry, name, entry, role, protocolVersion, allowLoopbackHttp);
        if (problems.length === 0) survivors.push(structuredClone(entry));
        else rejected.push({ pointer: `${base}/${index}`, registry, name, index, reason: problems.join('; ') });
      });
      if (entries.length === 0) {
        // An empty array advertises nothing; a malformed key is still worth reporting.
        const naming = checkNamingConvention(name, REGISTRY_KIND[registry]);
        if (!naming.ok) rejected.push({ pointer: base, registry, name, index: -1, reason: naming.reason });
        else kept.push([name, survivors]);
      } else if (survivors.length > 0) {
        kept.push([name, survivors]);
      }
    }
    // fromEntries defines own properties, so even a hostile "__proto__" key stays inert data.
    out[registry] = Object.fromEntries(kept);
  }
  return { ok: true, profile, errors: [], rejected };
}
