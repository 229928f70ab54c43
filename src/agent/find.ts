/**
 * find_locations: one list out of one or many businesses.
 *
 * Two orders, because a business's own pages are in no distance order (R-S4: distance implies no
 * ordering):
 *  - with `near`, the bridge reads up to `maxMatchesPerBusiness` matches from each business,
 *    computes each one's geodesic distance itself and sorts the union, nearest first; when a
 *    business had more matches than that, the answer says so (nearer ones may be among the
 *    unread). The sorted union is kept in memory for a while so the following pages are cut from
 *    it; should it be gone, it is read again.
 *  - without `near`, the businesses take turns: one Location from each in its own order (its
 *    relevance for a query), round after round.
 *
 * The cursor handed to the model (cursor.ts) carries the list definition, the instant of the
 * first call (so `open_now` means the same moment on every page, as a business's own cursor
 * requires) and each business's position — its own cursor plus how many of that page were
 * already shown. A business that fails is named in the answer and left out of the rest of the
 * list; the others go on.
 *
 * Every page a business sends goes through a Receiver (receive.ts): the bounds on what the bridge
 * keeps, and the filters no request to a business can express — an `open_at` local wall time and
 * amenity labels — which the request built here therefore leaves out.
 */
import { randomBytes } from 'node:crypto';
import { canonicalJson } from '../domain/cursor.js';
import type { Location } from '../domain/location.js';
import type { SearchRequest, SearchResponse } from '../domain/requests.js';
import { MAX_CURSOR_CHARS, type ListDefinition, type FindArguments } from './arguments.js';
import { mapLimit, withDeadline, type BusinessDirectory, type BusinessHandle } from './businesses.js';
import type { CursorSeal } from './cursor.js';
import { BusinessCallError, ToolInputError, describeFailure, type BusinessFailure } from './errors.js';
import { Receiver } from './receive.js';
import { distanceMeters, formatRadius } from './present.js';
import { ScanCache } from './scan-cache.js';

/** Page size asked of a business while reading matches to sort (the protocol default maximum). */
const SCAN_PAGE = 50;
/** How long a sorted union is kept for the following pages, ms. */
const SCAN_TTL_MS = 15 * 60_000;
/** Longest business cursor carried inside the bridge's own cursor, characters (#37 N11). */
const MAX_BUSINESS_CURSOR_CHARS = 4096;
/** Most Location bytes all kept unions hold together; the oldest go first (#37 N4). */
const SCAN_CACHE_BYTES = 32 * 1024 * 1024;

export interface FoundLocation {
  business: string;
  location: Location;
  distanceMeters?: number;
}

export interface FindOutcome {
  list: ListDefinition;
  order: 'distance' | 'turns';
  results: FoundLocation[];
  /** Position of the first result in the whole list (0-based). */
  offset: number;
  /** Distance order only: how many matches were read and sorted in all. */
  total?: number;
  nextCursor?: string;
  /** Businesses this page drew from (or tried to). */
  asked: string[];
  failures: BusinessFailure[];
  /** Businesses whose matches exceeded the read cap (distance order). */
  capped: string[];
  cap: number;
  /** Messages the businesses attached (info, warnings), prefixed with the business name. */
  notes: string[];
  /** The instant hours are shown for, ms, and whether it is "now". */
  at: number;
  atIsNow: boolean;
  /** An answer with no Locations: why, per business asked, failures first. */
  emptyCauses: string[];
}

interface Position {
  /** Business name. */
  n: string;
  /** The business cursor of the page being consumed (absent: its first page). */
  c?: string;
  /** Locations of that page already shown. */
  k: number;
}

/** What an ordering contributes to the outcome (the rest is common to both). */
type OrderedPart = Omit<FindOutcome, 'list' | 'asked' | 'cap' | 'at' | 'atIsNow' | 'emptyCauses'> & { receiver: Receiver };

