/**
 * The three tools of the agent bridge — their contract (names, descriptions written for models,
 * flat input schemas with a description on every property, output schemas) and what each answer
 * looks like: compact text for the model, the UCP Locations and computed fields in
 * `structuredContent`.
 *
 * Schemas are written with zod and published as JSON Schema (draft-07, what MCP hosts read). The
 * input schemas describe; arguments.ts decides, with one sentence per problem, so that a refusal
 * says what to send instead (the SDK's own validation would answer with zod's wording).
 *
 * Text only in `content`: the MCP spec suggests also serialising the structured result there, but
 * the model reads `content`, and a JSON dump of every Location would bury the few lines it needs.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { summarizeRequest, type Logger } from '../logging.js';
import { parseFindArguments, parseGetArguments, parseListArguments, MAX_IDS, MAX_LIMIT, DEFAULT_LIMIT } from './arguments.js';
import type { BusinessDirectory } from './businesses.js';
import { withDeadline } from './businesses.js';
import { BusinessCallError, ToolInputError, describeFailure } from './errors.js';
import { buildRequest, businessTimeout, unknownBusiness, type FindOutcome, type LocationFinder } from './find.js';
import { Intake } from './intake.js';
import { wallTimeInstant } from './local-filters.js';
import { messageNote } from './receive.js';
import { plain } from './plain.js';
import { formatRadius, renderView, viewOf, type LocationView } from './present.js';

export const TOOL_NAMES = ['list_businesses', 'find_locations', 'get_locations'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

// ───────────────────────── input schemas ─────────────────────────

const nearObject = z
  .strictObject({
    latitude: z.number().min(-90).max(90).describe('Latitude in decimal degrees (WGS 84), -90 to 90, e.g. 40.7128.'),
    longitude: z.number().min(-180).max(180).describe('Longitude in decimal degrees (WGS 84), -180 to 180, e.g. -74.006.'),
  })
  .describe('Coordinates in decimal degrees.');

const nearSchema = z
  .union([nearObject, z.string().describe('"lat,lng" in decimal degrees, e.g. "40.758,-73.9855".')])
  .describe(
    'The point to search around, as coordinates: {"latitude": 40.758, "longitude": -73.9855} or "40.758,-73.9855" (not a place name: this tool does not geocode). Results then come nearest first, each with its distance, within "radius".',
  );

const languageSchema = z
  .string()
  .optional()
  .describe(
    'BCP 47 language for names, amenities and messages, e.g. "en", "de", "ja" (the buyer\'s language). Each business answers in it where it has it.',
  );

const findInput = z.strictObject({
  business: z
    .string()
    .optional()
    .describe(
      'Ask only this business: its name from list_businesses, or its URL. Leave out to ask every configured business at once and merge the answers.',
    ),
  query: z
    .string()
    .optional()
    .describe(
      'Free text for what the buyer wants, e.g. "grocery" or "pharmacy". It narrows and ranks results; it never replaces near, open_now or the id filters.',
    ),
  near: nearSchema.optional(),
  radius: z
    .union([
      z.string().describe('A distance with its unit: "5km", "3 mi", "800m", "1.5 kilometers".'),
      z.number().positive().describe('A number of meters, e.g. 5000.'),
    ])
    .optional()
    .describe(
      'How far from "near" a Location may be: "5km", "3 mi", "800m", or a number of meters. Only with "near"; without it the radius is 5 km. A string without a unit, such as "5", is refused.',
    ),
  open_now: z
    .boolean()
    .optional()
    .describe(
      "true: only Locations open at this moment, judged in each Location's own time zone. false or absent: no opening-hours filter.",
    ),
  open_at: z
    .string()
    .optional()
    .describe(
      'Only Locations open at this time. Without an offset, e.g. "2026-12-06T10:00", it is that local time in each Location\'s own zone (right for "open Sunday 10:00" across zones). With an offset, e.g. "2026-11-30T18:30:00-05:00", it is one instant. Use instead of open_now for another time.',
    ),
  amenities: z
    .array(z.string().describe('An amenity id, e.g. "dev.ucp.amenity.parking", or a label, e.g. "wheelchair accessible".'))
    .optional()
    .describe(
      'Amenities every result must have (all of them): ids such as "dev.ucp.amenity.parking", or labels such as "wheelchair accessible" or "parking", which the bridge matches per business (businesses name the same feature with different ids); the answer says which ids each label matched.',
    ),
  items: z
    .array(z.string().describe('An item id (SKU) as the business names it.'))
    .optional()
    .describe('Item ids (SKUs) every result must currently be able to provide (all of them).'),
  language: languageSchema,
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .optional()
    .describe(`How many results this answer shows, 1 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}.`),
  cursor: z
    .string()
    .optional()
    .describe(
      'To see more results: the "next_cursor" of the previous find_locations answer, unchanged. Send it alone (or with the same arguments as before) and optionally a new limit.',
    ),
});

const getInput = z.strictObject({
  business: z
    .string()
    .optional()
    .describe('The business to ask: its name from list_businesses, or its URL. Required when more than one business is configured.'),
  ids: z
    .array(z.string().describe('A Location id or alias, e.g. "loc_123" or "downtown-store".'))
    .min(1)
    .max(MAX_IDS)
    .describe(
      `Location ids to fetch, 1 to ${MAX_IDS}: canonical ids (as find_locations shows them) or aliases the business publishes, such as a store code.`,
    ),
  language: languageSchema,
});

const listInput = z.strictObject({
  language: z.string().optional().describe('BCP 47 language to show amenity descriptions in where they were seen in it, e.g. "de".'),
});

// ───────────────────────── output schemas ─────────────────────────

const ucpLocation = z
  .looseObject({
    id: z.string(),
    name: z.string(),
    address: z.looseObject({}).optional(),
    geo: z.looseObject({ latitude: z.number(), longitude: z.number() }).optional(),
    amenities: z.record(z.string(), z.looseObject({ description: z.string() })).optional(),
    hours: z.array(z.looseObject({})).optional(),
    exception_hours: z.array(z.looseObject({})).optional(),
    timezone: z.string().optional(),
    inputs: z.array(z.looseObject({ id: z.string() })).optional(),
  })
  .describe('The UCP Location exactly as the business returned it (lookups add "inputs": the ids that resolved to it).');

const locationView = z.strictObject({
  business: z.string().describe('The configured name of the business that returned it.'),
  location: ucpLocation,
  distance_meters: z.number().optional().describe('Geodesic distance from "near", whole meters.'),
  distance: z.string().optional().describe('The same distance rounded for people, e.g. "1.2 km".'),
  hours: z.strictObject({
    state: z.enum(['open', 'closed', 'unknown']),
    evaluated_at: z.string().describe("The instant evaluated, RFC 3339 in the Location's offset."),
    timezone: z.string().optional().describe("The Location's IANA time zone."),
    next_change: z.strictObject({ at: z.string(), state: z.enum(['open', 'closed']) }).optional(),
    text: z.string(),
    week: z.string().optional().describe('The regular week, compact, in local times, e.g. "Mon–Fri 08:00–20:00 · Sun closed".'),
    coming: z
      .array(z.string())
      .optional()
      .describe('Named exceptions in the next 14 local days, e.g. "Christmas Day, Fri 25 Dec: closed".'),
  }),
  items: z.array(z.string()).optional().describe('Requested items; the business reports each available here.'),
});

const failure = z.strictObject({
  business: z.string(),
  kind: z.enum(['unreachable', 'incompatible', 'refused', 'rate_limited', 'invalid_response', 'timeout']),
  code: z.string(),
  reason: z.string(),
  max_radius_meters: z.number().optional().describe('radius_too_large: the largest radius this business honours, meters.'),
  retry_after_seconds: z.number().optional(),
  argument: z.string().optional(),
});

const findOutput = z.strictObject({
  order: z.enum(['distance', 'turns']).describe('distance: nearest first; turns: one from each business in its own order, in turn.'),
  results: z.array(locationView),
  first_position: z.number().int().describe('Position of the first result in the whole list, 1-based.'),
  total_sorted: z.number().int().optional().describe('Distance order: matches read and sorted in all.'),
  next_cursor: z.string().optional().describe('Pass as "cursor" to continue the list; absent at its end.'),
  radius_meters: z.number().optional(),
  radius_defaulted: z.boolean().optional(),
  open_at: z.string().optional().describe('The instant the opening-hours filter used.'),
  open_at_local: z.string().optional().describe("The local wall time evaluated in each Location's own zone."),
  language: z.string().optional().describe('The language asked of every business (context.language).'),
  empty_causes: z.array(z.string()).optional().describe('No results: why, per business asked, failures first.'),
  businesses_asked: z.array(z.string()),
  failures: z.array(failure).describe('Businesses that could not answer; their Locations are not in the list.'),
  capped_businesses: z.array(z.string()).describe('Businesses with more matches than the bridge reads for sorting by distance.'),
  match_cap: z.number().int().describe('Most matches read per business to sort by distance.'),
  notes: z.array(z.string()),
});

const getOutput = z.strictObject({
  business: z.string(),
  results: z.array(locationView),
  not_found: z.array(z.string()).describe('Ids the business did not return: unknown to it, or not public.'),
  notes: z.array(z.string()),
  language: z.string().optional().describe('The language asked of the business (context.language).'),
});

const listOutput = z.strictObject({
  businesses: z.array(
    z.strictObject({
      name: z.string(),
      url: z.string(),
      status: z.enum(['ok', 'unreachable', 'incompatible', 'not_contacted']),
      reason: z.string().optional(),
      version: z.string().optional(),
      capabilities: z.array(z.string()),
      transport: z.string().optional(),
      amenities_seen: z.array(z.strictObject({ id: z.string(), description: z.string() })),
    }),
  ),
});

// Results are built as LocationView (present.ts); the schemas above describe the same shape.
type FindOutput = Omit<z.infer<typeof findOutput>, 'results'> & { results: LocationView[] };
type GetOutput = Omit<z.infer<typeof getOutput>, 'results'> & { results: LocationView[] };
type ListOutput = z.infer<typeof listOutput>;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  return z.toJSONSchema(schema, { target: 'draft-7', io }) as Tool['inputSchema'];
}

export const TOOLS: readonly Tool[] = [
  {
    name: 'list_businesses',
    title: 'List businesses',
    description:
      'List the businesses whose physical Locations (stores, branches, pickup points) you can search, each with its status (ok, unreachable or incompatible, and why), what it supports, the transport in use, and the amenity ids with their descriptions seen in its answers so far. Call it to learn the business names, or to see why a business failed. Optional "language" (e.g. "de") shows descriptions in that language where seen in it.',
    inputSchema: jsonSchema(listInput, 'input'),
    outputSchema: jsonSchema(listOutput, 'output'),
    annotations: { title: 'List businesses', ...READ_ONLY },
  },
  {
    name: 'find_locations',
    title: 'Find Locations',
    description:
      'Find physical Locations (stores, branches, pickup points) of the configured businesses: "nearest grocery", "pharmacy open now", "store with parking". Without "business", every business is asked at once and the answers are merged; one that fails is named in the answer while the others still answer. With "near" (coordinates — place names are not geocoded) results come nearest first within "radius" (default 5 km) with their distance; without "near", businesses take turns in their own order. Opening hours are judged in each Location\'s own time zone. An answer shows up to "limit" results (default 10); when there are more it ends with a "next_cursor": call again with {"cursor": "<it>"} for the next ones. Example: {"query": "grocery", "near": "40.7128,-74.006", "radius": "3 mi", "open_now": true}; {"open_at": "2026-12-06T10:00", "amenities": ["wheelchair accessible"], "language": "de"}.',
    inputSchema: jsonSchema(findInput, 'input'),
    outputSchema: jsonSchema(findOutput, 'output'),
    annotations: { title: 'Find Locations', ...READ_ONLY },
  },
  {
    name: 'get_locations',
    title: 'Get Locations by id',
    description:
      'Fetch specific Locations of one business by id: the ids find_locations shows, or aliases the business publishes (a store code from a receipt, "downtown-store"). Shows each with its address, opening state in its own time zone and amenities; ids the business does not know (or does not make public) are listed as not found. Example: {"business": "acme", "ids": ["loc_123", "downtown-store"]}.',
    inputSchema: jsonSchema(getInput, 'input'),
    outputSchema: jsonSchema(getOutput, 'output'),
    annotations: { title: 'Get Locations by id', ...READ_ONLY },
  },
];

export interface ToolContext {
  directory: BusinessDirectory;
  finder: LocationFinder;
  logger: Logger;
  now: () => number;
  concurrency: number;
}

/** Runs a tool; every outcome the model can act on is a result (isError for failures). */
export async function callTool(ctx: ToolContext, name: ToolName, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const started = performance.now();
  let summary: Record<string, unknown> = {};
  try {
    let result: CallToolResult;
    switch (name) {
      case 'list_businesses': {
        const extra = Object.keys(args ?? {}).filter((k) => k !== 'language');
        if (extra.length > 0) {
          throw new ToolInputError(
            `list_businesses takes only "language" (got ${extra.map((k) => JSON.stringify(k)).join(', ')}); call it with {} or {"language": "de"}.`,
          );
        }
        const language = parseListArguments(args);
        result = await listBusinesses(ctx, language);
        break;
      }
      case 'find_locations': {
        const parsed = parseFindArguments(args);
        summary = {
          ...summarizeRequest(buildRequest(parsed.list, undefined)),
          business: parsed.list.business !== undefined,
          cursor: parsed.cursor !== undefined,
        };
        result = renderFind(await ctx.finder.find(parsed), parsed.limit);
        break;
      }
      case 'get_locations': {
        const parsed = parseGetArguments(args);
        summary = { ids: parsed.ids.length };
        result = await getLocations(ctx, parsed.business, parsed.ids, parsed.language);
        break;
      }
    }
    ctx.logger.info({ tool: name, request: summary, isError: result.isError === true, durationMs: elapsed(started) }, 'tool call');
    return result;
  } catch (error) {
    if (error instanceof ToolInputError) {
      ctx.logger.info(
        { tool: name, request: summary, refused: error.argument ?? 'arguments', durationMs: elapsed(started) },
        'tool call refused',
      );
      return errorResult(error.message);
    }
    if (error instanceof BusinessCallError) {
      ctx.logger.info(
        { tool: name, request: summary, business: error.failure.business, failure: error.failure.code, durationMs: elapsed(started) },
        'tool call failed at the business',
      );
      return errorResult(error.failure.reason);
    }
    throw error;
  }
}

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

