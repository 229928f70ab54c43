/**
 * Lookup batching, pure. A Business processes at most N distinct ids per lookup and says so with
 * an info message `batch_limit_applied` whose content states N and how many ids were not
 * processed (R-L3). The client sends batches of at most N and merges the answers as if one
 * request had been honoured: a Location reached from several batches appears once, with the
 * union of its `inputs` (each id exactly as supplied).
 */
import type { LookupLocation } from '../domain/location.js';
import type { LookupResponse, Message } from '../domain/requests.js';

export const BATCH_LIMIT_CODE = 'batch_limit_applied';

/** Ids in request order without repeats (the Business dedupes too; the limit counts distinct ids). */
export function distinctIds(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

/**
 * How many of the `sent` distinct ids the Business processed, read from a `batch_limit_applied`
 * message. The wording is free, but it must state the applied maximum N and the number not
 * processed, so the content holds two integers N and K with N + K = sent; that pairing is what is
 * looked for, whatever the phrasing. Undefined when the content does not allow it.
 *
 * @param atLeast a lower bound known from the answer itself: the Business processes a prefix, so
 *   every id that came back in `inputs` lies within the first N (1 + its largest index).
 */
export function processedCount(content: string, sent: number, atLeast = 1): number | undefined {
  const numbers = [...content.matchAll(/\d+/g)].map((m) => Number(m[0])).filter((n) => Number.isSafeInteger(n));
  const set = new Set(numbers);
  const candidates = numbers.filter((n) => n >= Math.max(1, atLeast) && n < sent && set.has(sent - n));
  // "first 10 of 25 …; 15 not processed": 10 and 15 both pair up; the maximum is stated first.
  return candidates[0];
}

/** The `batch_limit_applied` message of a lookup response, if any. */
export function batchLimitMessage(response: Pick<LookupResponse, 'messages'>): Message | undefined {
  return response.messages?.find((m) => m.type === 'info' && m.code === BATCH_LIMIT_CODE);
}

/**
 * Merges the responses of consecutive batches: envelope of the first, Locations merged by id in
 * first-seen order with `inputs` unioned (by id), messages concatenated without the
 * `batch_limit_applied` notices that splitting has answered.
 */
export function mergeLookupResponses(responses: readonly LookupResponse[], dropBatchNotices = true): LookupResponse {
  const first = responses[0];
  if (first === undefined) throw new RangeError('mergeLookupResponses needs at least one response');
  const byId = new Map<string, LookupLocation>();
  for (const response of responses) {
    for (const location of response.locations) {
      const known = byId.get(location.id);
      if (known === undefined) {
        byId.set(location.id, { ...location, inputs: [...location.inputs] });
        continue;
      }
      for (const input of location.inputs) {
        if (!known.inputs.some((i) => i.id === input.id)) known.inputs.push(input);
      }
    }
  }
  const messages = responses
    .flatMap((r) => r.messages ?? [])
    .filter((m) => !(dropBatchNotices && m.type === 'info' && m.code === BATCH_LIMIT_CODE));
  const merged: LookupResponse = { ...first, locations: [...byId.values()] };
  if (messages.length > 0) merged.messages = messages;
  else delete merged.messages;
  return merged;
}
