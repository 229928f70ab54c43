/**
 * Capability negotiation (R-G4) and response capability selection (R-G6). Pure functions over
 * already-validated registries (see `validateProfile`, which drops entries failing binding).
 *
 * Steps, repeated until nothing changes:
 *  1. keep a Business capability only when the Platform lists the same name, and select the
 *     highest version present in both arrays (exact string equality; `YYYY-MM-DD` strings order
 *     as dates); no mutual version → dropped;
 *  2. drop extensions that no longer reach a root capability through active parents
 *     (single parent: it must be active; multi-parent: at least one must be);
 *  3. drop capabilities whose declared `requires` is not met by the negotiated protocol
 *     version or by the selected versions of the other active capabilities, then go to 2.
 */
import type { CapabilityEntity } from './types.js';
import { compareVersions } from './versions.js';

/** Negotiated capabilities: name → the Business entry of the selected version. */
export type ActiveCapabilities = Record<string, CapabilityEntity>;

export type DropReason =
  | 'not_offered_by_platform'
  | 'no_mutual_version'
  | 'orphaned_extension'
  | 'requires_protocol'
  | 'requires_capability'
  /** Platform side: the entity's schema could not be fetched or compiled, so it is treated as absent. */
  | 'schema_unavailable';

export interface DroppedCapability {
  name: string;
  reason: DropReason;
  /** A sentence for logs and diagnostics (e.g. the CLI's negotiate output). */
  detail: string;
}

export interface IntersectOptions {
  /**
   * The negotiated `ucp.version`. When absent, `requires.protocol` cannot be evaluated and is
   * skipped; callers on a request path always know it and should pass it.
   */
  protocolVersion?: string;
}

export interface Negotiation {
  active: ActiveCapabilities;
  /** Every Business capability that did not survive, with the first reason it fell. */
  dropped: DroppedCapability[];
}

interface VersionConstraint {
  min?: unknown;
  max?: unknown;
}

/** Parent names of a capability; empty for a root capability. */
export function parentsOf(entity: CapabilityEntity): string[] {
  const ext = entity.extends;
  if (typeof ext === 'string') return [ext];
  if (Array.isArray(ext)) return ext.filter((p): p is string => typeof p === 'string');
  return [];
}

/** Inclusive range check; a missing bound does not constrain. */
export function satisfiesConstraint(version: string, constraint: VersionConstraint): boolean {
  if (typeof constraint.min === 'string' && compareVersions(version, constraint.min) < 0) return false;
  if (typeof constraint.max === 'string' && compareVersions(version, constraint.max) > 0) return false;
  return true;
}

function describeRange(c: VersionConstraint): string {
  const min = typeof c.min === 'string' ? c.min : '…';
  const max = typeof c.max === 'string' ? c.max : '…';
  return `[${min}, ${max}]`;
}

function entriesOf(registry: Record<string, CapabilityEntity[]>, name: string): CapabilityEntity[] {
  if (!Object.hasOwn(registry, name)) return [];
  const list = registry[name];
  return Array.isArray(list) ? list.filter((e) => typeof e === 'object' && e !== null && typeof e.version === 'string') : [];
}

/** Names reachable from a root (a capability without parents) through active parents. */
function anchored(active: ReadonlyMap<string, CapabilityEntity>): Set<string> {
  const reached = new Set<string>();
  for (const [name, entity] of active) if (parentsOf(entity).length === 0) reached.add(name);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [name, entity] of active) {
      if (!reached.has(name) && parentsOf(entity).some((p) => reached.has(p))) {
        reached.add(name);
        grew = true;
      }
    }
  }
  return reached;
}

/** Reasons `name`'s declared requirements fail against the current active set, if any. */
function unmetRequirement(
  declarations: readonly CapabilityEntity[],
  active: ReadonlyMap<string, CapabilityEntity>,
  protocolVersion: string | undefined,
): { reason: DropReason; detail: string } | null {
  for (const decl of declarations) {
    const req = decl.requires;
    if (req === undefined || req === null || typeof req !== 'object') continue;
    // Typed, but from a peer's profile: only objects are constraints.
    const proto: unknown = req.protocol;
    if (protocolVersion !== undefined && proto !== undefined && proto !== null && typeof proto === 'object') {
      if (!satisfiesConstraint(protocolVersion, proto)) {
        return {
          reason: 'requires_protocol',
          detail: `requires protocol ${describeRange(proto)} but the negotiated version is ${protocolVersion}`,
        };
      }
    }
    const caps: unknown = req.capabilities;
    if (caps === undefined || caps === null || typeof caps !== 'object') continue;
    const constraints: [string, unknown][] = Object.entries(caps);
    for (const [dep, constraint] of constraints) {
      // A constraint on a capability that is not active constrains nothing: its keys name the
      // parents the extension composes into, and an inactive parent is simply not composed.
      const selected = active.get(dep);
      if (selected === undefined || constraint === null || typeof constraint !== 'object') continue;
      if (!satisfiesConstraint(selected.version, constraint)) {
        return {
          reason: 'requires_capability',
          detail: `requires ${dep} ${describeRange(constraint)} but version ${selected.version} was selected`,
        };
      }
    }
  }
  return null;
}