async function listBusinesses(ctx: ToolContext, language: string | undefined): Promise<CallToolResult> {
  const handles = ctx.directory.all;
  // Discover every business not yet known, concurrently, so each status is real.
  await Promise.all(
    handles.map(async (h) => {
      try {
        await withDeadline(ctx.directory.client(h), h.config.timeoutMs, () => businessTimeout(h));
      } catch (error) {
        // Discovery records its own failures; a deadline passing first is recorded here.
        if (error instanceof BusinessCallError) h.failure = describeFailure(h.name, error, 'discovery');
      }
    }),
  );
  const reports = handles.map((h) => ctx.directory.report(h, language));
  const structured: ListOutput = { businesses: reports };
  const lines = reports.map((r) => {
    if (r.status !== 'ok') return `- ${r.name} (${r.url}): ${r.status} — ${r.reason ?? 'no reason given'}`;
    const caps = r.capabilities.map((c) => (c.endsWith('.search') ? 'search' : c.endsWith('.lookup') ? 'lookup' : c)).join(' + ');
    const amenities =
      r.amenities_seen.length === 0
        ? 'none seen yet'
        : r.amenities_seen.map((a) => `${plain(a.id, 120)} (${plain(a.description, 80)})`).join(', ');
    return `- ${r.name} (${r.url}): ok — UCP ${r.version ?? '?'}, ${caps}, over ${(r.transport ?? '?').toUpperCase()}; amenity ids: ${amenities}`;
  });
  const ok = reports.filter((r) => r.status === 'ok').length;
  const text = [`${reports.length} business${reports.length === 1 ? '' : 'es'} configured, ${ok} ok:`, ...lines].join('\n');
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

function renderFind(outcome: FindOutcome, limit: number): CallToolResult {
  const { list } = outcome;
  const wall = list.openAtLocal;
  const views = outcome.results.map((r) =>
    viewOf(r.business, r.location, {
      // A local wall time: each Location is shown at the instant it names in its own zone.
      at: wall === undefined ? outcome.at : (wallTimeInstant(r.location, wall) ?? outcome.at),
      atIsNow: outcome.atIsNow && wall === undefined,
      ...(list.near !== undefined ? { near: list.near } : {}),
      ...(list.radius !== undefined ? { unit: list.radius.unit } : {}),
      ...(list.items !== undefined ? { items: list.items } : {}),
    }),
  );
  const openAt = list.openAt ?? (list.openNow === true ? new Date(outcome.at).toISOString() : undefined);
  const structured: FindOutput = {
    order: outcome.order,
    results: views,
    first_position: outcome.offset + 1,
    businesses_asked: outcome.asked,
    failures: outcome.failures,
    capped_businesses: outcome.capped,
    match_cap: outcome.cap,
    notes: outcome.notes,
    ...(outcome.total !== undefined ? { total_sorted: outcome.total } : {}),
    ...(outcome.nextCursor !== undefined ? { next_cursor: outcome.nextCursor } : {}),
    ...(list.radius !== undefined ? { radius_meters: list.radius.meters } : {}),
    ...(list.radiusDefaulted === true ? { radius_defaulted: true } : {}),
    ...(openAt !== undefined ? { open_at: openAt } : {}),
    ...(wall !== undefined ? { open_at_local: wall } : {}),
    ...(list.language !== undefined ? { language: list.language } : {}),
    ...(outcome.emptyCauses.length > 0 ? { empty_causes: outcome.emptyCauses } : {}),
  };

  const lines: string[] = [];
  const where =
    list.near !== undefined && list.radius !== undefined
      ? `within ${formatRadius(list.radius.meters, list.radius.unit)} of the given point${views.length > 1 ? ', nearest first' : ''}`
      : views.length > 1
        ? "in each business's own order, taking turns"
        : '';
  const from =
    outcome.asked.length === 1 ? `from ${outcome.asked[0] ?? ''}` : `from ${outcome.asked.length} businesses (${outcome.asked.join(', ')})`;
  const filters: string[] = [];
  if (list.query !== undefined) filters.push(`matching ${JSON.stringify(list.query)}`);
  if (list.openNow === true) filters.push('open now');
  if (list.openAt !== undefined) filters.push(`open at ${list.openAt}`);
  if (wall !== undefined) filters.push(`open at ${wall} local time (each Location in its own zone, judged by the bridge)`);
  const amenities = [...(list.amenities ?? []), ...(list.amenityLabels ?? []).map((l) => JSON.stringify(l))];
  if (amenities.length > 0) filters.push(`with ${amenities.join(' and ')}`);
  if (list.items !== undefined) filters.push(`providing ${list.items.join(' and ')}`);
  const span =
    views.length === 0
      ? 'no Locations'
      : `Locations ${outcome.offset + 1}–${outcome.offset + views.length}${outcome.total !== undefined ? ` of ${outcome.total}` : ''}`;
  const language = list.language === undefined ? '' : ` Language asked for: ${list.language}.`;
  // Nothing to show: the cause per business comes first, before any advice (#26).
  lines.push(...outcome.emptyCauses);
  lines.push(`${[capitalise(span), filters.join(', '), where].filter((part) => part !== '').join(' ')}, ${from}.${language}`);
  if (list.radiusDefaulted === true && outcome.offset === 0) {
    lines.push('No radius was given, so 5 km was used; pass "radius" (e.g. "20km") to search wider.');
  }
  views.forEach((view, i) => lines.push(renderView(view, outcome.offset + i + 1)));
  if (views.length === 0 && outcome.failures.length < outcome.asked.length) {
    lines.push(
      list.near !== undefined
        ? 'To find more: try a larger radius, fewer filters, or other words.'
        : 'To find more: try fewer filters or other words.',
    );
  }
  for (const name of outcome.capped) {
    lines.push(
      `Note: ${name} has more than ${outcome.cap} matches; only the ${outcome.cap} it returned first were sorted by distance, so nearer ones may be missing — use a smaller radius or more filters.`,
    );
  }
  for (const note of outcome.notes) lines.push(note);
  if (outcome.emptyCauses.length === 0) for (const f of outcome.failures) lines.push(`Not included: ${f.reason}`);
  if (outcome.nextCursor !== undefined) {
    lines.push(
      `More results: call find_locations with {"cursor": "${outcome.nextCursor}"}${limit !== DEFAULT_LIMIT ? ` (and "limit": ${limit})` : ''}.`,
    );
  } else if (views.length > 0) {
    lines.push('End of the list.');
  }
  // Every business asked failed: nothing to show, and the model must change something.
  const isError = views.length === 0 && outcome.failures.length > 0 && outcome.failures.length >= outcome.asked.length;
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured, ...(isError ? { isError: true } : {}) };
}

