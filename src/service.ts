/**
 * The location engine: search and lookup use cases, the only place where domain meets store.
 *
 * Division of labour (see store/store.ts): the store narrows with indexes and evaluates exact
 * set predicates (ids, visibility, amenity keys, item availability, locality lists, text); this
 * class applies what must be identical on every store — the exact geodesic `distance` test,
 * point-in-coverage, opening hours, ranking, paging, lookup correlation — on the survivors only,
 * and loads full Location documents only for the Locations actually returned.
 */
import { ConfigError, UcpRequestError } from './errors.js';
import {
  addressLocality,
  buyerLocality,
  LOCALITY_TIER,
  localityTier,
  savedLocationRef,
  type AddressLocality,
  type BuyerLocality,
} from './domain/context-rank.js';
import { decodeCursor, encodeCursor, requestFingerprint, type CursorState } from './domain/cursor.js';
import { DEFAULT_LIMITS, ENGINE_LIMIT_NAMES, limitProblem, limitsConflict, type EngineLimits } from './domain/engine-limits.js';
import {
  distanceFinding,
  localityFinding,
  openAtFinding,
  pointCoverageFinding,
  type MatchExplanation,
  type PredicateFinding,
} from './domain/explanation.js';
import { isUsableGeo } from './domain/geodesy.js';
import { compileStoredSchedule, isOpenCompiled, type CompiledSchedule } from './domain/hours.js';
import { canonicalLanguageTag, localizeLocation, requestedLanguages } from './domain/localize.js';
import type { Coverage, Geo, Location, LookupLocation, RecordLanguages } from './domain/location.js';
import { isBoundedBrowse, planPredicates, type PredicatePlan } from './domain/predicates.js';
import { GeodesicBracket } from './domain/proximity.js';
import { compareIds, compareRank, selectPage, type Bracketed, type RankKey } from './domain/ranking.js';
import type { LookupRequest, LookupResult, Message, PresentationOptions, SearchRequest, SearchResult } from './domain/requests.js';
import {
  compileCoverage,
  coverageContainsPoint,
  normalizeLocalityTarget,
  type CompiledCoverage,
  type LocalityModel,
  type LocalityTarget,
} from './domain/serves.js';
import { AmenityLexicon, type AmenityDescriptions } from './domain/amenity-text.js';
import { presentAt } from './domain/closures.js';
import { queryTerms } from './domain/query-text.js';
import type { Candidate, CandidateQuery, LocationStore, TextQuery } from './store/store.js';

export { DEFAULT_LIMITS, type EngineLimits } from './domain/engine-limits.js';
export type { MatchExplanation, PredicateFinding } from './domain/explanation.js';

/** Every public Location as the engine reads it, at one generation (`LocationService.publicDataset`). */
export interface PublicDataset {
  generation: number;
  /** In id order; `document` is absent only for a Location removed while it was read. */
  rows: { candidate: Candidate; document: Location | undefined }[];
}

export interface ServiceOptions {
  limits?: Partial<EngineLimits>;
  /** Secret the cursor keys are derived from; instances sharing a store must share it. */
  cursorSecret: string;
  /** BCP 47 tag of the strings of records that do not name their `language` (config `dataLanguage`). */
  defaultLanguage?: string;
  /**
   * The request instant (epoch ms), for what a returned Location says about its schedule now
   * (R-C5: spent exceptions omitted, closure warnings). Defaults to the system clock.
   */
  now?: () => number;
}

/**
 * A bounded browse asks the store for the best `browseCap` rows — 4× as many when opening hours
 * (evaluated here, not in the store) will drop some — and asks again for 4× more while too few
 * survive, up to this multiple of the cap. The browse set stays a deterministic function of
 * request and data (a longer prefix of one fixed order), so every page sees the same set.
 */
const BROWSE_SCAN_FACTOR = 64;
/** Compiled schedules / coverages kept per generation before the cache restarts. */
const COMPILED_CACHE_LIMIT = 200_000;
/** Amenity ids, and Locations per id, whose descriptions feed the query lexicon (amenityLexicon). */
const LEXICON_AMENITIES = 256;
const LEXICON_SAMPLE = 64;
/** Reads of one snapshot on a store that cannot pin, before a data change that keeps interrupting them is reported. */
const SNAPSHOT_ATTEMPTS = 3;
/** Location documents read per store call (addresses for context ranking, the whole dataset). */
const ADDRESS_BATCH = 500;
const NO_ADDRESS: AddressLocality = { country: null, region: null, postal: null };

