/**
 * The fenced code blocks of a Markdown page and the instructions written right above them.
 *
 * Only what our pages use is read: CommonMark fences (``` or ~~~, at most three spaces of indent,
 * closed by a fence of the same character at least as long) and single-line HTML comments on the
 * lines directly above a fence. A comment is invisible on a rendered page, so a reader sees the
 * example and the test sees how to check it:
 *
 *   <!-- not-runnable: <why> -->                 the block is not run; the reason is required
 *   <!-- docs-test: <role> [key=value ...] -->   how to check a block that is not a shell session
 */
import { readFileSync } from 'node:fs';

export type Marker = { kind: 'not-runnable'; reason: string } | { kind: 'docs-test'; role: string; options: Record<string, string> };

export interface CodeBlock {
  /** Path relative to the repository root, e.g. `docs/platform.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** First word of the info string, lower case; '' when the fence has none. */
  lang: string;
  body: string;
  markers: Marker[];
}

const OPEN = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
const COMMENT = /^\s*<!--\s*(.*?)\s*-->\s*$/;

function parseMarker(text: string, where: string): Marker | null {
  const notRunnable = /^not-runnable:\s*(.*)$/.exec(text);
  if (notRunnable !== null) {
    const reason = notRunnable[1]?.trim() ?? '';
    if (reason === '') throw new Error(`${where}: "not-runnable:" needs a reason`);
    return { kind: 'not-runnable', reason };
  }
  const docsTest = /^docs-test:\s*(.*)$/.exec(text);
  if (docsTest === null) return null;
  const [role, ...pairs] = (docsTest[1] ?? '').trim().split(/\s+/);
  if (role === undefined || role === '') throw new Error(`${where}: "docs-test:" needs a role`);
  const options: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`${where}: docs-test option "${pair}" is not key=value`);
    options[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return { kind: 'docs-test', role, options };
}

export function codeBlocks(root: string, file: string): CodeBlock[] {
  const lines = readFileSync(`${root}/${file}`, 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i] ?? '');
    if (open === null) continue;
    const fence = open[1] ?? '```';
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const markers: Marker[] = [];
    for (let j = i - 1; j >= 0; j--) {
      const comment = COMMENT.exec(lines[j] ?? '');
      if (comment === null) break;
      const marker = parseMarker(comment[1] ?? '', `${file}:${j + 1}`);
      if (marker !== null) markers.unshift(marker);
    }
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !close.test(lines[j] ?? '')) body.push(lines[j++] ?? '');
    if (j >= lines.length) throw new Error(`${file}:${i + 1}: the code fence is never closed`);
    blocks.push({ file, line: i + 1, lang: (open[2] ?? '').toLowerCase(), body: body.join('\n'), markers });
    i = j;
  }
  return blocks;
}
