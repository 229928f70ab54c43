/**
 * The stdio twin of http-kit/body.ts: each newline-delimited JSON-RPC message is held to the same size
 * and nesting limits as an HTTP request body before the SDK's stdio transport parses it.
 *
 * Without it, one over-long line makes the SDK's read buffer throw and close the whole session, and
 * a deeply nested line reaches the SDK's recursive zod parsing. The gate sits between stdin and the
 * SDK transport: lines within the limits pass through unchanged; a refused line is never buffered
 * past the limit (the rest of it is discarded as it streams in) and is reported to `onRefused`, so
 * the caller can answer it in JSON-RPC shape and keep serving the next line. Lines within the
 * limits may be rewritten by `route` (batches, extra members: see stdio.ts) before the SDK reads them.
 */
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../protocol/json-depth.js';

const NEWLINE = 0x0a;

export type RefusedLine = { reason: 'payload_too_large' | 'nesting_too_deep'; message: string };

export class JsonLineGate extends Transform {
  /** Pieces of the current, not yet terminated line (empty while discarding an over-long one). */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** True from the moment the current line passes the limit until its newline arrives. */
  #discarding = false;

  /**
   * @param route given each line that parses as JSON: the messages to hand on in its place (a
   *   batch's elements, a message without extra members), or undefined to hand the line on as is.
   *   Lines that do not parse go on unchanged, for the SDK to answer with -32700.
   */
  constructor(
    private readonly maxLineBytes: number,
    private readonly onRefused: (refused: RefusedLine) => void,
    private readonly route?: (value: unknown) => readonly unknown[] | undefined,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#take(chunk.subarray(start, end));
      if (newline === -1) break;
      this.#finishLine();
      start = newline + 1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    // A last line without a newline is never a message for the SDK either; drop it quietly unless refused.
    if (this.#discarding) this.#refuseTooLarge();
    done();
  }

  #take(piece: Buffer): void {
    if (this.#discarding || piece.length === 0) return;
    if (this.#pendingBytes + piece.length > this.maxLineBytes) {
      this.#discarding = true;
      this.#pending = [];
      this.#pendingBytes = 0;
      return;
    }
    this.#pending.push(piece);
    this.#pendingBytes += piece.length;
  }

  #finishLine(): void {
    if (this.#discarding) {
      this.#discarding = false;
      this.#refuseTooLarge();
      return;
    }
    const line = Buffer.concat(this.#pending, this.#pendingBytes);
    this.#pending = [];
    this.#pendingBytes = 0;
    if (exceedsJsonDepth(line)) {
      this.onRefused({
        reason: 'nesting_too_deep',
        message: `The message nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep; no UCP request needs that many.`,
      });
      return;
    }
    const routed = this.#route(line);
    if (routed === undefined) this.push(Buffer.concat([line, Buffer.from([NEWLINE])]));
    else for (const message of routed) this.push(`${JSON.stringify(message)}\n`);
  }

  #route(line: Buffer): readonly unknown[] | undefined {
    if (this.route === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(line.toString('utf8'));
    } catch {
      return undefined;
    }
    return this.route(value);
  }

  #refuseTooLarge(): void {
    this.onRefused({
      reason: 'payload_too_large',
      message: `The message exceeds the limit of ${this.maxLineBytes} bytes; send a smaller request (fewer ids, shorter text).`,
    });
  }
}
