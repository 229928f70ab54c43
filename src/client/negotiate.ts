/**
 * Platform-side negotiation, pure: given the Business profile (validated, possibly the leaf of the
 * selected release) and the Platform profile (validated), decide the active capabilities, the
 * binding verdict of every declared entity, and the usable transports. No I/O; `discovery.ts`
 * fetches and hands the documents in.
 *
 * Authority binding already removed failing entries in `validateProfile` (R-N3: before any schema
 * is fetched); here every entity's verdict is re-derived with `checkAuthorityBinding` so it can be
 * shown, and a capability lost to binding is told apart from one the Platform simply lacks.
 */
import { checkAuthorityBinding } from '../protocol/authority.js';
import { negotiateCapabilities, responseCapabilities, type ActiveCapabilities, type DroppedCapability } from '../protocol/negotiation.js';
import type { RegistryName, RejectedEntity } from '../protocol/profile.js';
import { COMMON_SERVICE, LOOKUP_CAPABILITY, SEARCH_CAPABILITY, type UcpProfile } from '../protocol/types.js';
import { isRecord, type BindingName, type Operation } from './caller.js';
import { CapabilitiesIncompatibleError, ProfileError } from './errors.js';

export type ProfileSource = 'business' | 'platform';

/** One registry entry of either profile, with its authority-binding verdict and fate. */
export interface EntityVerdict {
  source: ProfileSource;
  registry: RegistryName;
  name: string;
  version: string | undefined;
  /** Services only: the binding's transport (a service name appears once per transport). */
  transport: string | undefined;
  schema: string | undefined;
  /** Binding of `name` to `schema`; null when the entry declares no schema URL. */
  binding: { ok: true; kind: 'exact' | 'prefix' } | { ok: false; reason: string } | null;
  /** Kept by profile validation (false: treated as absent, never activated). */
  accepted: boolean;
  /** Why profile validation dropped it (binding and every other reason). */
  rejection: string | undefined;
}

export interface RejectedEntityReport extends RejectedEntity {
  source: ProfileSource;
  /** True when authority binding is among the reasons. */
  bindingFailed: boolean;
}

export interface TransportOffer {
  transport: BindingName;
  endpoint: string;
}

export interface NegotiationInput {
  /** The Business profile as published (before validation), for verdicts of dropped entries. */
  businessRaw: unknown;
  business: UcpProfile;
  businessRejected: readonly RejectedEntity[];
  platformRaw: unknown;
  platform: UcpProfile;
  platformRejected: readonly RejectedEntity[];
  /** The negotiated release (from `selectVersion`). */
  version: string;
}

export interface NegotiationDecision {
  active: ActiveCapabilities;
  dropped: DroppedCapability[];
  rejected: RejectedEntityReport[];
  entities: EntityVerdict[];
  /** Usable bindings, MCP first. */
  transports: TransportOffer[];
}

export const OPERATION_CAPABILITY: Readonly<Record<Operation, string>> = {
  search: SEARCH_CAPABILITY,
  lookup: LOOKUP_CAPABILITY,
};

const REGISTRIES: readonly RegistryName[] = ['services', 'capabilities', 'payment_handlers'];

export function decideNegotiation(input: NegotiationInput): NegotiationDecision {
  const { active, dropped } = negotiateCapabilities(input.business.ucp.capabilities ?? {}, input.platform.ucp.capabilities ?? {}, {
    protocolVersion: input.version,
  });
  const rejected = [
    ...input.businessRejected.map((r) => report(r, 'business', input.businessRaw)),
    ...input.platformRejected.map((r) => report(r, 'platform', input.platformRaw)),
  ];
  const entities = [
    ...verdicts(input.businessRaw, 'business', input.businessRejected),
    ...verdicts(input.platformRaw, 'platform', input.platformRejected),
  ];
  const decision: NegotiationDecision = {
    active,
    dropped,
    rejected,
    entities,
    transports: transportsOf(input.business, input.platform, input.version),
  };

  const roots = Object.values(OPERATION_CAPABILITY).filter((name) => Object.hasOwn(active, name));
  if (roots.length === 0) throw capabilityFailure(decision, Object.values(OPERATION_CAPABILITY));
  return decision;
}

/**
 * Why `operation` cannot run under `decision`: binding (the Business declared it, but under a
 * schema host that does not own the name) or an empty intersection. Undefined when it can run.
 */
export function operationUnavailable(
  decision: NegotiationDecision,
  operation: Operation,
): ProfileError | CapabilitiesIncompatibleError | undefined {
  const name = OPERATION_CAPABILITY[operation];
  return Object.hasOwn(decision.active, name) ? undefined : capabilityFailure(decision, [name]);
}

/**
 * When no binding of `dev.ucp.common` is usable because the Business's service entries failed
 * authority binding, that (not a missing transport) is the failure to report.
 */
export function serviceBindingFailure(decision: NegotiationDecision): ProfileError | undefined {
  if (decision.transports.length > 0) return undefined;
  const lost = decision.rejected.filter(
    (r) => r.source === 'business' && r.registry === 'services' && r.name === COMMON_SERVICE && r.bindingFailed,
  );
  if (lost.length === 0) return undefined;
  return new ProfileError(
    'binding_failed',
    'business_profile',
    `The business declares ${COMMON_SERVICE} with a schema URL that fails authority binding, so no transport can be used (R-N2, R-N3):\n  ${lost.map((r) => `${r.pointer}: ${r.reason}`).join('\n  ')}`,
    { rejected: lost },
  );
}