async function getLocations(
  ctx: ToolContext,
  business: string | undefined,
  ids: readonly string[],
  language: string | undefined,
): Promise<CallToolResult> {
  const handles = ctx.directory.all;
  let handle = business === undefined ? undefined : ctx.directory.find(business);
  if (business === undefined) {
    if (handles.length !== 1) {
      throw new ToolInputError(
        `"business" is required with more than one business configured; use one of: ${ctx.directory.describeNames()}.`,
        'business',
      );
    }
    handle = handles[0];
  }
  if (handle === undefined) throw unknownBusiness(business ?? '', ctx.directory);
  const target = handle;
  let response;
  try {
    const refinements = language === undefined ? {} : { context: { language } };
    const work = (async () => (await ctx.directory.client(target)).lookup(ids, refinements))();
    response = await withDeadline(work, target.config.timeoutMs, () => businessTimeout(target));
  } catch (error) {
    throw new BusinessCallError(describeFailure(target.name, error, 'lookup'));
  }
  const intake = new Intake(target.name);
  const locations = intake.accept(response.locations);
  ctx.directory.noteLocations(target, locations, language);
  const now = ctx.now();
  const views = locations.map((l) => viewOf(target.name, l, { at: now, atIsNow: true }));
  const found = new Set(locations.flatMap((l) => l.inputs.map((i) => i.id)));
  const notFound = [...new Set(ids)].filter((id) => !found.has(id));
  const notes = [
    ...(response.messages ?? []).filter((m) => m.code !== 'not_found').map((m) => messageNote(target.name, m)),
    ...intake.notes(),
  ];
  const structured: GetOutput = {
    business: target.name,
    results: views,
    not_found: notFound,
    notes,
    ...(language !== undefined ? { language } : {}),
  };
  const lines = [
    `${target.name}: ${views.length} Location${views.length === 1 ? '' : 's'} for ${ids.length} id${ids.length === 1 ? '' : 's'}.${language === undefined ? '' : ` Language asked for: ${language}.`}`,
  ];
  views.forEach((view, i) => lines.push(renderView(view, i + 1)));
  if (notFound.length > 0) {
    lines.push(`Not found at ${target.name} (unknown there, or not public): ${notFound.map((id) => JSON.stringify(id)).join(', ')}.`);
  }
  for (const note of notes) lines.push(note);
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
