/**
 * A JSON-LD document read as a stream: its nodes come one at a time, so a file of a million
 * LocalBusiness nodes is never parsed (nor held) whole. The scanner walks only the document's
 * outer levels — a top-level array, or a top-level object and its `@graph` array — and hands the
 * text of each element to JSON.parse on its own (as geojson.ts does for `features`). Memory stays
 * at one element plus the top-level object's other members (`@context` and the like).
 *
 * What comes out is what jsonld.ts collects nodes from, in document order: each element of the
 * streamed array, then — for a top-level object without a `@graph` array — the object itself.
 * A syntax error ends the document's scan with one issue naming its line and column; what came
 * before it was already handed out (the import fails on the issue all the same).
 */
import { ValueCapture } from './geojson.js';

export type JsonLdPiece = { value: unknown } | { error: string };

const enum S {
  Start,
  KeyOrEnd,
  Key,
  Colon,
  Value,
  AfterMember,
  ElementOrEnd,
  Element,
  AfterElement,
  Done,
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/** Incremental scanner of a JSON-LD document's outer levels. */
export class JsonLdScanner {
  private state = S.Start;
  /** The streamed array is the document itself (top-level array), not its `@graph`. */
  private topArray = false;
  private line = 1;
  /** Absolute offset of the last line break seen, and of the current chunk's start. */
  private lastBreak = -1;
  private base = 0;
  private capture: { first: string; value: ValueCapture; isKey: boolean; line: number; column: number } | null = null;
  private key = '';
  /** Members of a top-level object other than a streamed `@graph`. */
  private members: Record<string, unknown> = {};
  private sawGraph = false;
  private failed = false;

  feed(chunk: string, out: JsonLdPiece[]): void {
    let i = 0;
    if (this.state === S.Start && this.base === 0 && chunk.startsWith('\uFEFF')) i = 1;
    while (i < chunk.length && !this.failed) {
      if (this.capture !== null) {
        const end = this.capture.value.consume(chunk, i);
        this.countLines(chunk, i, end === -1 ? chunk.length : end);
        if (end === -1) break;
        i = end;
        this.finishCapture(out);
        continue;
      }
      const c = chunk.charAt(i);
      if (c === '\n') {
        this.line++;
        this.lastBreak = this.base + i;
      }
      if (WHITESPACE.has(c)) {
        i++;
        continue;
      }
      const column = this.base + i - this.lastBreak;
      i++;
      this.step(c, column, out);
    }
    this.base += chunk.length;
  }

  end(out: JsonLdPiece[]): void {
    if (this.failed) return;
    if (this.capture !== null && this.capture.first !== '"' && !this.capture.isKey && this.state === S.Done) {
      // A top-level primitive ends with the file.
      this.finishCapture(out);
    }
    if (this.state === S.Start) {
      this.fail('the file is empty', this.line, 1, out);
      return;
    }
    if (this.state !== S.Done || this.capture !== null) {
      this.fail('the document ends before it is closed (truncated?)', this.line, this.base - this.lastBreak, out);
      return;
    }
    if (!this.topArray && !this.sawGraph && Object.keys(this.members).length > 0) out.push({ value: this.members });
  }

  private countLines(text: string, from: number, to: number): void {
    for (let k = text.indexOf('\n', from); k !== -1 && k < to; k = text.indexOf('\n', k + 1)) {
      this.line++;
      this.lastBreak = this.base + k;
    }
  }

  private fail(reason: string, line: number, column: number, out: JsonLdPiece[], at = 'at'): void {
    this.failed = true;
    out.push({ error: `invalid JSON ${at} line ${line}, column ${column}: ${reason}` });
  }

  private unexpected(c: string, expected: string, column: number, out: JsonLdPiece[]): void {
    this.fail(`unexpected ${JSON.stringify(c)}, expected ${expected}`, this.line, column, out);
  }

  private startCapture(c: string, isKey: boolean, column: number): void {
    this.capture = { first: c, value: new ValueCapture(c), isKey, line: this.line, column };
  }

  private step(c: string, column: number, out: JsonLdPiece[]): void {
    switch (this.state) {
      case S.Start:
        if (c === '{') this.state = S.KeyOrEnd;
        else if (c === '[') {
          this.topArray = true;
          this.state = S.ElementOrEnd;
        } else {
          // A primitive document holds no nodes, but must still be JSON.
          this.startCapture(c, false, column);
          this.state = S.Done;
        }
        return;
      case S.KeyOrEnd:
      case S.Key:
        if (c === '"') {
          this.startCapture(c, true, column);
          this.state = S.Colon;
        } else if (c === '}' && this.state === S.KeyOrEnd) this.state = S.Done;
        else this.unexpected(c, 'a member name in double quotes', column, out);
        return;
      case S.Colon:
        if (c === ':') this.state = S.Value;
        else this.unexpected(c, '":"', column, out);
        return;
      case S.Value:
        if (this.key === '@graph' && c === '[' && !this.sawGraph) {
          this.sawGraph = true;
          this.state = S.ElementOrEnd;
          return;
        }
        this.startCapture(c, false, column);
        this.state = S.AfterMember;
        return;
      case S.AfterMember:
        if (c === ',') this.state = S.Key;
        else if (c === '}') this.state = S.Done;
        else this.unexpected(c, '"," or "}"', column, out);
        return;
      case S.ElementOrEnd:
      case S.Element:
        if (c === ']' && this.state === S.ElementOrEnd) {
          this.state = this.topArray ? S.Done : S.AfterMember;
          return;
        }
        if (c === ']' || c === ',') {
          this.unexpected(c, 'a node', column, out);
          return;
        }
        this.startCapture(c, false, column);
        this.state = S.Element;
        return;
      case S.AfterElement:
        if (c === ',') this.state = S.Element;
        else if (c === ']') this.state = this.topArray ? S.Done : S.AfterMember;
        else this.unexpected(c, '"," or "]" after a node', column, out);
        return;
      case S.Done:
        this.unexpected(c, 'the end of the file', column, out);
        return;
    }
  }

  private finishCapture(out: JsonLdPiece[]): void {
    const cap = this.capture;
    if (cap === null) return;
    this.capture = null;
    const text = cap.value.text(cap.first);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const { at, line, column } = where(error, text, cap.line, cap.column);
      // The position V8 names is within the value; the line and column above are the file's.
      const reason = error instanceof Error ? error.message.replace(/\s*\(line \d+ column \d+\)$/, '').replace(/ in JSON at position \d+/, '') : String(error);
      this.fail(reason, line, column, out, at);
      return;
    }
    if (cap.isKey) {
      this.key = typeof value === 'string' ? value : text;
      return;
    }
    if (this.state === S.Element) {
      this.state = S.AfterElement;
      out.push({ value });
    } else if (this.state === S.AfterMember) {
      this.members[this.key] = value;
    }
  }
}

/**
 * Line and column in the file of a JSON.parse failure in `text`, which starts at (line, column);
 * V8 names the offset for some failures only ("at position 17"), else the value's start is given.
 */
function where(error: unknown, text: string, line: number, column: number): { at: string; line: number; column: number } {
  const m = /position (\d+)/.exec(error instanceof Error ? error.message : '');
  if (m?.[1] === undefined) return { at: 'in the value starting', line, column };
  const offset = Number(m[1]);
  let l = line;
  let lastBreak = -1;
  for (let k = text.indexOf('\n'); k !== -1 && k < offset; k = text.indexOf('\n', k + 1)) {
    l++;
    lastBreak = k;
  }
  return { at: 'at', line: l, column: lastBreak === -1 ? column + offset : offset - lastBreak };
}
