/**
 * NDJSON (JSON Lines) reading: one JSON value per line, streamed chunk by chunk so a file of a
 * million records is never held in memory. Blank lines are skipped; a broken line is reported
 * with its 1-based line and column and reading goes on, so one run lists every broken line.
 */
import { createReadStream } from 'node:fs';
import { MAX_RECORD_BYTES } from './field-limits.js';
import type { FieldIssue } from './issues.js';

export type NdjsonEntry =
  | { line: number; value: unknown }
  | { line: number; issue: FieldIssue };

/** Column (1-based) of a JSON.parse failure; V8 reports an offset ("at position 17"). */
function syntaxColumn(error: unknown, text: string): number {
  const m = /position (\d+)/.exec(error instanceof Error ? error.message : '');
  return m?.[1] !== undefined ? Number(m[1]) + 1 : text.length + 1;
}

/** Parses one line; the issue names the column and repeats V8's reason. */
export function parseJsonLine(text: string): { value: unknown } | { issue: FieldIssue } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    const column = syntaxColumn(error, text);
    const reason = error instanceof Error ? error.message.replace(/\s*\(line \d+ column \d+\)$/, '') : String(error);
    const near = text.slice(Math.max(0, column - 11), column + 9);
    return { issue: { field: '', message: `invalid JSON at column ${column} (near ${JSON.stringify(near)}): ${reason}` } };
  }
}

/**
 * Splits a UTF-8 byte stream into decoded lines exactly as node:readline does with
 * `crlfDelay: Infinity`: "\r\n", "\n" and a lone "\r" each end a line (also when "\r\n"
 * straddles two chunks), and a last line without a line break still counts. Line numbers
 * therefore match any editor.
 *
 * Replaces readline for speed: readline emits one event per line through an EventEmitter and a
 * regex; here a chunk's line breaks are found with a byte search and the lines handed over as one
 * array. Each line is decoded on its own, so a line of Latin-1 text becomes a one-byte string
 * even when a neighbour holds other scripts; V8 parses, hashes and copies those markedly faster
 * than the two-byte string a whole decoded chunk would be. The bytes "\r" and "\n" never occur
 * inside a multi-byte UTF-8 sequence, so decoding line by line gives the same text (replacement
 * characters for broken sequences included) as decoding the stream and then splitting it.
 */
export class LineSplitter {
  /** The line begun in earlier chunks, as copies of its parts (joined once, when it ends: linear). */
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** The line begun so far is already over `maxLineBytes`: its bytes are counted, not kept. */
  private dropping = false;
  /** The previous chunk ended with "\r": a "\n" starting the next one belongs to that break. */
  private skipLeadingLf = false;

  /** @param maxLineBytes a longer line is returned as an `OverlongLine`, never held in memory whole. */
  constructor(private readonly maxLineBytes = Number.POSITIVE_INFINITY) {}

