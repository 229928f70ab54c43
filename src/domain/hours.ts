// STUB — owned by the hours helper; signatures are the contract other modules code against.
import type { Schedule } from './location.js';

/** True iff the schedule establishes the Location open at `openAt` (RFC 3339 with Z/offset). */
export function isOpenAt(schedule: Schedule, openAt: string): boolean {
  void schedule; void openAt;
  throw new Error('not implemented');
}

/** Epoch milliseconds of an RFC 3339 instant with `Z`/`z` or numeric offset; throws InvalidInstantError. */
export function parseInstant(openAt: string): number {
  void openAt;
  throw new Error('not implemented');
}

/** A schedule pre-processed for repeated evaluation (per request, many instants/locations). */
export interface CompiledSchedule {
  readonly timezone: string | null;
  readonly valid: boolean;
}

export function compileSchedule(schedule: Schedule): CompiledSchedule {
  void schedule;
  throw new Error('not implemented');
}

/** Evaluate a compiled schedule at an epoch-ms instant. */
export function isOpenCompiled(schedule: CompiledSchedule, epochMs: number): boolean {
  void schedule; void epochMs;
  throw new Error('not implemented');
}