/**
 * Full negotiation result: the active set and why each other Business capability was dropped.
 * `business` and `platform` are `ucp.capabilities` registries (name → entries).
 */
export function negotiateCapabilities(
  business: Record<string, CapabilityEntity[]>,
  platform: Record<string, CapabilityEntity[]>,
  opts: IntersectOptions = {},
): Negotiation {
  const active = new Map<string, CapabilityEntity>();
  // Entries (both sides) of the selected version, whose `requires` must all hold.
  const declarations = new Map<string, CapabilityEntity[]>();
  const dropped: DroppedCapability[] = [];

  for (const name of Object.keys(business)) {
    const ours = entriesOf(business, name);
    if (ours.length === 0) continue; // advertises nothing
    if (!Object.hasOwn(platform, name)) {
      dropped.push({ name, reason: 'not_offered_by_platform', detail: `the platform profile does not list ${name}` });
      continue;
    }
    const theirs = entriesOf(platform, name);
    const theirVersions = new Set(theirs.map((e) => e.version));
    let chosen: CapabilityEntity | undefined;
    for (const e of ours) {
      if (theirVersions.has(e.version) && (chosen === undefined || compareVersions(e.version, chosen.version) > 0)) chosen = e;
    }
    if (chosen === undefined) {
      dropped.push({
        name,
        reason: 'no_mutual_version',
        detail: `no version of ${name} is listed by both sides (business: ${ours.map((e) => e.version).join(', ')}; platform: ${[...theirVersions].join(', ') || 'none'})`,
      });
      continue;
    }
    const version = chosen.version;
    active.set(name, chosen);
    declarations.set(name, [...ours.filter((e) => e.version === version), ...theirs.filter((e) => e.version === version)]);
  }

  for (;;) {
    // Prune to a fixpoint first, so requirements are judged against a consistent set.
    const reach = anchored(active);
    const orphans = [...active.keys()].filter((n) => !reach.has(n));
    for (const name of orphans) {
      const parents = parentsOf(active.get(name) as CapabilityEntity);
      active.delete(name);
      dropped.push({
        name,
        reason: 'orphaned_extension',
        detail: `extends ${parents.join(', ')}, none of which is active (or reaches an active root)`,
      });
    }
    // Judge every requirement against the same snapshot so the outcome is order-independent.
    const failures: DroppedCapability[] = [];
    for (const name of active.keys()) {
      const unmet = unmetRequirement(declarations.get(name) ?? [], active, opts.protocolVersion);
      if (unmet !== null) failures.push({ name, ...unmet });
    }
    for (const f of failures) active.delete(f.name);
    dropped.push(...failures);
    if (failures.length === 0) break; // orphans were already pruned above; nothing else can change
  }

  return { active: Object.fromEntries(active), dropped };
}

/** R-G4: name → Business entry of the selected version, after pruning and requirement checks. */
export function intersectCapabilities(
  business: Record<string, CapabilityEntity[]>,
  platform: Record<string, CapabilityEntity[]>,
  opts: IntersectOptions = {},
): ActiveCapabilities {
  return negotiateCapabilities(business, platform, opts).active;
}

/**
 * R-G6: the `ucp.capabilities` of a response for the operation whose root capability is
 * `rootCapability` — the root plus every active extension whose ancestry, through active
 * capabilities, reaches it. Empty when the root itself is not active (the caller then answers
 * `capabilities_incompatible`).
 */
export function responseCapabilities(active: ActiveCapabilities, rootCapability: string): Record<string, [{ version: string }]> {
  if (!Object.hasOwn(active, rootCapability)) return {};
  const entity = (n: string): CapabilityEntity | undefined => (Object.hasOwn(active, n) ? active[n] : undefined);
  const relevant = new Set<string>([rootCapability]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const name of Object.keys(active)) {
      const e = entity(name);
      if (e !== undefined && !relevant.has(name) && parentsOf(e).some((p) => relevant.has(p))) {
        relevant.add(name);
        grew = true;
      }
    }
  }
  const ordered = [rootCapability, ...Object.keys(active).filter((n) => n !== rootCapability && relevant.has(n))];
  return Object.fromEntries(ordered.map((n) => [n, [{ version: (entity(n) as CapabilityEntity).version }]]));
}
