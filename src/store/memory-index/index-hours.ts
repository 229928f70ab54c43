/**
 * `open_at` inside the index walk: each distinct schedule of an index (interned by content, see
 * memory-index.ts) compiled once with the engine's own compiler, and evaluated at most once per
 * search, so rows that are closed at the instant are never collected as candidates.
 *
 * Why slots: at 1M Locations the walk meets hundreds of rows per search, and a row's answer used
 * to cost a pointer chase to its interned schedule, a hash lookup of the compiled form and the
 * evaluation. Here a row costs one typed-array read (its schedule's slot) and, when a sibling row
 * with the same schedule was already evaluated for this search, one more: chains share schedules.
 */
import { compileStoredSchedule, isOpenCompiled, type CompiledSchedule } from '../../domain/hours.js';

/**
 * Compiled schedules an index keeps at once. A compiled schedule costs ~1 KiB; at 1M Locations
 * with most schedules distinct, keeping all would cost hundreds of MiB for rows a search rarely
 * meets again, so past this count the kept ones are dropped and recompiled on demand.
 */
const COMPILED_SCHEDULES_KEPT = 200_000;

/** An interned schedule (its JSON), shared by the rows that have it. */
interface ScheduleContent {
  readonly json: string;
}

/** A search's view of the index's hours at one instant: `open(o)` for each row the walk meets. */
export type OpenAt = (o: number) => boolean;

export class IndexHours {
  /** Per ordinal, its schedule's slot (-1: no stored schedule); built on the first open_at search. */
  #slotOf: Int32Array | null = null;
  #json: string[] = [];
  #compiled: (CompiledSchedule | undefined)[] = [];
  #compiledCount = 0;
  /** Per slot, the search that last evaluated it (its stamp) and what it found (1 open, 0 closed). */
  #stampOf = new Uint32Array(0);
  #openOf = new Uint8Array(0);
  #stamp = 0;
  #none: CompiledSchedule | null = null;

  /** Per point-tree item (point-walk.ts), its schedule's slot: the walk reads it in runs. */
  #slotOfItem: Int32Array | null = null;

  /** `pointOrdinals`: the ordinal of each item of the index's point tree. */
  constructor(
    private readonly schedules: readonly (ScheduleContent | null)[],
    private readonly pointOrdinals: Uint32Array,
  ) {}

  /** Like `at`, for point-tree items instead of ordinals. */
  atItems(epochMs: number): OpenAt {
    if (this.#slotOfItem === null) {
      const slotOf = (this.#slotOf ??= this.#slots());
      this.#slotOfItem = Int32Array.from(this.pointOrdinals, (o) => slotOf[o] ?? -1);
    }
    return this.#test(this.#slotOfItem, epochMs);
  }

  /**
   * The test of one search: whether a row is established open at `epochMs` (never, without a
   * stored schedule: R-S6). Valid until the next call to `at` (a search runs synchronously to its
   * end, so two searches never interleave on one index).
   */
  at(epochMs: number): OpenAt {
    return this.#test((this.#slotOf ??= this.#slots()), epochMs);
  }

  #test(slotOf: Int32Array, epochMs: number): OpenAt {
    const stampOf = this.#stampOf;
    const openOf = this.#openOf;
    // A new stamp forgets every earlier search's answers at once; on wrap-around, forget them explicitly.
    if (++this.#stamp === 0x1_0000_0000) {
      stampOf.fill(0);
      this.#stamp = 1;
    }
    const stamp = this.#stamp;
    const noneOpen = isOpenCompiled((this.#none ??= compileStoredSchedule(null)), epochMs);
    return (o: number): boolean => {
      const slot = slotOf[o]!;
      if (slot < 0) return noneOpen;
      if (stampOf[slot] === stamp) return openOf[slot] === 1;
      const open = isOpenCompiled(this.#compiledAt(slot), epochMs);
      stampOf[slot] = stamp;
      openOf[slot] = open ? 1 : 0;
      return open;
    };
  }

  #compiledAt(slot: number): CompiledSchedule {
    let s = this.#compiled[slot];
    if (s === undefined) {
      if (this.#compiledCount >= COMPILED_SCHEDULES_KEPT) {
        this.#compiled = [];
        this.#compiledCount = 0;
      }
      s = compileStoredSchedule(this.#json[slot]);
      this.#compiled[slot] = s;
      this.#compiledCount++;
    }
    return s;
  }

  /** One slot per distinct interned schedule (rows share the object of their content). */
  #slots(): Int32Array {
    const slotOf = new Int32Array(this.schedules.length);
    const numbers = new Map<ScheduleContent, number>();
    for (let o = 0; o < slotOf.length; o++) {
      const content = this.schedules[o] ?? null;
      if (content === null) {
        slotOf[o] = -1;
        continue;
      }
      let slot = numbers.get(content);
      if (slot === undefined) {
        numbers.set(content, (slot = this.#json.length));
        this.#json.push(content.json);
      }
      slotOf[o] = slot;
    }
    this.#stampOf = new Uint32Array(this.#json.length);
    this.#openOf = new Uint8Array(this.#json.length);
    return slotOf;
  }
}