interface CursorState {
  v: 1;
  list: ListDefinition;
  /** Instant of the first call, ms. */
  t: number;
  /** Businesses still in the list. */
  b: string[];
  /** Distance order: the sorted union's id, and the offset of the next page. */
  scan?: string;
  o?: number;
  /** Turns: each business's position. */
  s?: Position[];
}

interface Scan {
  entries: FoundLocation[];
  failures: BusinessFailure[];
  capped: string[];
  notes: string[];
  ok: string[];
  expires: number;
  /** JSON bytes of the Locations held (the cache is bounded in bytes). */
  bytes: number;
}

export interface FindContext {
  directory: BusinessDirectory;
  seal: CursorSeal;
  maxMatchesPerBusiness: number;
  concurrency: number;
  now: () => number;
}

export class LocationFinder {
  readonly #scans = new ScanCache<Scan>({ maxEntries: 64, maxBytes: SCAN_CACHE_BYTES });

  constructor(private readonly ctx: FindContext) {}

  async find(args: FindArguments): Promise<FindOutcome> {
    const now = this.ctx.now();
    let state: CursorState | undefined;
    if (args.cursor !== undefined) {
      state = this.#openCursor(args.cursor);
      if (args.definesList && listKey(args.list) !== listKey(state.list)) {
        throw new ToolInputError(
          '"cursor" continues a different list than these arguments describe; pass the cursor with exactly the same other arguments as before (or with none), or leave "cursor" out to start a new list.',
          'cursor',
        );
      }
    }
    const list = state?.list ?? args.list;
    const t = state?.t ?? now;
    const names = state?.b ?? this.#targets(list);
    const single = list.business !== undefined;
    const openAt = list.openAt ?? (list.openNow === true ? new Date(t).toISOString() : undefined);
    const request = buildRequest(list, openAt);
    const at = list.openAt !== undefined ? Date.parse(list.openAt) : list.openNow === true ? t : now;
    const base = { list, asked: names, cap: this.ctx.maxMatchesPerBusiness, at, atIsNow: list.openAt === undefined };

    const { receiver, ...outcome } =
      list.near !== undefined
        ? await this.#byDistance(names, request, list, args.limit, { t, scanId: state?.scan, offset: state?.o ?? 0 })
        : await this.#byTurns(names, request, args.limit, { t, list, positions: state?.s });
    const failures = outcome.failures.map((f) => inUnits(f, list));
    const emptyCauses = outcome.results.length === 0 && outcome.offset === 0 ? receiver.emptyCauses(names, failures) : [];
    const result: FindOutcome = { ...base, ...outcome, failures, emptyCauses };
    // One business asked and it failed: that is the answer, as an error the model can act on.
    const failure = result.failures[0];
    if (single && failure !== undefined && result.results.length === 0) throw new BusinessCallError(failure);
    return result;
  }

