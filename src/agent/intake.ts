/**
 * What the bridge accepts from a business. A business's answer passes its UCP schema in the
 * client SDK, but the schema lets Locations carry extra members of any shape and strings of any
 * length; the bridge holds Locations in memory (the sorted union of a distance list), puts them in
 * `structuredContent` and serialises them to the host. So each Location is measured here first:
 * one nested deeper than MAX_DEPTH (serialising it would overflow the stack and the whole answer
 * would be lost — #37 N3) or larger than MAX_LOCATION_BYTES (#37 N4) is dropped, and so is every
 * Location past MAX_ANSWER_BYTES for one business in one call. What was dropped is counted per
 * reason and reported as a note naming the business; the business's other Locations, and every
 * other business, are unaffected.
 *
 * The depth walk is iterative, so measuring a hostile value cannot itself overflow the stack.
 */

/** Deepest nesting of objects and arrays kept in one Location (a UCP Location needs 4). */
export const MAX_DEPTH = 32;
/** Largest Location kept, as JSON bytes (a real one with a year of exceptions is a few KB). */
export const MAX_LOCATION_BYTES = 32 * 1024;
/** Most Location bytes kept from one business in one tool call. */
export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

type DropReason = 'deep' | 'large' | 'answer';

/** True when `value` nests objects/arrays deeper than `limit` (iterative: safe at any depth). */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const top = stack.pop();
    if (top === undefined || typeof top.value !== 'object' || top.value === null) continue;
    const depth = top.depth + 1;
    if (depth > limit) return true;
    const children: unknown[] = Array.isArray(top.value) ? top.value : Object.values(top.value);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push({ value: child, depth });
  }
  return false;
}

/** One business's Locations within one tool call, measured as they arrive. */
export class Intake {
  #bytes = 0;
  readonly #dropped: Record<DropReason, number> = { deep: 0, large: 0, answer: 0 };

  constructor(
    readonly business: string,
    readonly limits: { maxDepth: number; maxLocationBytes: number; maxAnswerBytes: number } = {
      maxDepth: MAX_DEPTH,
      maxLocationBytes: MAX_LOCATION_BYTES,
      maxAnswerBytes: MAX_ANSWER_BYTES,
    },
  ) {}

  /** Bytes of the Locations kept so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Locations left out so far. */
  get dropped(): number {
    return this.#dropped.deep + this.#dropped.large + this.#dropped.answer;
  }

  /** The Locations of `batch` within the limits, in order. */
  accept<T>(batch: readonly T[]): T[] {
    const kept: T[] = [];
    for (const location of batch) {
      if (deeperThan(location, this.limits.maxDepth)) {
        this.#dropped.deep += 1;
        continue;
      }
      const size = Buffer.byteLength(JSON.stringify(location), 'utf8');
      if (size > this.limits.maxLocationBytes) {
        this.#dropped.large += 1;
        continue;
      }
      if (this.#bytes + size > this.limits.maxAnswerBytes) {
        this.#dropped.answer += 1;
        continue;
      }
      this.#bytes += size;
      kept.push(location);
    }
    return kept;
  }

  /** One sentence per kind of drop, naming the business; empty when nothing was dropped. */
  notes(): string[] {
    const { deep, large, answer } = this.#dropped;
    const n = (count: number): string => `${count} Location${count === 1 ? '' : 's'}`;
    const notes: string[] = [];
    if (deep > 0)
      notes.push(`${this.business} sent ${n(deep)} nested deeper than ${this.limits.maxDepth} levels; the bridge left them out.`);
    if (large > 0)
      notes.push(
        `${this.business} sent ${n(large)} larger than ${Math.round(this.limits.maxLocationBytes / 1024)} KB each; the bridge left them out.`,
      );
    if (answer > 0)
      notes.push(
        `${this.business} sent more than ${Math.round(this.limits.maxAnswerBytes / 1024 / 1024)} MB of Locations in one answer; the bridge left out the last ${n(answer)}. Narrow the search (a smaller radius or more filters) to see them.`,
      );
    return notes;
  }
}