/** Root capability + active extensions of it (R-G6), as name → schema URL. */
export function operationSchemas(
  decision: NegotiationDecision,
  operation: Operation,
): { root: { name: string; schema: string }; extensions: { name: string; schemaUrl: string }[] } | undefined {
  const rootName = OPERATION_CAPABILITY[operation];
  const names = Object.keys(responseCapabilities(decision.active, rootName));
  const entity = (n: string): { schema?: unknown } | undefined => (Object.hasOwn(decision.active, n) ? decision.active[n] : undefined);
  const rootSchema = entity(rootName)?.schema;
  if (typeof rootSchema !== 'string') return undefined;
  const extensions = names
    .filter((n) => n !== rootName)
    .flatMap((n) => {
      const schemaUrl = entity(n)?.schema;
      return typeof schemaUrl === 'string' ? [{ name: n, schemaUrl }] : [];
    });
  return { root: { name: rootName, schema: rootSchema }, extensions };
}

function capabilityFailure(decision: NegotiationDecision, wanted: readonly string[]): ProfileError | CapabilitiesIncompatibleError {
  const lostToBinding = decision.rejected.filter(
    (r) => r.source === 'business' && r.registry === 'capabilities' && r.bindingFailed && wanted.includes(r.name),
  );
  const wantedList = wanted.join(' / ');
  if (lostToBinding.length > 0) {
    const reasons = lostToBinding.map((r) => `${r.name} (${r.pointer}): ${r.reason}`).join('\n  ');
    const lost = [...new Set(lostToBinding.map((r) => r.name))].join(' and ');
    return new ProfileError(
      'binding_failed',
      'business_profile',
      `The business declares ${lost} with a schema URL that fails authority binding, so it is treated as absent (R-N2, R-N3):\n  ${reasons}\nThe business must reference a schema hosted by the namespace owner (for dev.ucp.*, https://ucp.dev/...).`,
      { rejected: lostToBinding },
    );
  }
  const relevant = decision.dropped.filter((d) => wanted.includes(d.name));
  const why = relevant.length > 0 ? relevant.map((d) => `${d.name}: ${d.detail}`).join('; ') : `the business does not offer ${wantedList}`;
  return new CapabilitiesIncompatibleError(
    `No compatible ${wantedList} capability between this platform and the business: ${why}. Add the business's version of the capability to the platform profile's ucp.capabilities (see "ucp-location platform-profile init").`,
    relevant,
  );
}

function report(r: RejectedEntity, source: ProfileSource, raw: unknown): RejectedEntityReport {
  const entry = rawEntry(raw, r.registry, r.name, r.index);
  const schema = isRecord(entry) && typeof entry['schema'] === 'string' ? entry['schema'] : undefined;
  const bindingFailed = schema !== undefined && !checkAuthorityBinding(r.name, schema).ok;
  return { ...r, source, bindingFailed };
}

function verdicts(raw: unknown, source: ProfileSource, rejected: readonly RejectedEntity[]): EntityVerdict[] {
  const ucp = isRecord(raw) ? raw['ucp'] : undefined;
  if (!isRecord(ucp)) return [];
  const out: EntityVerdict[] = [];
  for (const registry of REGISTRIES) {
    const map = ucp[registry];
    if (!isRecord(map)) continue;
    for (const [name, entries] of Object.entries(map)) {
      if (!Array.isArray(entries)) continue;
      entries.forEach((entry: unknown, index) => {
        const schema = isRecord(entry) && typeof entry['schema'] === 'string' ? entry['schema'] : undefined;
        const version = isRecord(entry) && typeof entry['version'] === 'string' ? entry['version'] : undefined;
        const transport =
          registry === 'services' && isRecord(entry) && typeof entry['transport'] === 'string' ? entry['transport'] : undefined;
        const binding = schema === undefined ? null : checkAuthorityBinding(name, schema);
        const rejection = rejected.find((r) => r.registry === registry && r.name === name && (r.index === index || r.index === -1));
        out.push({
          source,
          registry,
          name,
          version,
          transport,
          schema,
          binding: binding === null ? null : binding.ok ? { ok: true, kind: binding.kind } : { ok: false, reason: binding.reason },
          accepted: rejection === undefined,
          rejection: rejection?.reason,
        });
      });
    }
  }
  return out;
}

function rawEntry(raw: unknown, registry: RegistryName, name: string, index: number): unknown {
  const ucp = isRecord(raw) ? raw['ucp'] : undefined;
  const map = isRecord(ucp) ? ucp[registry] : undefined;
  const entries = isRecord(map) && Object.hasOwn(map, name) ? map[name] : undefined;
  return Array.isArray(entries) && index >= 0 ? (entries as unknown[])[index] : undefined;
}

/**
 * Business `dev.ucp.common` bindings of the negotiated release with an endpoint, restricted to the
 * transports the Platform declares when its profile lists the service at all. MCP first (preferred).
 */
function transportsOf(business: UcpProfile, platform: UcpProfile, version: string): TransportOffer[] {
  const platformBindings = Object.hasOwn(platform.ucp.services, COMMON_SERVICE) ? platform.ucp.services[COMMON_SERVICE] : undefined;
  const platformTransports =
    platformBindings === undefined ? undefined : new Set(platformBindings.filter((b) => b.version === version).map((b) => b.transport));
  const bindings = Object.hasOwn(business.ucp.services, COMMON_SERVICE) ? (business.ucp.services[COMMON_SERVICE] ?? []) : [];
  const offers: TransportOffer[] = [];
  for (const transport of ['mcp', 'rest'] as const) {
    if (platformTransports !== undefined && !platformTransports.has(transport)) continue;
    const binding = bindings.find((b) => b.transport === transport && b.version === version && typeof b.endpoint === 'string');
    if (binding !== undefined && typeof binding.endpoint === 'string') offers.push({ transport, endpoint: binding.endpoint });
  }
  return offers;
}