  /**
   * Seals a turns cursor no longer than the bridge accepts back: while it is too long, the
   * business with the longest own cursor is left out of the rest of the list, with a note.
   */
  #sealWithin(state: CursorState, remaining: Position[], notes: string[]): string | undefined {
    for (;;) {
      if (remaining.length === 0) return undefined;
      const sealed = this.ctx.seal.seal({ ...state, b: remaining.map((r) => r.n), s: remaining } satisfies CursorState);
      if (sealed.length <= MAX_CURSOR_CHARS) return sealed;
      const longest = remaining.reduce((a, b) => ((b.c?.length ?? 0) > (a.c?.length ?? 0) ? b : a));
      remaining.splice(remaining.indexOf(longest), 1);
      notes.push(tooLongCursorNote(longest.n, longest.c?.length ?? 0));
    }
  }

  #openCursor(cursor: string): CursorState {
    const state = this.ctx.seal.open(cursor) as Partial<CursorState> | null;
    if (
      state === null ||
      typeof state !== 'object' ||
      state.v !== 1 ||
      state.list === undefined ||
      !Array.isArray(state.b) ||
      typeof state.t !== 'number'
    ) {
      throw new ToolInputError('"cursor" is not one this bridge issued; call find_locations again without "cursor".', 'cursor');
    }
    return state as CursorState;
  }

  #targets(list: ListDefinition): string[] {
    if (list.business === undefined) return this.ctx.directory.all.map((h) => h.name);
    const handle = this.ctx.directory.find(list.business);
    if (handle === undefined) throw unknownBusiness(list.business, this.ctx.directory);
    return [handle.name];
  }

  #handle(name: string): BusinessHandle {
    const handle = this.ctx.directory.find(name);
    // Names in a cursor came from this process's configuration, so this is a bridge bug if it fails.
    if (handle === undefined) throw new Error(`business ${name} vanished from the configuration`);
    return handle;
  }

  async #byDistance(
    names: readonly string[],
    request: SearchRequest,
    list: ListDefinition,
    limit: number,
    position: { t: number; scanId: string | undefined; offset: number },
  ): Promise<OrderedPart> {
    const now = this.ctx.now();
    let scanId = position.scanId;
    let scan = scanId === undefined ? undefined : this.#scans.get(scanId);
    if (scan !== undefined && scan.expires < now) scan = undefined;
    const fresh = scan === undefined || scanId === undefined;
    let receiver = new Receiver(this.ctx.directory, list);
    if (scan === undefined || scanId === undefined) {
      ({ scan, receiver } = await this.#scan(names, request, list));
      scanId = randomBytes(12).toString('base64url');
      this.#scans.set(scanId, scan, scan.bytes);
    }
    const offset = position.offset;
    const results = scan.entries.slice(offset, offset + limit);
    const nextOffset = offset + results.length;
    const more = nextOffset < scan.entries.length;
    const nextCursor = more
      ? this.ctx.seal.seal({ v: 1, list, t: position.t, b: scan.ok, scan: scanId, o: nextOffset } satisfies CursorState)
      : undefined;
    return {
      order: 'distance',
      results,
      offset,
      total: scan.entries.length,
      // A later page cut from the kept union: its failures were reported with the first page.
      failures: fresh ? scan.failures : [],
      capped: scan.capped,
      notes: fresh ? scan.notes : [],
      receiver,
      ...(nextCursor !== undefined ? { nextCursor } : {}),
    };
  }

  /** Reads up to the cap of matches from each business and sorts the union by geodesic distance. */
  async #scan(names: readonly string[], request: SearchRequest, list: ListDefinition): Promise<{ scan: Scan; receiver: Receiver }> {
    const cap = this.ctx.maxMatchesPerBusiness;
    const near = list.near;
    const receiver = new Receiver(this.ctx.directory, list);
    const outcomes = await mapLimit(names, this.ctx.concurrency, async (name) => {
      const handle = this.#handle(name);
      try {
        const read = await withDeadline(this.#readMatches(handle, request, cap, receiver), handle.config.timeoutMs, () =>
          businessTimeout(handle),
        );
        return { name, ...read };
      } catch (error) {
        return { name, failure: describeFailure(name, error, 'search') };
      }
    });
    const entries: FoundLocation[] = [];
    const failures: BusinessFailure[] = [];
    const capped: string[] = [];
    const notes: string[] = [];
    const ok: string[] = [];
    let bytes = 0;
    for (const outcome of outcomes) {
      if ('failure' in outcome) {
        failures.push(outcome.failure);
        continue;
      }
      ok.push(outcome.name);
      if (outcome.capped) capped.push(outcome.name);
      bytes += receiver.bytes(outcome.name);
      for (const location of outcome.locations) {
        const meters = distanceMeters(location, near);
        entries.push({ business: outcome.name, location, ...(meters !== undefined ? { distanceMeters: meters } : {}) });
      }
    }
    const order = new Map(names.map((n, i) => [n, i]));
    entries.sort(
      (a, b) =>
        (a.distanceMeters ?? Number.POSITIVE_INFINITY) - (b.distanceMeters ?? Number.POSITIVE_INFINITY) ||
        (order.get(a.business) ?? 0) - (order.get(b.business) ?? 0) ||
        (a.location.id < b.location.id ? -1 : a.location.id > b.location.id ? 1 : 0),
    );
    notes.push(...receiver.notes());
    return { scan: { entries, failures, capped, notes, ok, expires: this.ctx.now() + SCAN_TTL_MS, bytes }, receiver };
  }

  async #readMatches(
    handle: BusinessHandle,
    request: SearchRequest,
    cap: number,
    receiver: Receiver,
  ): Promise<{ locations: Location[]; capped: boolean }> {
    const client = await this.ctx.directory.client(handle);
    const locations: Location[] = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    // Each page brings at least one Location or ends the walk; the bound guards a business that does neither.
    for (let pages = 0; pages <= cap; pages++) {
      const page = await client.search(request, {
        limit: Math.min(SCAN_PAGE, cap - locations.length),
        ...(cursor !== undefined ? { cursor } : {}),
      });
      locations.push(...receiver.take(handle, page));
      const next = page.pagination.cursor;
      if (!page.pagination.has_next_page || next === undefined || seen.has(next)) return { locations, capped: false };
      if (locations.length >= cap) return { locations, capped: true };
      seen.add(next);
      cursor = next;
    }
    return { locations, capped: true };
  }

  async #byTurns(
    names: readonly string[],
    request: SearchRequest,
    limit: number,
    position: { t: number; list: ListDefinition; positions: Position[] | undefined },
  ): Promise<OrderedPart> {
    const positions: Position[] = position.positions ?? names.map((n) => ({ n, k: 0 }));
    const failures: BusinessFailure[] = [];
    const notes: string[] = [];
    const receiver = new Receiver(this.ctx.directory, position.list);
    interface Buffer {
      handle: BusinessHandle;
      items: Location[];
      /** Cursor of the page in `items` (undefined: the first page). */
      pageCursor: string | undefined;
      consumed: number;
      next: string | undefined;
      failed: boolean;
      refills: number;
    }
    const fetchPage = async (handle: BusinessHandle, cursor: string | undefined): Promise<SearchResponse> => {
      const work = (async () => {
        const client = await this.ctx.directory.client(handle);
        return client.search(request, { limit, ...(cursor !== undefined ? { cursor } : {}) });
      })();
      const page = await withDeadline(work, handle.config.timeoutMs, () => businessTimeout(handle));
      return { ...page, locations: receiver.take(handle, page) };
    };
    const buffers: Buffer[] = await mapLimit(positions, this.ctx.concurrency, async (p): Promise<Buffer> => {
      const handle = this.#handle(p.n);
      try {
        const page = await fetchPage(handle, p.c);
        return {
          handle,
          items: page.locations.slice(p.k),
          pageCursor: p.c,
          consumed: Math.min(p.k, page.locations.length),
          next: page.pagination.has_next_page ? page.pagination.cursor : undefined,
          failed: false,
          refills: 0,
        };
      } catch (error) {
        failures.push(describeFailure(p.n, error, 'search'));
        return { handle, items: [], pageCursor: p.c, consumed: p.k, next: undefined, failed: true, refills: 0 };
      }
    });
    const results: FoundLocation[] = [];
    while (results.length < limit) {
      let progressed = false;
      for (const buffer of buffers) {
        if (results.length >= limit) break;
        if (buffer.items.length === 0 && buffer.next !== undefined && !buffer.failed && buffer.refills < 5) {
          // The business served fewer than asked (its own page maximum): read its next page.
          buffer.refills += 1;
          try {
            const page = await fetchPage(buffer.handle, buffer.next);
            buffer.pageCursor = buffer.next;
            buffer.items = [...page.locations];
            buffer.consumed = 0;
            buffer.next = page.pagination.has_next_page ? page.pagination.cursor : undefined;
          } catch (error) {
            failures.push(describeFailure(buffer.handle.name, error, 'search'));
            buffer.failed = true;
          }
        }
        const item = buffer.items.shift();
        if (item === undefined) continue;
        buffer.consumed += 1;
        results.push({ business: buffer.handle.name, location: item });
        progressed = true;
      }
      if (!progressed) break;
    }
    notes.unshift(...receiver.notes());
    const remaining: Position[] = [];
    for (const buffer of buffers) {
      if (buffer.failed) continue;
      const name = buffer.handle.name;
      const position: Position | undefined =
        buffer.items.length > 0
          ? { n: name, k: buffer.consumed, ...(buffer.pageCursor !== undefined ? { c: buffer.pageCursor } : {}) }
          : buffer.next !== undefined
            ? { n: name, k: 0, c: buffer.next }
            : undefined;
      if (position === undefined) continue;
      if (position.c !== undefined && position.c.length > MAX_BUSINESS_CURSOR_CHARS) {
        // Carried inside our cursor it would make one the bridge refuses (#37 N11): stop this business here.
        notes.push(tooLongCursorNote(name, position.c.length));
        continue;
      }
      remaining.push(position);
    }
    const nextCursor = this.#sealWithin(
      { v: 1, list: position.list, t: position.t, b: remaining.map((r) => r.n), s: remaining },
      remaining,
      notes,
    );
    return {
      order: 'turns',
      results,
      offset: 0,
      failures,
      capped: [],
      notes: [...new Set(notes)],
      receiver,
      ...(nextCursor !== undefined ? { nextCursor } : {}),
    };
  }
}

