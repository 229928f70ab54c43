/**
 * Cursor pagination of search (R-S9): walking a result set in small pages yields no Location
 * twice, never a page larger than asked and a cursor whenever a next page is announced; a cursor
 * that was tampered with is refused instead of silently restarting or skipping. Whether a browse
 * ends at all is R-S2's question (search-operands.ts walks it with the largest pages accepted):
 * a large but bounded browse may well outlast this walk of small pages.
 */
import { fail, pass, skip, verdictOf, type Check } from '../check.js';
import { callEvidence, describeOutcome, idsOf, locationsOf } from '../operation-client.js';
import { isRecord } from '../oracle.js';
import { nextCursor, walkSearch } from '../samples.js';
import type { Evidence } from '../types.js';

const PAGE_LIMIT = 2;
/** Pages walked at most; the properties above are checked on every page walked. */
const MAX_PAGES = 120;
/** A walk that has not ended and brought nothing new for this many pages is going nowhere. */
const STALL_PAGES = 10;

/** A copy of `cursor` with one character in its middle changed (so the decoded bytes change too). */
export function tamper(cursor: string): string {
  const i = Math.floor(cursor.length / 2);
  const replacement = cursor[i] === 'A' ? 'B' : 'A';
  return `${cursor.slice(0, i)}${replacement}${cursor.slice(i + 1)}`;
}

export const PAGINATION_CHECKS: readonly Check[] = [
  {
    id: 'pagination.walk',
    rule: 'R-S9',
    area: 'pagination',
    title: 'paging with a cursor returns each Location once, pages ≤ limit, a cursor with every has_next_page',
    scope: 'binding',
    needs: ['profile', 'search'],
    run: async (_ctx, client) => {
      const walk = await walkSearch(client, { pagination: { limit: PAGE_LIMIT } }, MAX_PAGES);
      if (walk.failed !== undefined)
        return fail(describeOutcome(walk.failed.outcome), [
          callEvidence(walk.failed, 'every page of a bounded browse succeeds', describeOutcome(walk.failed.outcome)),
        ]);
      const problems: Evidence[] = [];
      const seen = new Set<string>();
      /** Pages since one last brought a Location not seen before. */
      let stalled = 0;
      for (const call of walk.calls) {
        const before = seen.size;
        if (locationsOf(call.outcome).length > PAGE_LIMIT)
          problems.push(
            callEvidence(
              call,
              `at most ${PAGE_LIMIT} Locations per page (pagination.limit)`,
              `${locationsOf(call.outcome).length} Locations`,
            ),
          );
        const p = call.outcome.kind === 'success' ? call.outcome.payload['pagination'] : undefined;
        if (isRecord(p) && p['has_next_page'] === true && typeof p['cursor'] !== 'string')
          problems.push(callEvidence(call, 'a cursor whenever has_next_page is true', 'has_next_page: true without cursor'));
        for (const id of idsOf(call.outcome)) {
          if (seen.has(id))
            problems.push(callEvidence(call, 'each Location at most once across pages', `${id} was already returned on an earlier page`));
          seen.add(id);
        }
        stalled = seen.size > before ? 0 : stalled + 1;
      }
      if (!walk.complete && stalled >= STALL_PAGES) {
        const last = walk.calls[walk.calls.length - 1];
        if (last !== undefined)
          problems.push(
            callEvidence(
              last,
              'a next page announced only while Locations remain',
              `${stalled} pages in a row announced a next page but brought no new Location`,
            ),
          );
      }
      const extent = walk.complete ? 'to the end' : `(stopped after ${MAX_PAGES}; the browse bound is checked under R-S2)`;
      return verdictOf(problems, `${walk.calls.length} page(s) ${extent}, ${seen.size} distinct Locations`);
    },
  },
  {
    id: 'pagination.tampered-cursor',
    rule: 'R-S9',
    area: 'pagination',
    title: 'a tampered cursor is refused with a request error',
    scope: 'binding',
    needs: ['profile', 'search'],
    run: async (_ctx, client) => {
      const c = client;
      let first = await c.call('search', { pagination: { limit: PAGE_LIMIT } });
      let cursor = nextCursor(first);
      if (cursor === undefined && first.outcome.kind === 'success') {
        first = await c.call('search', { pagination: { limit: 1 } });
        cursor = nextCursor(first);
      }
      if (cursor === undefined) return skip('a bounded browse fits on one page; no cursor to tamper with');
      const limit = isRecord(first.request) && isRecord(first.request['pagination']) ? first.request['pagination']['limit'] : PAGE_LIMIT;
      const forged = await c.call('search', { pagination: { limit, cursor: tamper(cursor) } });
      if (forged.outcome.kind === 'request_error') return pass();
      return fail(`a tampered cursor was ${forged.outcome.kind === 'success' ? 'accepted' : 'refused with the wrong error'}`, [
        callEvidence(
          forged,
          'a request error (MCP -32602, REST 400): the cursor is not one this Business issued',
          describeOutcome(forged.outcome),
        ),
      ]);
    },
  },
];
