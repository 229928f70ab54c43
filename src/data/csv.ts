/**
 * A small, strict RFC 4180 CSV reader and writer.
 *
 * Reading is streamed chunk by chunk (a quoted field may span lines, so readline cannot be used).
 * Accepted: `,` separators; CRLF, LF or lone CR record breaks; fields quoted with `"` and quotes
 * doubled inside them; a leading UTF-8 BOM; blank lines (skipped). Rejected, with the line: a `"`
 * inside an unquoted field, text after a closing quote, an unterminated quoted field.
 * After a malformed record the reader resynchronises at the next line break, so one run reports
 * every malformed line.
 */
import { createReadStream } from 'node:fs';

export type CsvEntry =
  | { line: number; fields: string[] }
  | { line: number; error: string };

const enum State {
  FieldStart,
  Unquoted,
  Quoted,
  /** Just read a `"` inside a quoted field: either an escaped quote or the closing one. */
  QuoteInQuoted,
  /** Skipping the rest of a malformed line. */
  Skip,
}

/** Incremental parser: feed chunks, collect entries; `end()` flushes the last record. */
export class CsvParser {
  #state = State.FieldStart;
  #field = '';
  #fields: string[] = [];
  /** Line the current record started on, and the current physical line (both 1-based). */
  #recordLine = 1;
  #line = 1;
  #quoteLine = 1;
  #pendingCr = false;
  #crInQuoted = false;
  #first = true;

  feed(chunk: string, out: CsvEntry[]): void {
    let text = chunk;
    if (this.#first) {
      this.#first = false;
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charAt(i);
      // CRLF counts as one break: the LF after a CR that already ended a record is dropped.
      if (this.#pendingCr) {
        this.#pendingCr = false;
        if (c === '\n') continue;
      }
      switch (this.#state) {
        case State.FieldStart:
          if (c === '"') {
            this.#state = State.Quoted;
            this.#quoteLine = this.#line;
            this.#crInQuoted = false;
          } else if (c === ',') {
            this.#fields.push('');
          } else if (c === '\n' || c === '\r') {
            this.#endRecord(c, out);
          } else {
            this.#field = c;
            this.#state = State.Unquoted;
          }
          break;
        case State.Unquoted: {
          // Fast path: copy the run of ordinary characters in one slice.
          let j = i;
          while (j < text.length) {
            const d = text[j];
            if (d === ',' || d === '\n' || d === '\r' || d === '"') break;
            j++;
          }
          this.#field += text.slice(i, j);
          i = j - 1;
          if (j >= text.length) break;
          const d = text.charAt(j);
          i = j;
          if (d === ',') {
            this.#fields.push(this.#field);
            this.#field = '';
            this.#state = State.FieldStart;
          } else if (d === '"') {
            this.#fail('a double quote inside an unquoted field; quote the whole field ("…") and double inner quotes ("")', out);
          } else {
            this.#fields.push(this.#field);
            this.#field = '';
            this.#endRecord(d, out);
          }
          break;
        }
        case State.Quoted: {
          const j = text.indexOf('"', i);
          const end = j === -1 ? text.length : j;
          const part = text.slice(i, end);
          this.#field += part;
          this.#countBreaks(part);
          i = end;
          if (j !== -1) this.#state = State.QuoteInQuoted;
          break;
        }
        case State.QuoteInQuoted:
          if (c === '"') {
            this.#field += '"';
            this.#state = State.Quoted;
            this.#crInQuoted = false;
          } else if (c === ',') {
            this.#fields.push(this.#field);
            this.#field = '';
            this.#state = State.FieldStart;
          } else if (c === '\n' || c === '\r') {
            this.#fields.push(this.#field);
            this.#field = '';
            this.#endRecord(c, out);
          } else {
            this.#fail(`unexpected ${JSON.stringify(c)} after a closing quote; a quoted field must be followed by "," or the end of the line`, out);
          }
          break;
        case State.Skip:
          if (c === '\n' || c === '\r') {
            this.#fields = [];
            this.#field = '';
            this.#newLine(c);
            this.#recordLine = this.#line;
            this.#state = State.FieldStart;
          }
          break;
      }
    }
  }

  end(out: CsvEntry[]): void {
    if (this.#state === State.Quoted) {
      out.push({ line: this.#quoteLine, error: 'a quoted field is never closed (missing closing ")' });
    } else if (this.#state === State.Unquoted || this.#state === State.QuoteInQuoted) {
      this.#fields.push(this.#field);
      this.#emit(out);
    } else if (this.#state === State.FieldStart && this.#fields.length > 0) {
      this.#fields.push('');
      this.#emit(out);
    }
    this.#state = State.FieldStart;
  }

  #countBreaks(part: string): void {
    for (let k = 0; k < part.length; k++) {
      const ch = part[k];
      // CRLF is one break even when a chunk boundary splits the pair.
      if (ch === '\n' && !this.#crInQuoted) this.#line++;
      else if (ch === '\r') this.#line++;
      this.#crInQuoted = ch === '\r';
    }
  }

  #newLine(c: string): void {
    this.#line++;
    if (c === '\r') this.#pendingCr = true;
  }

  #endRecord(c: string, out: CsvEntry[]): void {
    if (this.#state === State.FieldStart && this.#fields.length > 0) this.#fields.push('');
    this.#emit(out);
    this.#newLine(c);
    this.#recordLine = this.#line;
    this.#state = State.FieldStart;
  }

  #emit(out: CsvEntry[]): void {
    const fields = this.#fields;
    this.#fields = [];
    this.#field = '';
    // A blank line is a record of one empty field; it carries nothing.
    if (fields.length === 0 || (fields.length === 1 && fields[0] === '')) return;
    out.push({ line: this.#recordLine, fields });
  }

  #fail(message: string, out: CsvEntry[]): void {
    out.push({ line: this.#line, error: message });
    this.#state = State.Skip;
  }
}

/** Streams the records of a CSV file. */
export async function* readCsv(path: string): AsyncGenerator<CsvEntry> {
  const parser = new CsvParser();
  const out: CsvEntry[] = [];
  const input = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  try {
    for await (const chunk of input) {
      // The stream decodes UTF-8, so every chunk is a string.
      parser.feed(String(chunk), out);
      yield* out;
      out.length = 0;
    }
  } finally {
    input.destroy();
  }
  parser.end(out);
  yield* out;
}

/** Parses a whole CSV string (tests, small inputs). */
export function parseCsv(text: string): CsvEntry[] {
  const parser = new CsvParser();
  const out: CsvEntry[] = [];
  parser.feed(text, out);
  parser.end(out);
  return out;
}

/** One field, quoted only when it must be. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvRow(values: readonly string[]): string {
  return values.map(csvField).join(',');
}