export function unknownBusiness(name: string, directory: BusinessDirectory): ToolInputError {
  return new ToolInputError(
    `No business is called ${JSON.stringify(name)}; use one of the configured names or URLs: ${directory.describeNames()} (list_businesses shows their status).`,
    'business',
  );
}

export function listKey(list: ListDefinition): string {
  return canonicalJson(list);
}

/** The UCP search request a list definition stands for (the instant resolved for open_now). */
export function buildRequest(list: ListDefinition, openAt: string | undefined): SearchRequest {
  const request: SearchRequest = {};
  if (list.query !== undefined) request.query = list.query;
  if (list.near !== undefined && list.radius !== undefined) request.distance = { center: list.near, max: list.radius.meters };
  const filters: NonNullable<SearchRequest['filters']> = {};
  if (openAt !== undefined) filters.hours = { open_at: openAt };
  if (list.amenities !== undefined) filters.amenities = [...list.amenities];
  if (list.items !== undefined) filters.items = [...list.items];
  if (Object.keys(filters).length > 0) request.filters = filters;
  if (list.language !== undefined) request.context = { language: list.language };
  return request;
}

/** A limit in the other unit, rounded down so it stays within the limit: "310 mi". */
function roughly(meters: number, unit: 'km' | 'mi'): string {
  const value = unit === 'mi' ? meters / 1609.344 : meters / 1000;
  return value >= 10 ? `${Math.floor(value)} ${unit}` : `${Math.floor(value * 10) / 10} ${unit}`;
}

