import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LookupResponse } from '../domain/requests.js';
import { batchLimitMessage, distinctIds, mergeLookupResponses, processedCount } from './lookup-batches.js';

const ucp = { version: '2026-08-25' };

describe('processedCount', () => {
  it("reads N from our own business's wording (R-L3)", () => {
    expect(processedCount('Processed the first 10 of 25 distinct identifiers; 15 identifiers were not processed.', 25)).toBe(10);
  });

  it('reads N whatever the phrasing, as long as N and the unprocessed count are stated (R-L3)', () => {
    expect(processedCount('Batch maximum is 20; 5 ids skipped.', 25)).toBe(20);
    expect(processedCount('Only 12 handled (limit), 3 left over', 15)).toBe(12);
  });

  it('uses the ids that came back to settle an ambiguous message (R-L3)', () => {
    // 10 and 15 both pair up with 25. Without more to go on the number stated first is taken;
    // an id at position 14 in the answer proves at least 14 were processed, so N is 15.
    const text = '10 identifiers were not processed; processed the first 15.';
    expect(processedCount(text, 25)).toBe(10);
    expect(processedCount(text, 25, 14)).toBe(15);
  });

  it('gives up when the message does not state both numbers', () => {
    expect(processedCount('Some identifiers were not processed.', 25)).toBeUndefined();
    expect(processedCount('Processed 10.', 25)).toBeUndefined();
  });

  it('property: the stated maximum is recovered from the canonical sentence', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 5000 }), fc.integer({ min: 1, max: 4999 }), (sent, raw) => {
        const n = 1 + (raw % (sent - 1));
        const text = `Processed the first ${n} of ${sent} distinct identifiers; ${sent - n} identifiers were not processed.`;
        expect(processedCount(text, sent)).toBe(n);
      }),
    );
  });
});

describe('distinctIds', () => {
  it('keeps first occurrences in request order (R-L1)', () => {
    expect(distinctIds(['b', 'a', 'b', 'c', 'a'])).toEqual(['b', 'a', 'c']);
  });
});

describe('batchLimitMessage', () => {
  it('finds the info message by code', () => {
    const r: LookupResponse = {
      ucp,
      locations: [],
      messages: [
        { type: 'info', code: 'not_found', content: 'x' },
        { type: 'info', code: 'batch_limit_applied', content: 'y' },
      ],
    };
    expect(batchLimitMessage(r)?.content).toBe('y');
    expect(batchLimitMessage({ messages: [] })).toBeUndefined();
  });
});

describe('mergeLookupResponses', () => {
  it('merges a Location reached from several batches into one with every input (R-L1)', () => {
    const a: LookupResponse = {
      ucp,
      locations: [{ id: 'loc_1', name: 'One', inputs: [{ id: 'loc_1' }] }],
      messages: [{ type: 'info', code: 'batch_limit_applied', content: 'Processed the first 1 of 2…' }],
    };
    const b: LookupResponse = {
      ucp,
      locations: [
        { id: 'loc_1', name: 'One', inputs: [{ id: 'alias-1' }] },
        { id: 'loc_2', name: 'Two', inputs: [{ id: 'loc_2' }] },
      ],
      messages: [{ type: 'info', code: 'not_found', content: 'nope' }],
    };
    const merged = mergeLookupResponses([a, b]);
    expect(merged.ucp).toEqual(ucp);
    expect(merged.locations.map((l) => l.id)).toEqual(['loc_1', 'loc_2']);
    expect(merged.locations[0]?.inputs).toEqual([{ id: 'loc_1' }, { id: 'alias-1' }]);
    expect(merged.messages).toEqual([{ type: 'info', code: 'not_found', content: 'nope' }]);
    // The inputs are copies: merging never alters the responses it was given.
    expect(a.locations[0]?.inputs).toEqual([{ id: 'loc_1' }]);
  });

  it('keeps batch notices when asked to (the caller could not answer them)', () => {
    const a: LookupResponse = { ucp, locations: [], messages: [{ type: 'info', code: 'batch_limit_applied', content: 'x' }] };
    expect(mergeLookupResponses([a], false).messages).toHaveLength(1);
    expect(mergeLookupResponses([a]).messages).toBeUndefined();
  });

  it('property: every (location, input) pair of the parts appears exactly once in the merge', () => {
    const part = fc.array(
      fc.record({
        loc: fc.constantFrom('l1', 'l2', 'l3', 'l4'),
        inputs: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { minLength: 1 }),
      }),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 5 }), (parts) => {
        const responses: LookupResponse[] = parts.map((locs) => {
          // A response never lists the same Location twice.
          const byId = new Map<string, string[]>();
          for (const l of locs) byId.set(l.loc, [...new Set([...(byId.get(l.loc) ?? []), ...l.inputs])]);
          return { ucp, locations: [...byId].map(([id, inputs]) => ({ id, name: id, inputs: inputs.map((i) => ({ id: i })) })) };
        });
        const merged = mergeLookupResponses(responses);
        const ids = merged.locations.map((l) => l.id);
        expect(new Set(ids).size).toBe(ids.length);
        const expected = new Set(responses.flatMap((r) => r.locations.flatMap((l) => l.inputs.map((i) => `${l.id}|${i.id}`))));
        const actual = merged.locations.flatMap((l) => l.inputs.map((i) => `${l.id}|${i.id}`));
        expect(new Set(actual)).toEqual(expected);
        expect(actual.length).toBe(expected.size);
      }),
    );
  });
});
