/**
 * The command line of an `npm run <script>` report script: node:util's parseArgs with positionals
 * and a `--help`/`-h` flag, and the two early endings every such script has — the usage on stdout
 * for --help (exit 0), the parser's message and the usage on stderr for a bad option (exit 2).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O & typeof HELP; allowPositionals: true }>>;

/**
 * The parsed arguments, or the exit status to end with when there is nothing more to do (the
 * usage or the error is already printed).
 */
export function parseScriptArgs<const O extends Options>(argv: string[], options: O, usage: string): Parsed<O> | number {
  let parsed: Parsed<O>;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, ...HELP }, allowPositionals: true });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  const asked: { help?: boolean | undefined } = parsed.values;
  if (asked.help === true) {
    console.log(usage);
    return 0;
  }
  return parsed;
}