/** A business's radius refusal restated in the unit the model used: "at most 500 km (310.69 mi)". */
function inUnits(failure: BusinessFailure, list: ListDefinition): BusinessFailure {
  const max = failure.max_radius_meters;
  if (max === undefined || list.radius === undefined) return failure;
  const unit = list.radius.unit;
  const other = unit === 'mi' ? 'km' : 'mi';
  return {
    ...failure,
    reason: `${failure.business} searches at most ${formatRadius(max, unit)} (${roughly(max, other)}) from a point; "radius" ${formatRadius(list.radius.meters, unit)} is more. Use a "radius" of at most ${formatRadius(max, unit)}.`,
  };
}

/** The error a business's deadline raises: named, with its limit, as the model reads it. */
export function businessTimeout(handle: BusinessHandle): BusinessCallError {
  const seconds = Math.round(handle.config.timeoutMs / 100) / 10;
  return new BusinessCallError({
    business: handle.name,
    kind: 'timeout',
    code: 'timeout',
    reason: `${handle.name} did not answer within ${seconds} s; try again later, or use another business.`,
  });
}

function tooLongCursorNote(business: string, chars: number): string {
  return `${business} gave a continuation too long for this bridge to carry (${chars} characters); its further results are left out of this list. Ask ${business} alone with more filters to see more of it.`;
}
