/**
 * Finding the failing JSON pointer in an error answer (R-M1: "-32602 with the failing JSON pointer
 * and an actionable message"). Businesses report it in different places — `error.data.pointer`,
 * a `details` list, REST `messages[].path` as RFC 9535 JSONPath, or the message text — and relative
 * to different roots (`params.arguments`, `arguments.location`, the bare request). All of these
 * are accepted as long as the pointer names the offending member (or its parent / a child).
 */
import { isRecord } from './oracle.js';

const ROOTS = ['/params/arguments/location', '/arguments/location', '/params/arguments', '/arguments', '/location'];

/** `$.location.distance.max`, `$['ids'][0]` → `/location/distance/max`, `/ids/0`; null when not JSONPath. */
export function jsonPathToPointer(path: string): string | null {
  if (!path.startsWith('$')) return null;
  const tokens: string[] = [];
  const re = /\.([A-Za-z_][\w-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/gy;
  re.lastIndex = 1;
  while (re.lastIndex < path.length) {
    const m = re.exec(path);
    if (m === null) return null;
    tokens.push(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
  }
  return tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Pointer relative to the bare domain request. */
function relative(pointer: string): string {
  for (const root of ROOTS) {
    if (pointer === root) return '';
    if (pointer.startsWith(`${root}/`)) return pointer.slice(root.length);
  }
  return pointer;
}

function strings(value: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 6) return out;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, depth + 1, out);
  else if (isRecord(value)) for (const v of Object.values(value)) strings(v, depth + 1, out);
  return out;
}

function related(reported: string, expected: string): boolean {
  return reported !== '' && (reported === expected || reported.startsWith(`${expected}/`) || expected.startsWith(`${reported}/`));
}

/**
 * The pointer found in `data` or `message` (JSONPath converted to a pointer) that names
 * `expected` (relative to the domain request, e.g. `/distance/max`), or undefined when none does.
 */
export function findPointer(expected: string, message: string, data: unknown): string | undefined {
  for (const s of strings(data)) {
    const pointer = s.startsWith('/') ? s : jsonPathToPointer(s);
    if (pointer !== null && related(relative(pointer), expected)) return pointer;
  }
  // Message text: a pointer or a dotted path naming the member (`distance.max`).
  const dotted = expected.slice(1).split('/').join('.');
  for (const s of [message, ...strings(data)]) {
    for (const m of s.matchAll(/(?:\/[\w~-]+)+/g)) if (related(relative(m[0]), expected)) return m[0];
    if (dotted !== '' && s.includes(dotted)) return dotted;
  }
  return undefined;
}
