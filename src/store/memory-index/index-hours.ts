/**
 * `open_at` inside the index walk: each distinct schedule of an index (interned by content, see
 * memory-index.ts) compiled once with the engine's own compiler and evaluated per row, so rows
 * that are closed at the instant are never collected as candidates.
 */
import { compileStoredSchedule, isOpenCompiled, type CompiledSchedule } from '../../domain/hours.js';

/** Compiled schedules an index keeps (one per distinct schedule; chains share theirs). */
const COMPILED_SCHEDULES_KEPT = 200_000;

/** A row's interned schedule: its JSON and its process-unique key. */
interface ScheduleContent {
  readonly json: string;
  readonly key: number;
}

export class IndexHours {
  readonly #compiled = new Map<number, CompiledSchedule>();
  #none: CompiledSchedule | null = null;

  constructor(private readonly schedules: readonly (ScheduleContent | null)[]) {}

  /** Whether ordinal `o` is established open at `epochMs` (never, without a stored schedule: R-S6). */
  openAt(o: number, epochMs: number): boolean {
    const content = this.schedules[o] ?? null;
    let s: CompiledSchedule | undefined;
    if (content === null) s = this.#none ??= compileStoredSchedule(null);
    else {
      s = this.#compiled.get(content.key);
      if (s === undefined) {
        s = compileStoredSchedule(content.json);
        if (this.#compiled.size >= COMPILED_SCHEDULES_KEPT) this.#compiled.clear();
        this.#compiled.set(content.key, s);
      }
    }
    return isOpenCompiled(s, epochMs);
  }
}
