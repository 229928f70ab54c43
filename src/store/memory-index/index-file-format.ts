/**
 * The container of an index file: a fixed header, a JSON manifest, then named sections of typed
 * arrays, each 8-byte aligned so a loaded file is used in place (typed-array views over the one
 * buffer it was read into, flatbush trees through `Flatbush.from`) instead of being re-derived.
 *
 * Layout (little-endian, as every typed array on the platforms Node runs on):
 *   0   magic "UCPLIDX\n"                      8 bytes
 *   8   format version (u32)                   bumped by any change to what a section means
 *   12  manifest length in bytes (u32)
 *   16  total file length in bytes (f64)        a truncated file is refused before hashing
 *   24  SHA-256 of every byte after the header  32 bytes
 *   56  manifest (UTF-8 JSON), then sections
 *
 * A file is refused — never served — when any of these disagree; the reason says which, for the
 * one log line of the fallback build.
 */
import { createHash } from 'node:crypto';
import { isOneOf, isRecord } from '../../protocol/guards.js';

export const INDEX_FILE_MAGIC = 'UCPLIDX\n';
/** Version of what the sections mean; a file of another version is rebuilt, not read. */
export const INDEX_FILE_FORMAT = 1;
const HEADER_BYTES = 56;

/** Why a file cannot be used (the fallback build logs it). */
export class IndexFileRejected extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'IndexFileRejected';
  }
}

type ArrayKind = 'u8' | 'u16' | 'u32' | 'i32' | 'f64';
export type SectionArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

interface SectionEntry {
  kind: ArrayKind;
  /** Byte offset from the start of the file. */
  offset: number;
  /** Elements, not bytes. */
  length: number;
}

interface Manifest {
  values: unknown;
  sections: Record<string, SectionEntry>;
}

function kindOf(a: SectionArray): ArrayKind {
  if (a instanceof Uint8Array) return 'u8';
  if (a instanceof Uint16Array) return 'u16';
  if (a instanceof Uint32Array) return 'u32';
  if (a instanceof Int32Array) return 'i32';
  return 'f64';
}

function bytesOf(a: SectionArray): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

const pad8 = (n: number): number => (n + 7) & ~7;

/** Strings held as UTF-8 bytes with offsets; decoded one at a time, when asked for. */
export class StringColumn {
  private readonly text: Buffer;
  constructor(
    readonly bytes: Uint8Array,
    /** length + 1 offsets into `bytes`. */
    readonly offsets: Uint32Array,
  ) {
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  get length(): number {
    return this.offsets.length - 1;
  }
  get(i: number): string {
    return this.text.toString('utf8', this.offsets[i], this.offsets[i + 1]);
  }
  /** Every string (for parts that need them all at once). */
  all(): string[] {
    const out = new Array<string>(this.length);
    for (let i = 0; i < out.length; i++) out[i] = this.get(i);
    return out;
  }

  static of(strings: ArrayLike<string>): StringColumn {
    const offsets = new Uint32Array(strings.length + 1);
    let total = 0;
    for (let i = 0; i < strings.length; i++) {
      total += Buffer.byteLength(strings[i]!, 'utf8');
      if (total > 0xffffffff) throw new RangeError('an index file string column exceeds 4 GiB');
      offsets[i + 1] = total;
    }
    const bytes = Buffer.allocUnsafe(total);
    for (let i = 0; i < strings.length; i++) bytes.write(strings[i]!, offsets[i]!, 'utf8');
    return new StringColumn(bytes, offsets);
  }
}

/** Collects the sections of one file; `bytes()` lays them out. */
export class IndexFileWriter {
  private readonly sections = new Map<string, SectionArray>();

  array(name: string, a: SectionArray): void {
    if (this.sections.has(name)) throw new Error(`index file section ${name} written twice`);
    this.sections.set(name, a);
  }
  strings(name: string, column: StringColumn): void {
    this.array(`${name}.bytes`, column.bytes);
    this.array(`${name}.offsets`, column.offsets);
  }

