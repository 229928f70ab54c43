/**
 * SQL fragments that carry their own bind parameters. A statement is composed from fragments in
 * the order its text reads, so its `?` placeholders and its parameters can never fall out of step
 * (no parameter list kept beside the text and reordered afterwards).
 *
 *   sql`SELECT key FROM t WHERE a = ${value}`   a value becomes `?` and one parameter;
 *   sql`... IN (${subquery})`                   a fragment is spliced in with its parameters;
 *   raw('l.sid')                                 text that is part of the statement's shape (never a value);
 *   join(fragments, ' UNION ')                   fragments one after another.
 */
export class Sql {
  constructor(
    readonly text: string,
    readonly params: readonly unknown[],
  ) {}
}

/** The empty fragment. */
export const EMPTY = new Sql('', []);

/** SQL text without parameters: identifiers, keywords, constants of the statement's shape. */
export function raw(text: string): Sql {
  return new Sql(text, []);
}

/** A fragment: interpolated fragments are spliced in, any other value is bound as one `?`. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  let text = strings[0] ?? '';
  const params: unknown[] = [];
  values.forEach((value, i) => {
    if (value instanceof Sql) {
      text += value.text;
      for (const p of value.params) params.push(p);
    } else {
      text += '?';
      params.push(value);
    }
    text += strings[i + 1] ?? '';
  });
  return new Sql(text, params);
}

/** The fragments one after another, `separator` between them. */
export function join(parts: readonly Sql[], separator: string): Sql {
  const params: unknown[] = [];
  for (const part of parts) for (const p of part.params) params.push(p);
  return new Sql(parts.map((p) => p.text).join(separator), params);
}

/** One `?` per value, comma-separated (an IN list). */
export function list(values: readonly unknown[]): Sql {
  return new Sql(values.map(() => '?').join(', '), [...values]);
}
