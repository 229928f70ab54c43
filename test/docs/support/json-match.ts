/**
 * Documented JSON against the real answer, at the level the page claims:
 * - `exact`: the same value (member order aside);
 * - `subset`: every member the page shows is there with the shown value; arrays keep their
 *   length (each element compared as a subset); a string `"…"` stands for any value and a
 *   string ending in `…` for any string that starts with the text before it.
 */
export type MatchMode = 'exact' | 'subset';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** What the two sides are called in messages: the page's value and the real one by default. */
export type Sides = readonly [string, string];

/** Where `documented` and `actual` part, as `$.path: documented … but real …` lines ([] = they match). */
export function differences(
  documented: unknown,
  actual: unknown,
  mode: MatchMode,
  sides: Sides = ['documented', 'real'],
  path = '$',
): string[] {
  const [doc, real] = sides;
  if (mode === 'subset' && typeof documented === 'string' && documented.endsWith('…')) {
    const prefix = documented.slice(0, -1);
    if (prefix === '' || (typeof actual === 'string' && actual.startsWith(prefix))) return [];
    return [`${path}: ${doc} ${show(documented)} but ${real} ${show(actual)}`];
  }
  if (Array.isArray(documented)) {
    if (!Array.isArray(actual)) return [`${path}: ${doc} an array but ${real} ${show(actual)}`];
    if (documented.length !== actual.length) return [`${path}: ${doc} ${documented.length} elements but ${real} ${actual.length}`];
    return documented.flatMap((d, i) => differences(d, actual[i], mode, sides, `${path}[${i}]`));
  }
  if (isObject(documented)) {
    if (!isObject(actual)) return [`${path}: ${doc} an object but ${real} ${show(actual)}`];
    const found = Object.entries(documented).flatMap(([key, value]) =>
      key in actual ? differences(value, actual[key], mode, sides, `${path}.${key}`) : [`${path}.${key}: ${doc} but absent from ${real}`],
    );
    const extra = mode === 'exact' ? Object.keys(actual).filter((key) => !(key in documented)) : [];
    return [...found, ...extra.map((key) => `${path}.${key}: ${real} has it (${show(actual[key])}) but ${doc} does not`)];
  }
  return documented === actual ? [] : [`${path}: ${doc} ${show(documented)} but ${real} ${show(actual)}`];
}

/** The value at a dotted path (`result.structuredContent`, `locations[0].id`); '' is the value itself. */
export function at(value: unknown, path: string): unknown {
  if (path === '') return value;
  let current = value;
  for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (Array.isArray(current)) current = current[Number(part)];
    else if (isObject(current)) current = current[part];
    else return undefined;
  }
  return current;
}

/** `value` without the members at the given dotted paths (e.g. a cursor that is sealed per call). */
export function without(value: unknown, paths: readonly string[]): unknown {
  const copy = structuredClone(value);
  for (const path of paths) {
    const parts = path.split('.');
    const last = parts.pop();
    const parent = at(copy, parts.join('.'));
    if (last !== undefined && isObject(parent)) delete parent[last];
  }
  return copy;
}