  /** The file as consecutive byte ranges (not one copy: a million Locations make hundreds of MiB). */
  bytes(values: unknown): IndexFileBytes {
    const entries: Record<string, SectionEntry> = {};
    // Offsets depend on the manifest's own length: lay out with a placeholder width, then fix.
    const layout = (manifestBytes: number): number => {
      let at = pad8(HEADER_BYTES + manifestBytes);
      for (const [name, a] of this.sections) {
        entries[name] = { kind: kindOf(a), offset: at, length: a.length };
        at = pad8(at + a.byteLength);
      }
      return at;
    };
    // Converges in a round or two: only the digits of offsets change the manifest's length, and
    // the sections only move when its padded length does.
    let manifestBytes = 0;
    let total = layout(manifestBytes);
    let manifest = Buffer.from(JSON.stringify({ values, sections: entries } satisfies Manifest), 'utf8');
    for (let round = 0; pad8(HEADER_BYTES + manifest.length) !== pad8(HEADER_BYTES + manifestBytes); round++) {
      if (round === 8) throw new Error('index file manifest layout did not settle');
      manifestBytes = manifest.length;
      total = layout(manifestBytes);
      manifest = Buffer.from(JSON.stringify({ values, sections: entries } satisfies Manifest), 'utf8');
    }
    manifestBytes = manifest.length;

    const body: Uint8Array[] = [];
    let at = HEADER_BYTES;
    const gap = (to: number): void => {
      if (to > at) body.push(new Uint8Array(to - at));
      at = to;
    };
    body.push(manifest);
    at += manifest.length;
    for (const [name, a] of this.sections) {
      gap(entries[name]!.offset);
      body.push(bytesOf(a));
      at += a.byteLength;
    }
    gap(total);
    const hash = createHash('sha256');
    for (const b of body) hash.update(b);
    const header = Buffer.alloc(HEADER_BYTES);
    header.write(INDEX_FILE_MAGIC, 0, 'latin1');
    header.writeUInt32LE(INDEX_FILE_FORMAT, 8);
    header.writeUInt32LE(manifestBytes, 12);
    header.writeDoubleLE(total, 16);
    hash.digest().copy(header, 24);
    return { parts: [header, ...body], length: total };
  }
}

const KINDS: readonly ArrayKind[] = ['u8', 'u16', 'u32', 'i32', 'f64'];
const WIDTH: Record<ArrayKind, number> = { u8: 1, u16: 2, u32: 4, i32: 4, f64: 8 };

/** The manifest, with every section inside the file and aligned (a view past the end would throw later, less clearly). */
function checkedManifest(parsed: unknown, fileBytes: number): Manifest {
  if (!isRecord(parsed) || !isRecord(parsed.sections)) throw new IndexFileRejected('its manifest is malformed');
  const sections: Record<string, SectionEntry> = {};
  for (const [name, e] of Object.entries(parsed.sections)) {
    if (!isRecord(e) || !isOneOf(KINDS, e.kind) || typeof e.offset !== 'number' || typeof e.length !== 'number') {
      throw new IndexFileRejected(`its manifest entry ${name} is malformed`);
    }
    const { kind, offset, length } = e;
    if (offset % 8 !== 0 || offset < HEADER_BYTES || length < 0 || offset + length * WIDTH[kind] > fileBytes) {
      throw new IndexFileRejected(`its section ${name} lies outside the file`);
    }
    sections[name] = { kind, offset, length };
  }
  return { values: parsed.values, sections };
}

/** A laid-out file: its bytes in order. */
export interface IndexFileBytes {
  parts: readonly Uint8Array[];
  length: number;
}

/** A checked file, read in place. */
export class IndexFileReader {
  private readonly manifest: Manifest;

  /** Checks `buffer` (one whole file): magic, version, length, checksum, manifest. Throws IndexFileRejected. */
  constructor(readonly buffer: ArrayBuffer) {
    const all = Buffer.from(buffer);
    if (all.length < HEADER_BYTES || all.toString('latin1', 0, 8) !== INDEX_FILE_MAGIC) {
      throw new IndexFileRejected('it is not an index file (no header)');
    }
    const format = all.readUInt32LE(8);
    if (format !== INDEX_FILE_FORMAT) {
      throw new IndexFileRejected(`it has format version ${format}, this release reads version ${INDEX_FILE_FORMAT}`);
    }
    const manifestBytes = all.readUInt32LE(12);
    const total = all.readDoubleLE(16);
    if (total !== all.length)
      throw new IndexFileRejected(`it is ${all.length} bytes long, its header says ${total} (truncated or extended)`);
    const digest = createHash('sha256').update(all.subarray(HEADER_BYTES)).digest();
    if (!digest.equals(all.subarray(24, HEADER_BYTES))) throw new IndexFileRejected('its checksum does not match its contents (damaged)');
    let parsed: unknown;
    try {
      parsed = JSON.parse(all.toString('utf8', HEADER_BYTES, HEADER_BYTES + manifestBytes));
    } catch {
      throw new IndexFileRejected('its manifest is not readable');
    }
    this.manifest = checkedManifest(parsed, all.length);
  }

  get values(): unknown {
    return this.manifest.values;
  }

  private entry(name: string, kind: ArrayKind): SectionEntry {
    const e = this.manifest.sections[name];
    if (e === undefined) throw new IndexFileRejected(`section ${name} is missing`);
    if (e.kind !== kind) throw new IndexFileRejected(`section ${name} holds ${e.kind}, expected ${kind}`);
    return e;
  }

  u8(name: string): Uint8Array {
    const e = this.entry(name, 'u8');
    return new Uint8Array(this.buffer, e.offset, e.length);
  }
  u16(name: string): Uint16Array {
    const e = this.entry(name, 'u16');
    return new Uint16Array(this.buffer, e.offset, e.length);
  }
  u32(name: string): Uint32Array {
    const e = this.entry(name, 'u32');
    return new Uint32Array(this.buffer, e.offset, e.length);
  }
  i32(name: string): Int32Array {
    const e = this.entry(name, 'i32');
    return new Int32Array(this.buffer, e.offset, e.length);
  }
  f64(name: string): Float64Array {
    const e = this.entry(name, 'f64');
    return new Float64Array(this.buffer, e.offset, e.length);
  }
  has(name: string): boolean {
    return this.manifest.sections[name] !== undefined;
  }
  /** Byte offset of a u8 section (flatbush reads its tree in place from there). */
  offsetOf(name: string): number {
    return this.entry(name, 'u8').offset;
  }
  strings(name: string): StringColumn {
    return new StringColumn(this.u8(`${name}.bytes`), this.u32(`${name}.offsets`));
  }
}
