/**
 * The engine's limits, defined once: their meaning, defaults and the bounds a value must keep.
 * The configuration file (config.ts) and the service (service.ts) both check values with
 * `limitProblem`, so a value is refused in the same words whichever way it arrives.
 */

export interface EngineLimits {
  /** Page size when `pagination.limit` is absent (R-S9). */
  defaultPageSize: number;
  /** Largest page returned; larger `limit` values are served in pages of this size. */
  maxPageSize: number;
  /** Largest `distance.max` honoured, metres; larger → UcpRequestError `radius_too_large` (never clamped). */
  maxRadiusMeters: number;
  /** Total Locations reachable by a bounded browse (no distance/serves operand), across all pages. */
  browseCap: number;
  /** Lookup batch maximum of distinct ids (R-L3: a Business accepts at least 10). */
  lookupBatchMax: number;
}

export const DEFAULT_LIMITS: Readonly<EngineLimits> = {
  defaultPageSize: 10,
  maxPageSize: 50,
  maxRadiusMeters: 500_000,
  browseCap: 100,
  lookupBatchMax: 50,
};

export type EngineLimitName = keyof EngineLimits;

/** Every limit, in the order the docs list them. */
export const ENGINE_LIMIT_NAMES: readonly EngineLimitName[] = [
  'defaultPageSize',
  'maxPageSize',
  'maxRadiusMeters',
  'browseCap',
  'lookupBatchMax',
];

/**
 * The bound of each limit. A radius of 0 m would refuse every `distance` with a positive radius,
 * so it must be more than 0; the others count Locations or ids, so they are whole numbers of at
 * least 1 — a lookup batch at least 10, which R-L3 requires a Business to accept.
 */
const BOUNDS: Readonly<Record<EngineLimitName, { ok: (value: number) => boolean; wanted: string }>> = {
  defaultPageSize: { ok: (v) => Number.isSafeInteger(v) && v >= 1, wanted: 'a whole number ≥ 1' },
  maxPageSize: { ok: (v) => Number.isSafeInteger(v) && v >= 1, wanted: 'a whole number ≥ 1' },
  maxRadiusMeters: { ok: (v) => Number.isFinite(v) && v > 0, wanted: 'a finite number of metres > 0' },
  browseCap: { ok: (v) => Number.isSafeInteger(v) && v >= 1, wanted: 'a whole number ≥ 1' },
  lookupBatchMax: {
    ok: (v) => Number.isSafeInteger(v) && v >= 10,
    wanted: 'a whole number ≥ 10 (R-L3: a Business accepts at least 10 ids per lookup)',
  },
};

/** What a value of the limit `name` must be: "must be a whole number ≥ 10 (…)". */
export function limitRequirement(name: EngineLimitName): string {
  return `must be ${BOUNDS[name].wanted}`;
}

/** What is wrong with `value` for the limit `name` (its `limitRequirement`), or null when it is acceptable. */
export function limitProblem(name: EngineLimitName, value: unknown): string | null {
  return typeof value === 'number' && BOUNDS[name].ok(value) ? null : limitRequirement(name);
}

/** What is wrong with the limits taken together, or null: a default page larger than the largest page. */
export function limitsConflict(limits: EngineLimits): string | null {
  return limits.defaultPageSize > limits.maxPageSize
    ? `maxPageSize (${limits.maxPageSize}) must be ≥ defaultPageSize (${limits.defaultPageSize})`
    : null;
}
