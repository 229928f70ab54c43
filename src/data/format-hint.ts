/**
 * Which `--format` a file probably needs. A file's extension picks our own format (`.json` →
 * GeoJSON, `.csv` → our CSV), but an OpenStreetMap extract is also `.geojson`/`.json`, a JSON-LD
 * document is often `.json`, and a Business Profile sheet is a `.csv`: read as ours, they give a
 * hundred "unknown field" problems and no clue. The start of the file tells them apart, so a
 * rejected file read with the format its extension picked gets one line saying which flag to add.
 *
 * Used by `validate`/`import` (import.ts) and reusable wherever a file or an upload is checked
 * (`formatHintOf` takes the text itself).
 */
import { open } from 'node:fs/promises';
import type { DataFormat } from './sources.js';

export interface FormatHint {
  /** The format the file looks like. */
  format: 'osm' | 'jsonld' | 'gbp';
  /** What gave it away, for the reader: "it has addr:* and opening_hours tags". */
  evidence: string;
  /** One sentence: what the file looks like and which flag to add. */
  message: string;
}

/** How much of a file is looked at: enough for a header row or the first features. */
const SAMPLE_BYTES = 64 * 1024;

const NAMES: Record<FormatHint['format'], string> = {
  osm: 'OpenStreetMap data',
  jsonld: 'schema.org JSON-LD',
  gbp: 'a Google Business Profile bulk sheet',
};

function hint(format: FormatHint['format'], evidence: string): FormatHint {
  return { format, evidence, message: `this file looks like ${NAMES[format]} (${evidence}); add --format ${format} to read it as such` };
}

/** OSM tag keys that our formats never have. */
const OSM_KEYS = /"(addr:[a-z_:]+|opening_hours|@id|osm_id|osm_type)"\s*:/g;

function osmEvidence(sample: string): string | undefined {
  const keys = new Set<string>();
  for (const m of sample.matchAll(OSM_KEYS)) keys.add((m[1] ?? '').startsWith('addr:') ? 'addr:*' : (m[1] ?? ''));
  if (!keys.has('addr:*') && !keys.has('opening_hours')) return undefined;
  const shown = [...keys].filter((k) => k === 'addr:*' || k === 'opening_hours');
  return `it has ${shown.join(' and ')} tags`;
}

function jsonLdEvidence(sample: string): string | undefined {
  return /"@context"\s*:\s*(?:"https?:\/\/schema\.org\/?"|\{[^}]*schema\.org|\[[^\]]*schema\.org)/.test(sample)
    ? 'its @context is schema.org'
    : undefined;
}

function gbpEvidence(sample: string): string | undefined {
  const header = (sample.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '').toLowerCase();
  const columns = header.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
  return columns.includes('store code') && columns.includes('business name') ? 'its header has Store code and Business name columns' : undefined;
}

/**
 * The format `text` (the start of a file) looks like when it is not `format`, the one it was read
 * with; undefined when nothing suggests another one.
 */
export function formatHintOf(text: string, format: DataFormat): FormatHint | undefined {
  if (format === 'geojson' || format === 'ndjson') {
    const ld = jsonLdEvidence(text);
    if (ld !== undefined) return hint('jsonld', ld);
    const osm = osmEvidence(text);
    if (osm !== undefined) return hint('osm', osm);
  }
  if (format === 'csv') {
    const gbp = gbpEvidence(text);
    if (gbp !== undefined) return hint('gbp', gbp);
  }
  return undefined;
}

/** The start of `file` read as text (at most 64 KiB), or '' when it cannot be read. */
async function sampleOf(file: string): Promise<string> {
  try {
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(SAMPLE_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, SAMPLE_BYTES, 0);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}

/** `formatHintOf` for the start of a file on disk. */
export async function formatHint(file: string, format: DataFormat): Promise<FormatHint | undefined> {
  return formatHintOf(await sampleOf(file), format);
}
