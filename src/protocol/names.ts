/**
 * Reverse-domain names (R-N1): the registry keys of services, capabilities, payment handlers,
 * amenities and signals. Pure string rules; no URL or DNS knowledge lives here.
 */

/**
 * The reverse-domain pattern of UCP (`reverse_domain_name.json`), anchored, lower-case only.
 * First label: starts with a letter, interior hyphens. Later labels: may start with a digit and
 * may contain `_` (e.g. `identity_linking`). At least two labels.
 */
export const REVERSE_DOMAIN_PATTERN = /^[a-z](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9_-]*[a-z0-9_])?)+$/;

/** The namespace reserved for the UCP governing body (`dev.ucp.*`, authority `ucp.dev`). */
export const RESERVED_UCP_NAMESPACE = 'dev.ucp';

export type EntityKind = 'capability' | 'service' | 'payment_handler';

export type NameCheck = { ok: true } | { ok: false; reason: string };

/**
 * Minimum label counts implied by the naming convention. The `{reverse-domain}` part is a
 * domain the author controls, so it has at least two labels (`dev.ucp`, `com.example`); a
 * service adds one label (`dev.ucp.common`), a capability at least one more
 * (`dev.ucp.common.location.search`). Without the Public Suffix List we cannot tell where the
 * reverse-domain part ends (`uk.co.example.shopping` is fine), so a label count is the only
 * part of the shape that can be checked mechanically.
 */
export const MIN_LABELS: Readonly<Record<Exclude<EntityKind, 'payment_handler'>, number>> = {
  service: 3,
  capability: 4,
};

export function isReverseDomainName(s: unknown): s is string {
  return typeof s === 'string' && REVERSE_DOMAIN_PATTERN.test(s);
}

/** True for `dev.ucp` itself and anything below it; only the UCP body may publish these. */
export function isReservedUcpName(name: string): boolean {
  return name === RESERVED_UCP_NAMESPACE || name.startsWith(`${RESERVED_UCP_NAMESPACE}.`);
}

/**
 * Checks a registry key against the naming convention for its kind (R-N1):
 * services are `{reverse-domain}.{service}`, capabilities (and extensions)
 * `{reverse-domain}.{service}.{capability}`; payment handlers only need to be reverse-domain
 * names (the overview exempts them from the service/capability shape).
 */
export function checkNamingConvention(name: string, kind: EntityKind): NameCheck {
  if (!isReverseDomainName(name)) {
    return {
      ok: false,
      reason:
        `${JSON.stringify(name)} is not a reverse-domain name: expected lower-case dot-separated labels ` +
        `such as "com.example.shopping.loyalty" (pattern ${REVERSE_DOMAIN_PATTERN.source})`,
    };
  }
  if (kind === 'payment_handler') return { ok: true };
  const labels = name.split('.').length;
  const min = MIN_LABELS[kind];
  if (labels < min) {
    const shape = kind === 'service' ? '{reverse-domain}.{service}' : '{reverse-domain}.{service}.{capability}';
    const example = kind === 'service' ? 'com.example.shopping' : 'com.example.shopping.loyalty';
    return {
      ok: false,
      reason: `${kind} name ${JSON.stringify(name)} has ${labels} label(s); a ${kind} name must follow ${shape} (at least ${min} labels, e.g. "${example}")`,
    };
  }
  return { ok: true };
}
