/**
 * Probing from outside needs real Locations of the Business: the checker gathers public ones
 * through a bounded browse (search `{}`, a few pages) and the canonical ids of `--alias` hints
 * (lookup), then picks, per probe, one whose published data makes the probe decisive.
 */
import { isUsableGeo } from '../domain/geodesy.js';
import type { Geo, Location } from '../domain/location.js';
import type { Samples } from './check.js';
import { locationsOf, type Call, type Operation, type OperationClient } from './operation-client.js';
import { hoursProbe, isRecord, type HoursProbe } from './oracle.js';
import type { AliasHint } from './types.js';

/** Page size asked for while sampling and walking result sets. */
export const SAMPLE_PAGE = 50;
const SAMPLE_PAGES = 4;

function asLocation(value: Record<string, unknown>): Location | undefined {
  return typeof value['id'] === 'string' && typeof value['name'] === 'string' ? (value as unknown as Location) : undefined;
}

export async function gatherSamples(
  client: OperationClient | undefined,
  advertised: ReadonlySet<Operation>,
  aliases: readonly AliasHint[],
  privateIds: readonly string[],
): Promise<Samples> {
  const byId = new Map<string, Location>();
  const add = (call: Call): void => {
    for (const raw of locationsOf(call.outcome)) {
      const loc = asLocation(raw);
      if (loc !== undefined && !byId.has(loc.id) && !privateIds.includes(loc.id)) byId.set(loc.id, loc);
    }
  };
  if (client === undefined) return { locations: [], note: 'no binding could be used' };
  if (advertised.has('search')) {
    let cursor: string | undefined;
    for (let page = 0; page < SAMPLE_PAGES; page++) {
      const call = await client.call('search', {
        pagination: cursor === undefined ? { limit: SAMPLE_PAGE } : { limit: SAMPLE_PAGE, cursor },
      });
      add(call);
      cursor = nextCursor(call);
      if (cursor === undefined) break;
    }
  }
  const canonical = [...new Set(aliases.map((a) => a.id))].filter((id) => !byId.has(id) && !privateIds.includes(id));
  if (advertised.has('lookup') && canonical.length > 0) add(await client.call('lookup', { ids: canonical.slice(0, 10) }));
  const note = `${byId.size} public Location(s) seen in a bounded browse${canonical.length > 0 ? ' and alias lookups' : ''}`;
  return { locations: [...byId.values()], note };
}

/** The cursor of a successful page that says there is a next one. */
export function nextCursor(call: Call): string | undefined {
  if (call.outcome.kind !== 'success') return undefined;
  const p = call.outcome.payload['pagination'];
  return isRecord(p) && p['has_next_page'] === true && typeof p['cursor'] === 'string' ? p['cursor'] : undefined;
}

export type GeoLocation = Location & { geo: Geo };

export function withGeo(samples: Samples): GeoLocation[] {
  return samples.locations.filter((l): l is GeoLocation => isRecord(l.geo) && isUsableGeo(l.geo));
}

/** A Location with geo whose schedule reads differently in its zone and in UTC, with the instants. */
export function withHoursProbe(samples: Samples, fromMs: number): { location: GeoLocation; probe: HoursProbe } | undefined {
  for (const location of withGeo(samples)) {
    const probe = hoursProbe(location, fromMs);
    if (probe !== null) return { location, probe };
  }
  return undefined;
}

export interface WalkResult {
  ids: string[];
  /** Every page's call, in order. */
  calls: Call[];
  /** False when the walk stopped at the page cap with more pages announced. */
  complete: boolean;
  /** The first call that did not succeed, if any. */
  failed?: Call;
}

/** Follows cursors from `request` for at most `maxPages` pages, collecting Location ids. */
export async function walkSearch(
  client: OperationClient,
  request: Record<string, unknown>,
  maxPages: number,
  stopWhen?: (ids: readonly string[]) => boolean,
): Promise<WalkResult> {
  const ids: string[] = [];
  const calls: Call[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const pagination = isRecord(request['pagination']) ? request['pagination'] : {};
    const call = await client.call('search', { ...request, pagination: cursor === undefined ? pagination : { ...pagination, cursor } });
    calls.push(call);
    if (call.outcome.kind !== 'success') return { ids, calls, complete: false, failed: call };
    for (const raw of locationsOf(call.outcome)) if (typeof raw['id'] === 'string') ids.push(raw['id']);
    cursor = nextCursor(call);
    if (cursor === undefined || stopWhen?.(ids) === true) return { ids, calls, complete: cursor === undefined };
  }
  return { ids, calls, complete: false };
}
