/**
 * Progress for long data commands, written to stderr so stdout stays clean for reports and
 * `--json`. On a terminal: one line redrawn in place (count, percentage when the total is known,
 * records/s), at most 10 times a second. Not a terminal (CI logs, pipes): a plain line every few
 * seconds, none for a run shorter than that. `quiet`: nothing at all.
 */
import type { ImportProgress } from '../store/store.js';

/** The part of a stream progress needs; `process.stderr` fits. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): boolean;
}

export interface ProgressOptions {
  stream?: ProgressStream;
  quiet?: boolean;
  /** Monotonic clock in milliseconds (injectable for tests). */
  now?: () => number;
  /** Minimum milliseconds between redraws on a terminal. */
  redrawMs?: number;
  /** Minimum milliseconds between plain lines when not on a terminal. */
  plainMs?: number;
}

export interface ProgressReporter {
  update(p: ImportProgress): void;
  /** Removes the live line (terminal) so the final report starts on a clean line. */
  finish(): void;
}

const BAR_WIDTH = 20;

function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function createProgress(label: string, options: ProgressOptions = {}): ProgressReporter {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => performance.now());
  if (options.quiet === true) return { update: () => undefined, finish: () => undefined };
  const tty = stream.isTTY === true;
  const minGap = tty ? (options.redrawMs ?? 100) : (options.plainMs ?? 5_000);
  let phase: ImportProgress['phase'] | undefined;
  let phaseStart = now();
  // Not on a terminal, the first line waits a full interval: short runs print nothing.
  let lastDraw = tty ? -Infinity : phaseStart;
  let drawn = false;

  function render(p: ImportProgress, t: number): string {
    const seconds = (t - phaseStart) / 1000;
    const rate = seconds > 0 ? ` ${formatCount(Math.round(p.done / seconds))} records/s` : '';
    if (p.total !== undefined && p.total > 0) {
      const ratio = Math.min(1, p.done / p.total);
      const filled = Math.round(ratio * BAR_WIDTH);
      const bar = tty ? ` [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]` : '';
      return `${label} ${p.phase}${bar} ${formatCount(p.done)}/${formatCount(p.total)} (${Math.floor(ratio * 100)}%)${rate}`;
    }
    return `${label} ${p.phase} ${formatCount(p.done)} records${rate}`;
  }

  return {
    update(p) {
      const t = now();
      if (p.phase !== phase) {
        phase = p.phase;
        phaseStart = t;
        // A terminal shows a new phase at once; logs only get a line once a run is long.
        if (tty) lastDraw = -Infinity;
      }
      if (t - lastDraw < minGap) return;
      lastDraw = t;
      const line = render(p, t);
      if (tty) {
        const width = stream.columns ?? 80;
        stream.write(`\r\x1b[2K${line.slice(0, Math.max(10, width - 1))}`);
        drawn = true;
      } else if (p.phase !== 'done') {
        stream.write(`${line}\n`);
      }
    },
    finish() {
      if (tty && drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
