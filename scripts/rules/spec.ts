/**
 * The rule ids of `../shared/SPEC.md` and the manifest that carries them into the repository.
 *
 * SPEC.md lives beside the repository, not in it: a user's clone and the npm tarball have no
 * `../shared`. So `npm run rules:sync` copies its requirement list — the rule bullets under their
 * section headings, word for word — into `test/rules/spec-requirements.txt` (committed), and
 * derives `test/rules/manifest.json` from that copy. Everything else (the citation check,
 * `npm run rules`) reads the manifest; test/rules/rules.test.ts holds the manifest to the vendored
 * list in every clone, and the vendored list to SPEC.md where SPEC.md is at hand.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SPEC_PATH = resolve(REPO_ROOT, '../shared/SPEC.md');
export const MANIFEST_PATH = resolve(REPO_ROOT, 'test/rules/manifest.json');
export const REQUIREMENTS_PATH = resolve(REPO_ROOT, 'test/rules/spec-requirements.txt');
export const PLANNED_PATH = resolve(REPO_ROOT, 'test/rules/planned.json');
/** The command that rewrites the manifest, named in every message that asks for it. */
export const SYNC_COMMAND = 'npm run rules:sync';

/** The shape of a rule id: `R-`, a section letter or two, a number (R-D1, R-S11). */
export const RULE_ID_PATTERN = /^R-[A-Z]{1,3}[0-9]+$/;

export interface RuleEntry {
  /** As written in SPEC.md, e.g. `R-S4`. */
  id: string;
  /** The SPEC.md heading the rule sits under, e.g. `5. Search semantics`. */
  section: string;
  /** The rule's first sentence as SPEC.md words it: enough to recognise it in a report. */
  summary: string;
  /**
   * A short hash of the rule's whole text (whitespace-normalised). The summary is only the first
   * sentence; with the digest, rewording any later sentence also changes the manifest, so the
   * drift test points the author at the rule whose tests may need another look.
   */
  digest: string;
}

export interface Manifest {
  /** Where the rules come from, relative to the repository root. */
  source: string;
  rules: RuleEntry[];
}

/** Words whose trailing period does not end a sentence. */
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'incl', 'etc', 'vs', 'cf']);

/**
 * The first sentence of a rule: up to the first period (or `!`/`?`) that is followed by
 * whitespace or the end, outside `code spans`, and not ending an abbreviation like `e.g.`.
 */
export function firstSentence(text: string): string {
  let inCode = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '`') inCode = !inCode;
    if (inCode || (c !== '.' && c !== '!' && c !== '?')) continue;
    const next = text[i + 1];
    if (next !== undefined && !/\s/.test(next)) continue;
    const word = /([A-Za-z.]+)$/.exec(text.slice(0, i))?.[1]?.toLowerCase();
    if (c === '.' && word !== undefined && ABBREVIATIONS.has(word)) continue;
    return text.slice(0, i + 1);
  }
  return text;
}

function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * Reads the rules from SPEC.md's markdown: every top-level bullet `- R-XX text` (its indented
 * continuation lines belong to it) under the nearest `## ` heading. Throws on a duplicate id or an
 * id-like bullet that does not have the id shape, because either would make citations ambiguous.
 */
export function parseSpecRules(markdown: string): RuleEntry[] {
  const rules: RuleEntry[] = [];
  let section = '';
  let current: { id: string; section: string; lines: string[] } | undefined;
  const flush = (): void => {
    if (current === undefined) return;
    const text = current.lines.join(' ').replace(/\s+/g, ' ').trim();
    if (rules.some((r) => r.id === current?.id)) throw new Error(`SPEC.md defines ${current.id} twice`);
    rules.push({ id: current.id, section: current.section, summary: firstSentence(text), digest: digestOf(text) });
    current = undefined;
  };
  for (const line of markdown.split(/\r?\n/)) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    const bullet = /^- (R-\S+)\s+(.*)$/.exec(line);
    if (heading !== null) {
      flush();
      section = heading[1] ?? '';
    } else if (bullet !== null) {
      flush();
      const id = (bullet[1] ?? '').replace(/[.:,;]$/, '');
      if (!RULE_ID_PATTERN.test(id)) throw new Error(`SPEC.md has a rule bullet with a malformed id: ${JSON.stringify(line)}`);
      current = { id, section, lines: [bullet[2] ?? ''] };
    } else if (current !== undefined && /^\s+\S/.test(line)) {
      current.lines.push(line.trim());
    } else {
      flush();
    }
  }
  flush();
  return rules;
}

const REQUIREMENTS_HEADER =
  '<!-- The requirement list of ../shared/SPEC.md (its rule bullets under their section headings), copied by npm run rules:sync. Do not edit: test/rules/manifest.json is derived from it. -->';

/**
 * SPEC.md's requirement list: the `## ` headings that hold rules and every rule bullet with its
 * continuation lines, as written. `parseSpecRules` reads the same rules from it as from SPEC.md.
 */
export function extractRequirements(markdown: string): string {
  const out: string[] = [REQUIREMENTS_HEADER];
  let heading: string | undefined;
  let inRule = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (/^##\s+/.test(line)) {
      heading = line;
      inRule = false;
    } else if (/^- R-\S+\s/.test(line)) {
      if (heading !== undefined) out.push('', heading);
      heading = undefined;
      out.push(line);
      inRule = true;
    } else if (inRule && /^\s+\S/.test(line)) {
      out.push(line);
    } else {
      inRule = false;
    }
  }
  return `${out.join('\n')}\n`;
}

/** A rule SPEC.md has that no test covers yet, with the open issue that will cover it. */
export interface PlannedRule {
  id: string;
  issue: number;
  note: string;
}

/** test/rules/planned.json: `{"R-J1": {"issue": 25, "note": "…"}, …}`. */
export function loadPlanned(path = PLANNED_PATH): PlannedRule[] {
  const raw: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`${path}: expected an object keyed by rule id`);
  return Object.entries(raw).map(([id, entry]: [string, unknown]) => {
    const issue: unknown = typeof entry === 'object' && entry !== null && 'issue' in entry ? entry.issue : undefined;
    const note: unknown = typeof entry === 'object' && entry !== null && 'note' in entry ? entry.note : undefined;
    if (!RULE_ID_PATTERN.test(id) || typeof issue !== 'number' || !Number.isInteger(issue) || typeof note !== 'string' || note === '') {
      throw new Error(`${path}: ${id} needs {"issue": <open issue number>, "note": "<what will test it>"}`);
    }
    return { id, issue, note };
  });
}

/** The manifest SPEC.md yields, serialised exactly as it is committed (2-space JSON, final newline). */
export function renderManifest(rules: RuleEntry[]): string {
  const manifest: Manifest = { source: '../shared/SPEC.md', rules };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export function specPresent(path = SPEC_PATH): boolean {
  return existsSync(path);
}

/** The committed manifest, checked enough that a hand edit gone wrong reads as such. */
export function loadManifest(path = MANIFEST_PATH): Manifest {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Manifest>;
  if (!Array.isArray(parsed.rules) || parsed.rules.some((r) => typeof r?.id !== 'string' || !RULE_ID_PATTERN.test(r.id))) {
    throw new Error(`${path} is not a rule manifest (expected {"rules": [{"id": "R-…", …}]}); regenerate it with ${SYNC_COMMAND}`);
  }
  return { source: parsed.source ?? '', rules: parsed.rules };
}