  /** Lines completed by `chunk`; a trailing partial line is kept for the next call. */
  push(chunk: Buffer): SplitLine[] {
    let buf = chunk;
    if (this.skipLeadingLf && buf.length > 0) {
      if (buf[0] === LF) buf = buf.subarray(1);
      this.skipLeadingLf = false;
    }
    const lines: SplitLine[] = [];
    const n = buf.length;
    let pos = 0;
    // Only this chunk is searched: the bytes held from earlier chunks hold no line break.
    let lf = buf.indexOf(LF);
    // Files almost never contain "\r" outside "\r\n"; its position is looked up again only once
    // passed, so a file without any costs one scan per chunk.
    let cr = buf.indexOf(CR);
    for (;;) {
      if (lf !== -1 && lf < pos) lf = buf.indexOf(LF, pos);
      if (cr !== -1 && cr < pos) cr = buf.indexOf(CR, pos);
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        lines.push(this.finish(buf, pos, cr));
        if (cr + 1 < n) {
          pos = buf[cr + 1] === LF ? cr + 2 : cr + 1;
        } else {
          pos = n;
          this.skipLeadingLf = true;
        }
      } else if (lf !== -1) {
        lines.push(this.finish(buf, pos, lf));
        pos = lf + 1;
      } else {
        break;
      }
    }
    if (pos < n) this.hold(buf.subarray(pos));
    return lines;
  }

  /** The last line when the input did not end with a line break. */
  end(): SplitLine[] {
    this.skipLeadingLf = false;
    return this.partBytes > 0 ? [this.finish(Buffer.alloc(0), 0, 0)] : [];
  }

  /** The line made of the held parts and `buf[from, to)`. */
  private finish(buf: Buffer, from: number, to: number): SplitLine {
    const bytes = this.partBytes + (to - from);
    let line: SplitLine;
    if (this.dropping || bytes > this.maxLineBytes) line = { overlong: true, bytes };
    else if (this.parts.length === 0) line = buf.toString('utf8', from, to);
    else line = Buffer.concat([...this.parts, buf.subarray(from, to)]).toString('utf8');
    this.parts = [];
    this.partBytes = 0;
    this.dropping = false;
    return line;
  }

  private hold(rest: Buffer): void {
    this.partBytes += rest.length;
    if (this.dropping) return;
    if (this.partBytes > this.maxLineBytes) {
      this.dropping = true;
      this.parts = [];
      return;
    }
    // A copy: a subarray would keep the whole chunk alive.
    this.parts.push(Buffer.from(rest));
  }
}

/** A line longer than the splitter's limit: only its length is known. */
export interface OverlongLine {
  overlong: true;
  bytes: number;
}

export type SplitLine = string | OverlongLine;

const LF = 0x0a;
const CR = 0x0d;

/** A part of a file: bytes [start, end), starting at a line start. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Parsed lines of one chunk of the file, in order; blank lines are left out. With `range`, only
 * those bytes are read and line numbers count from the range's first line (the caller adds the
 * lines before it); `onEnd` receives the number of lines read, blank ones included.
 */
export async function* readNdjsonBatches(path: string, range?: ByteRange, onEnd?: (lines: number) => void): AsyncGenerator<NdjsonEntry[]> {
  if (range !== undefined && range.end <= range.start) {
    onEnd?.(0);
    return;
  }
  const input = createReadStream(path, {
    highWaterMark: 1 << 16,
    ...(range !== undefined ? { start: range.start, end: range.end - 1 } : {}),
  });
  const atFileStart = range === undefined || range.start === 0;
  const splitter = new LineSplitter(MAX_RECORD_BYTES);
  let line = 0;
  const parse = (texts: readonly SplitLine[]): NdjsonEntry[] => {
    const out: NdjsonEntry[] = [];
    for (const rawText of texts) {
      line += 1;
      if (typeof rawText !== 'string') {
        const message = `the record is ${rawText.bytes} bytes long; the limit is ${MAX_RECORD_BYTES} bytes per line (one Location per line)`;
        out.push({ line, issue: { field: '', message } });
        continue;
      }
      // A UTF-8 byte-order mark is legal at the start of a file but is not JSON.
      const text = line === 1 && atFileStart && rawText.startsWith('\uFEFF') ? rawText.slice(1) : rawText;
      if (text.trim() === '') continue;
      const parsed = parseJsonLine(text);
      out.push('value' in parsed ? { line, value: parsed.value } : { line, issue: parsed.issue });
    }
    return out;
  };
  try {
    for await (const chunk of input) {
      // No encoding is set on the stream, so every chunk is a Buffer.
      if (!Buffer.isBuffer(chunk)) throw new TypeError('the NDJSON reader expected Buffer chunks');
      const batch = parse(splitter.push(chunk));
      if (batch.length > 0) yield batch;
    }
    const last = parse(splitter.end());
    if (last.length > 0) yield last;
    onEnd?.(line);
  } finally {
    input.destroy();
  }
}

export async function* readNdjson(path: string): AsyncGenerator<NdjsonEntry> {
  for await (const batch of readNdjsonBatches(path)) yield* batch;
}