/** The readable buyer signals of a request's `context`. */
interface BuyerContext {
  locality: BuyerLocality | null;
  /** Keys of the public Location `context.location` names (empty when it names none). */
  saved: ReadonlySet<number>;
}

/**
 * A candidate that passed every predicate, with the values it is ranked by. Its distance to the
 * center may still be a bracket (see domain/proximity.ts); `geo` lets it be made exact later.
 */
interface Survivor extends Bracketed {
  key: number;
  geo: Geo | null;
}

function info(code: string, content: string, path?: string): Message {
  return path === undefined ? { type: 'info', code, content } : { type: 'info', code, content, path };
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** The same bounds, in the same words, as the configuration file's `limits` (domain/engine-limits.ts). */
function checkLimits(limits: EngineLimits): void {
  for (const name of ENGINE_LIMIT_NAMES) {
    const problem = limitProblem(name, limits[name]);
    if (problem !== null) throw new ConfigError(`Engine limit ${name} ${problem}; got ${String(limits[name])}`);
  }
  const conflict = limitsConflict(limits);
  if (conflict !== null) throw new ConfigError(`Engine limits: ${conflict}`);
}

export class LocationService {
  readonly limits: EngineLimits;
  private readonly cursorSecret: string;
  private readonly defaultLanguage: string | undefined;
  private readonly now: () => number;
  private cacheGeneration: number | null = null;
  private readonly schedules = new Map<number, CompiledSchedule>();
  private readonly coverages = new Map<number, CompiledCoverage | null>();
  private localityModelCache: LocalityModel | null = null;
  private lexicon: Promise<AmenityLexicon> | null = null;
  /** Public Location key → its address's country / region / postal code, resolved (context ranking). */
  private readonly addresses = new Map<number, AddressLocality>();
  /** Public Location key → its own language and translations (null: none), read once per generation. */
  private readonly languages = new Map<number, RecordLanguages | null>();

  constructor(
    private readonly store: LocationStore,
    options: ServiceOptions,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    checkLimits(this.limits);
    if (typeof options.cursorSecret !== 'string' || options.cursorSecret.length === 0) {
      throw new ConfigError(
        'cursorSecret must be a non-empty string (use a long random value and share it between instances serving one store)',
      );
    }
    this.cursorSecret = options.cursorSecret;
    if (options.defaultLanguage !== undefined) {
      const tag = canonicalLanguageTag(options.defaultLanguage);
      if (tag === null)
        throw new ConfigError(`defaultLanguage ${JSON.stringify(options.defaultLanguage)} is not a BCP 47 language tag (e.g. "en")`);
      this.defaultLanguage = tag;
    }
    this.now = options.now ?? Date.now;
  }

  // ───────────────────────── search ─────────────────────────

  /** Throws UcpRequestError for requests the Business cannot honour. */
  async search(request: SearchRequest, presentation: PresentationOptions = {}): Promise<SearchResult> {
    const plan = planPredicates(request, this.limits);
    // The fingerprint is only needed to open or issue a cursor; most searches fit on one page.
    let fingerprint: string | undefined;
    const fingerprintOf = (): string => (fingerprint ??= requestFingerprint('search', request));
    const cursorToken = request.pagination?.cursor;
    const cursor: CursorState | null = cursorToken === undefined ? null : decodeCursor(cursorToken, fingerprintOf(), this.cursorSecret);
    const pageSize = Math.min(request.pagination?.limit ?? this.limits.defaultPageSize, this.limits.maxPageSize);

    const pinned = await this.store.pin?.(cursor?.snapshot);
    const store = pinned?.store ?? this.store;
    await this.syncGeneration(store);
    const locality = await this.localityTarget(store, plan);
    const unknownItems = await this.unknownItems(store, plan.items);
    if (unknownItems.length > 0) {
      return {
        locations: [],
        pagination: { has_next_page: false, total_count: 0 },
        messages: unknownItems.map((item) =>
          info('item_not_found', `Item ${item} is not known to this Business, so no Location can provide it.`),
        ),
      };
    }

    const query: CandidateQuery = this.candidateQuery(plan, locality);
    const text = await this.textQuery(store, request.query);
    if (text !== null) query.text = text;
    const center = plan.distance?.center ?? plan.servesPoint;
    const bracket = center === null ? null : new GeodesicBracket(center);

    const browse = isBoundedBrowse(plan);
    const buyer = await this.readContext(store, request.context);
    const ranked = browse
      ? await this.browseSet(store, query, plan, buyer)
      : this.survivors(await store.findCandidates(query), plan, bracket);
    // R-C1/R-C2: context orders the set; it chose it only for a browse over the cap (browseSet).
    if (buyer !== null) await this.rankByContext(store, ranked, buyer, center !== null);

    // R-S2: across all pages a browse reaches at most browseCap Locations.
    const served = cursor?.served ?? 0;
    const cap = browse ? this.limits.browseCap : Number.POSITIVE_INFINITY;
    const size = Math.max(0, Math.min(pageSize, cap - served));
    const page = selectPage(ranked, cursor?.position ?? null, size, (r) =>
      bracket === null || r.geo === null ? r.lower : bracket.exact(r.geo),
    );
    const servedAfter = served + page.items.length;
    const hasNext = page.following > page.items.length && page.items.length > 0 && servedAfter < cap;

    // R-C5: the Locations as they stand at the request instant, with the draft's closure warnings;
    // then in the buyer's language (after, so Content-Language names only strings still present).
    const { locations, warnings } = presentAt(await store.getLocations(page.items.map((r) => r.key)), this.now(), plan.openAtMs);
    const localized = await this.localize(store, locations, page.items, request, presentation);
    const last = page.items[page.items.length - 1];
    const result: SearchResult = {
      locations: localized.locations,
      pagination: { has_next_page: hasNext, total_count: ranked.length },
    };
    if (warnings.length > 0) result.messages = warnings;
    if (localized.languages.length > 0) result.contentLanguage = localized.languages;
    if (hasNext && last !== undefined) {
      const position: RankKey = { relevance: last.relevance, distance: last.distance, id: last.id };
      if (last.tier !== undefined) position.tier = last.tier;
      if (last.tieBreak !== undefined) position.tieBreak = last.tieBreak;
      const state: CursorState = { position, served: servedAfter };
      if (pinned !== undefined) state.snapshot = pinned.snapshot;
      result.pagination.cursor = encodeCursor(state, fingerprintOf(), this.cursorSecret);
    }
    return result;
  }

  /**
   * Up to browseCap survivors of the best-ranked rows (no center exists). Without context: by
   * relevance, then id. With a readable context and more matches than the cap, the cap follows
   * the context (R-C1 allows it for a bounded browse only): the best `browseCap` by (locality tier,
   * relevance, id) among the first `browseCap × BROWSE_SCAN_FACTOR` rows by (relevance, id). When
   * the matches fit under the cap, the set is the same as without context.
   */
  private async browseSet(
    store: LocationStore,
    query: CandidateQuery,
    plan: PredicatePlan,
    buyer: BuyerContext | null,
  ): Promise<Survivor[]> {
    const cap = this.limits.browseCap;
    // Most of a store call's cost is finding and ordering the driving rows, not their number, so
    // one slightly larger call beats a second one (browse + open_at at 10k: 2.1 → 1.1 calls per
    // search, -22% time in a side-by-side run).
    let limit = buyer !== null ? cap * BROWSE_SCAN_FACTOR : plan.openAtMs !== null ? cap * 4 : cap;
    for (;;) {
      const rows = await store.findCandidates({ ...query, limit });
      const kept = this.survivors(rows, plan, null);
      if (kept.length >= cap || rows.length < limit || limit >= cap * BROWSE_SCAN_FACTOR) {
        if (buyer !== null && kept.length > cap) await this.rankByContext(store, kept, buyer, false);
        // Without a center every distance is exactly 0: plain rank order (tiers when set above).
        kept.sort((a, b) =>
          compareRank(
            { tier: a.tier ?? 0, relevance: a.relevance, distance: 0, id: a.id },
            { tier: b.tier ?? 0, relevance: b.relevance, distance: 0, id: b.id },
          ),
        );
        return kept.slice(0, cap);
      }
      limit *= 4;
    }
  }

  /**
   * The buyer signals of `context` we rank by (see domain/context-rank.ts), or null when none is
   * readable. `context.location` resolves among public Locations only, so a private or unknown
   * id/alias is ignored.
   */
  private async readContext(store: LocationStore, context: Record<string, unknown> | undefined): Promise<BuyerContext | null> {
    const locality = buyerLocality(context);
    const ref = savedLocationRef(context);
    if (locality === null && ref === null) return null;
    const saved = new Set(ref === null ? [] : ((await store.resolveIds([ref])).get(ref) ?? []));
    if (locality === null && saved.size === 0) return null;
    return { locality, saved };
  }

  /**
   * Sets each result's locality tier from the buyer's context (see docs/ranking.md): as the
   * primary key when no center orders the results, else only as the tie-break after distance.
   */
  private async rankByContext(store: LocationStore, ranked: Survivor[], buyer: BuyerContext, hasCenter: boolean): Promise<void> {
    if (ranked.length === 0) return;
    const locality = buyer.locality;
    if (locality !== null) await this.loadAddresses(store, ranked);
    for (const r of ranked) {
      const tier = buyer.saved.has(r.key)
        ? LOCALITY_TIER.savedLocation
        : locality === null
          ? LOCALITY_TIER.elsewhere
          : localityTier(locality, this.addresses.get(r.key) ?? NO_ADDRESS);
      if (hasCenter) r.tieBreak = tier;
      else r.tier = tier;
    }
  }

  /** Reads (once per data generation) the address of each result not yet known. */
  private async loadAddresses(store: LocationStore, results: readonly Survivor[]): Promise<void> {
    const missing = results.filter((r) => !this.addresses.has(r.key));
    if (this.addresses.size + missing.length > COMPILED_CACHE_LIMIT) this.addresses.clear();
    for (let i = 0; i < missing.length; i += ADDRESS_BATCH) {
      const batch = missing.slice(i, i + ADDRESS_BATCH);
      const docs = new Map((await store.getLocations(batch.map((r) => r.key))).map((d) => [d.id, d.address]));
      for (const r of batch) {
        const locality = addressLocality(docs.get(r.id));
        this.addresses.set(r.key, locality);
      }
    }
  }

  // ───────────────────────── lookup ─────────────────────────

  async lookup(request: LookupRequest, presentation: PresentationOptions = {}): Promise<LookupResult> {
    const plan = planPredicates(request, this.limits);
    const messages: Message[] = [];

    // R-L1/R-L3: dedupe exact strings, keep request order, process the first N distinct ids.
    const firstIndex = new Map<string, number>();
    request.ids.forEach((id, i) => {
      if (!firstIndex.has(id)) firstIndex.set(id, i);
    });
    const distinct = [...firstIndex.keys()];
    const max = this.limits.lookupBatchMax;
    const processed = distinct.slice(0, max);
    const omitted = distinct.length - processed.length;
    if (omitted > 0) {
      messages.push(
        info(
          'batch_limit_applied',
          `Processed the first ${processed.length} of ${distinct.length} distinct identifiers; ${omitted} ${plural(omitted, 'identifier was', 'identifiers were')} not processed.`,
        ),
      );
    }

    const store = (await this.store.pin?.())?.store ?? this.store;
    await this.syncGeneration(store);
    const locality = await this.localityTarget(store, plan);
    const unknownItems = await this.unknownItems(store, plan.items);
    for (const item of unknownItems) {
      messages.push(info('item_not_found', `Item ${item} is not known to this Business, so no Location can provide it.`));
    }

    // Resolve (canonical ids, then aliases) and correlate: key → inputs, in order of first input.
    const inputsByKey = new Map<number, { id: string }[]>();
    if (unknownItems.length === 0) {
      const resolved = await store.resolveIds(processed);
      for (const id of processed) {
        for (const key of resolved.get(id) ?? []) {
          const inputs = inputsByKey.get(key);
          if (inputs === undefined) inputsByKey.set(key, [{ id }]);
          else inputs.push({ id });
        }
      }
    }

    // R-L2: refine the resolved Locations with distance AND serves AND filters.
    const keys = [...inputsByKey.keys()];
    const query = this.candidateQuery(plan, locality);
    query.keys = keys;
    const center = plan.distance?.center ?? plan.servesPoint;
    const bracket = center === null ? null : new GeodesicBracket(center);
    const kept = new Map(this.survivors(keys.length === 0 ? [] : await store.findCandidates(query), plan, bracket).map((r) => [r.key, r]));
    const keptKeys = keys.filter((k) => kept.has(k));
    const keptRows = keptKeys.map((k) => kept.get(k)).filter((r) => r !== undefined);
    const localized = await this.localize(store, await store.getLocations(keptKeys), keptRows, request, presentation);
    const docs = new Map(localized.locations.map((loc) => [loc.id, loc]));

    const locations: LookupLocation[] = [];
    const answered = new Set<string>();
    for (const key of keptKeys) {
      const r = kept.get(key);
      const doc = r === undefined ? undefined : docs.get(r.id);
      const inputs = inputsByKey.get(key);
      if (doc === undefined || inputs === undefined) continue;
      locations.push({ ...doc, inputs: inputs.map((i) => ({ id: i.id })) });
      for (const i of inputs) answered.add(i.id);
    }
    const presented = presentAt(locations, this.now(), plan.openAtMs);
    messages.push(...presented.warnings);
    // Resolved but refined away (R-L2) is not "no such id": say which predicates did it (code unchanged).
    const resolvedIds = new Set([...inputsByKey.values()].flatMap((inputs) => inputs.map((i) => i.id)));
    const predicates = predicateNames(plan);
    for (const id of processed) {
      if (answered.has(id)) continue;
      const path = `$.ids[${firstIndex.get(id) ?? 0}]`;
      if (resolvedIds.has(id) && predicates.length > 0) {
        const by = predicates.length === 1 ? `by ${predicates[0] ?? ''}` : `by one of ${predicates.join(', ')}`;
        messages.push(info('not_found', `${id} resolved but was filtered out ${by}: the Location exists, it does not match.`, path));
      } else {
        messages.push(info('not_found', `Unable to find the location associated with ${id}.`, path));
      }
    }
    const result: LookupResult = { locations: presented.locations };
    if (messages.length > 0) result.messages = messages;
    if (localized.languages.length > 0) result.contentLanguage = localized.languages;
    return result;
  }

  // ───────────────────────── explain ─────────────────────────

  /**
   * "Why (not) matched": whether the public Location `idOrAlias` is in the set a search for
   * `request` selects, decided by the search's own steps (plan → store candidates → survivors),
   * with each predicate's numbers. Every read is from one snapshot: a pinned view when the store
   * can pin, else one generation, read again from the start when the data changed meanwhile.
   * Throws UcpRequestError for a request search would refuse.
   */
  async explain(request: SearchRequest, idOrAlias: string): Promise<MatchExplanation> {
    const plan = planPredicates(request, this.limits);
    return this.onOneSnapshot((store) => this.explainOn(store, plan, request, idOrAlias), `${idOrAlias} was being explained`);
  }

  /**
   * `read` on one snapshot of the data: a pinned view when the store can pin; otherwise the store
   * itself, read again from the start while its generation changed under the read (or `read` saw
   * a change and answered null), a few times at most.
   */
  private async onOneSnapshot<T>(read: (store: LocationStore) => Promise<T | null>, during: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const pinned = await this.store.pin?.();
      const store = pinned?.store ?? this.store;
      const generation = await store.generation();
      const result = await read(store);
      if (result !== null && (pinned !== undefined || (await store.generation()) === generation)) return result;
      if (attempt === SNAPSHOT_ATTEMPTS) {
        throw new UcpRequestError(
          'invalid_request',
          `The data changed while ${during} (${SNAPSHOT_ATTEMPTS} times in a row); ask again once the import has finished.`,
        );
      }
    }
  }

  // ───────────────────────── the whole dataset ─────────────────────────

  /** The data's generation now: it changes with every import and inventory update. */
  generation(): Promise<number> {
    return this.store.generation();
  }

  /**
   * Every public Location (private ones are never indexed for search) with the raw schedule and
   * coverage the engine evaluates, and its document, in id order, from one snapshot of the data:
   * for an operator's view of the whole dataset (the console), never for an answer.
   */
  async publicDataset(): Promise<PublicDataset> {
    return this.onOneSnapshot(async (store) => {
      const generation = await store.generation();
      // No operand at all: every public Location.
      const candidates = await store.findCandidates({ withSchedule: true, withCoverage: true });
      candidates.sort((a, b) => compareIds(a.id, b.id));
      const documents = new Map<string, Location>();
      for (let i = 0; i < candidates.length; i += ADDRESS_BATCH) {
        const batch = candidates.slice(i, i + ADDRESS_BATCH);
        for (const doc of await store.getLocations(batch.map((c) => c.key))) documents.set(doc.id, doc);
      }
      return { generation, rows: candidates.map((candidate) => ({ candidate, document: documents.get(candidate.id) })) };
    }, 'the dataset was being read');
  }

  /** One explanation on one store view; null when the Location changed between two reads. */
  private async explainOn(
    store: LocationStore,
    plan: PredicatePlan,
    request: SearchRequest,
    idOrAlias: string,
  ): Promise<MatchExplanation | null> {
    await this.syncGeneration(store);
    const key = (await store.resolveIds([idOrAlias])).get(idOrAlias)?.[0];
    if (key === undefined) return { asked: idOrAlias, location: null, matched: false, findings: [] };
    const locality = await this.localityTarget(store, plan);
    const unknownItems = await this.unknownItems(store, plan.items);
    const text = await this.textQuery(store, request.query);
    // The search's own steps, on this one Location (R-S8: an unknown item empties every answer).
    const query = this.candidateQuery(plan, locality);
    if (text !== null) query.text = text;
    const center = plan.distance?.center ?? plan.servesPoint;
    const bracket = center === null ? null : new GeodesicBracket(center);
    const kept = unknownItems.length > 0 ? [] : this.survivors(await store.findCandidates({ ...query, keys: [key] }), plan, bracket);

    const [row] = await store.findCandidates({ keys: [key], withSchedule: true, withCoverage: true });
    const [doc] = await store.getLocations([key]);
    if (row === undefined || doc === undefined) return null;
    const geo = row.geo !== null && isUsableGeo(row.geo) ? row.geo : null;
    /** Whether the store keeps this Location for one predicate alone (those it evaluates exactly). */
    const keeps = async (only: CandidateQuery): Promise<Candidate | null> =>
      (await store.findCandidates({ ...only, keys: [key] }))[0] ?? null;

    const findings: PredicateFinding[] = [];
    if (request.query !== undefined) {
      const hit = text === null ? row : await keeps({ text });
      findings.push({ predicate: 'query', pass: hit !== null, terms: queryTerms(request.query), relevance: hit?.relevance ?? null });
    }
    if (plan.distance !== null) findings.push(distanceFinding(plan.distance.center, plan.distance.max, geo));
    if (plan.servesPoint !== null) findings.push(pointCoverageFinding(this.coverageFor(row), geo, plan.servesPoint));
    if (locality !== null) findings.push(localityFinding(locality, (await keeps({ locality: localityQuery(locality) })) !== null));
    if (plan.openAtMs !== null) findings.push(openAtFinding(this.scheduleFor(row), request.filters?.hours?.open_at ?? '', plan.openAtMs));
    if (plan.amenities.length > 0) {
      const missing: string[] = [];
      for (const a of plan.amenities) if ((await keeps({ amenities: [a] })) === null) missing.push(a);
      findings.push({ predicate: 'amenities', pass: missing.length === 0, required: plan.amenities, missing });
    }
    if (plan.items.length > 0) {
      const unavailable: string[] = [];
      for (const i of plan.items) if (!unknownItems.includes(i) && (await keeps({ items: [i] })) === null) unavailable.push(i);
      const pass = unknownItems.length === 0 && unavailable.length === 0;
      findings.push({ predicate: 'items', pass, required: plan.items, unavailable, unknown: unknownItems });
    }
    return { asked: idOrAlias, location: { id: doc.id, name: doc.name }, matched: kept.length > 0, findings };
  }

  /**
   * R-C3: the documents' name, amenity descriptions and exception titles in the request's language
   * (`context.language`, else Accept-Language; RFC 4647 lookup, then the record's own strings), and
   * the languages the answer ended up in. Presentation only: the set and its order are already fixed.
   */
  private async localize(
    store: LocationStore,
    docs: Location[],
    rows: readonly { key: number; id: string }[],
    request: SearchRequest | LookupRequest,
    presentation: PresentationOptions,
  ): Promise<{ locations: Location[]; languages: string[] }> {
    if (docs.length === 0) return { locations: docs, languages: [] };
    const ranges = requestedLanguages(request.context, presentation.acceptLanguage);
    // Translations are read (and parsed) once per data generation: pages repeat popular Locations.
    const missing = rows.map((r) => r.key).filter((k) => !this.languages.has(k));
    if (missing.length > 0) {
      const read = await store.getLanguages(missing);
      if (this.languages.size + missing.length > COMPILED_CACHE_LIMIT) this.languages.clear();
      for (const k of missing) this.languages.set(k, read.get(k) ?? null);
    }
    const keyOf = new Map(rows.map((r) => [r.id, r.key]));
    const languages: string[] = [];
    const locations = docs.map((doc) => {
      const key = keyOf.get(doc.id);
      const strings = key === undefined ? undefined : (this.languages.get(key) ?? undefined);
      const out = localizeLocation(doc, strings, ranges, this.defaultLanguage);
      for (const tag of out.languages) if (!languages.includes(tag)) languages.push(tag);
      return out.location;
    });
    return { locations, languages };
  }

  // ───────────────────────── shared steps ─────────────────────────

  /** Drop compiled caches when the store's data changed (another process may have written). */
  private async syncGeneration(store: LocationStore): Promise<void> {
    const g = await store.generation();
    if (g === this.cacheGeneration) return;
    this.cacheGeneration = g;
    this.schedules.clear();
    this.coverages.clear();
    this.localityModelCache = null;
    this.lexicon = null;
    this.addresses.clear();
    this.languages.clear();
  }

  /**
   * The dataset's amenity descriptions, read once per data generation through the ordinary store
   * calls: for each of the `LEXICON_AMENITIES` most used amenity ids, the descriptions of the first
   * `LEXICON_SAMPLE` public Locations (by id) that have it. A store without `amenityIds` gives an
   * empty lexicon (queries then match amenities by id words and own-language descriptions only).
   */
  private amenityLexicon(store: LocationStore): Promise<AmenityLexicon> {
    this.lexicon ??= (async () => {
      const ids = (await store.amenityIds?.(LEXICON_AMENITIES)) ?? [];
      const entries: AmenityDescriptions[] = [];
      for (const id of ids) {
        const rows = await store.findCandidates({ amenities: [id], limit: LEXICON_SAMPLE });
        const docs = await store.getLocations(rows.map((r) => r.key));
        const descriptions = new Set<string>();
        for (const d of docs) {
          const text = d.amenities?.[id]?.description;
          if (typeof text === 'string') descriptions.add(text);
        }
        entries.push({ id, descriptions: [...descriptions] });
      }
      return new AmenityLexicon(entries);
    })().catch((error: unknown) => {
      this.lexicon = null;
      throw error;
    });
    return this.lexicon;
  }

  /**
   * The store's text query for `query` (R-S3): its search terms, widened by the dataset's amenity
   * words (see amenityLexicon); null when the query holds no term (filler only), which matches all.
   */
  private async textQuery(store: LocationStore, query: string | undefined): Promise<TextQuery | null> {
    const typed = query === undefined ? [] : queryTerms(query);
    if (typed.length === 0) return null;
    return { raw: query ?? '', terms: (await this.amenityLexicon(store)).expand(typed) };
  }

  private async localityTarget(store: LocationStore, plan: PredicatePlan): Promise<LocalityTarget | null> {
    if (plan.servesAddress === null) return null;
    this.localityModelCache ??= await store.localityModel();
    return normalizeLocalityTarget(plan.servesAddress, this.localityModelCache);
  }

  /** R-S8: item ids the Business does not know at all, in request order. */
  private async unknownItems(store: LocationStore, items: readonly string[]): Promise<string[]> {
    if (items.length === 0) return [];
    const known = await store.knownItems(items);
    return items.filter((i) => !known.has(i));
  }

  private candidateQuery(plan: PredicatePlan, locality: LocalityTarget | null): CandidateQuery {
    const q: CandidateQuery = {};
    if (plan.distance !== null) {
      q.regions = plan.distance.regions;
      q.within = { center: plan.distance.center, maxMeters: plan.distance.max };
    }
    if (plan.servesPoint !== null) {
      q.coverageProbe = plan.servesPoint;
      q.withCoverage = true;
    }
    if (locality !== null) q.locality = localityQuery(locality);
    if (plan.amenities.length > 0) q.amenities = plan.amenities;
    if (plan.items.length > 0) q.items = plan.items;
    if (plan.openAtMs !== null) {
      q.withSchedule = true;
      q.openAtMs = plan.openAtMs;
    }
    return q;
  }

  /**
   * The exact predicates on store candidates (which may over-approximate space): geodesic
   * distance `<=` max (R-S4), point in coverage (R-S5), open at the instant (R-S6). The distance
   * to the center is bracketed cheaply and computed exactly (Karney) only when the bracket
   * straddles `max`; ranking later resolves the few brackets a page depends on.
   */
  private survivors(candidates: readonly Candidate[], plan: PredicatePlan, bracket: GeodesicBracket | null): Survivor[] {
    const out: Survivor[] = [];
    const max = plan.distance?.max ?? Number.POSITIVE_INFINITY;
    for (const c of candidates) {
      const geo = c.geo !== null && isUsableGeo(c.geo) ? c.geo : null;
      let lower = 0;
      let upper = 0;
      if (bracket !== null) {
        if (geo === null) {
          lower = Number.POSITIVE_INFINITY;
          upper = Number.POSITIVE_INFINITY;
        } else {
          bracket.measure(geo);
          lower = bracket.lower;
          upper = bracket.upper;
        }
      }
      if (plan.distance !== null) {
        // The bracket is around distance.center here (it is the center whenever distance is set).
        if (geo === null || lower > max) continue;
        if (upper > max) {
          const d = (bracket as GeodesicBracket).exact(geo);
          if (!(d <= max)) continue;
          lower = d;
          upper = d;
        }
      }
      // A store that evaluated open_at in its own walk (the in-memory index) says so per row.
      if (plan.openAtMs !== null && c.openAtChecked !== true && !isOpenCompiled(this.scheduleFor(c), plan.openAtMs)) continue;
      if (plan.servesPoint !== null) {
        const coverage = this.coverageFor(c);
        if (coverage === null || !coverageContainsPoint(coverage, geo, plan.servesPoint)) continue;
      }
      const s: Survivor = { key: c.key, id: c.id, relevance: c.relevance, lower, upper, geo };
      if (lower === upper) s.distance = lower;
      out.push(s);
    }
    return out;
  }

  private scheduleFor(c: Candidate): CompiledSchedule {
    // Keyed by content identity when the store gives one (chains share schedules), else by
    // Location key. Negative numbers keep the two key spaces apart.
    const cacheKey = c.scheduleKey ?? -1 - c.key;
    let s = this.schedules.get(cacheKey);
    if (s === undefined) {
      s = compileStoredSchedule(c.schedule);
      if (this.schedules.size >= COMPILED_CACHE_LIMIT) this.schedules.clear();
      this.schedules.set(cacheKey, s);
    }
    return s;
  }

  private coverageFor(c: Candidate): CompiledCoverage | null {
    const cacheKey = c.coverageKey ?? -1 - c.key;
    let cov = this.coverages.get(cacheKey);
    if (cov === undefined) {
      cov = null;
      if (c.coverage !== undefined && c.coverage !== null) {
        try {
          cov = compileCoverage(JSON.parse(c.coverage) as Pick<Coverage, 'radius_m' | 'areas'>);
        } catch {
          // Unusable stored geometry cannot establish service: treat as no coverage.
          cov = null;
        }
      }
      if (this.coverages.size >= COMPILED_CACHE_LIMIT) this.coverages.clear();
      this.coverages.set(cacheKey, cov);
    }
    return cov;
  }
}

/** The store's `serves.address` operand for a normalised target. */
function localityQuery(target: LocalityTarget): NonNullable<CandidateQuery['locality']> {
  const q: NonNullable<CandidateQuery['locality']> = { country: target.country };
  if (target.region !== undefined) q.region = target.region;
  if (target.postalKeys !== undefined) q.postalCodes = target.postalKeys;
  return q;
}

/** The request members that refine a lookup (R-L2), as named in the request. */
function predicateNames(plan: PredicatePlan): string[] {
  const names: string[] = [];
  if (plan.distance !== null) names.push('distance');
  if (plan.servesPoint !== null) names.push('serves.point');
  if (plan.servesAddress !== null) names.push('serves.address');
  if (plan.openAtMs !== null) names.push('filters.hours.open_at');
  if (plan.amenities.length > 0) names.push('filters.amenities');
  if (plan.items.length > 0) names.push('filters.items');
  return names;
}
