/**
 * Shell sessions as the docs show them: split into the commands a reader would type, and moved
 * from the documented machine (the `ucp-location` on a PATH, port 8080) to the test's.
 */

export interface ShellCommand {
  /** The command as written, continuation lines joined, comments removed, without a trailing `&`. */
  text: string;
  /** 1-based line in the page where the command starts. */
  line: number;
  /** Written with a trailing `&`: the reader leaves it running and goes on. */
  background: boolean;
}

/**
 * Splits a `sh`/`bash` block into commands: a newline ends a command unless it is escaped with
 * `\` or inside quotes (curl bodies span lines); `#` at the start of a word begins a comment.
 */
export function splitCommands(body: string, firstLine: number): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let current = '';
  let quote: "'" | '"' | null = null;
  let line = firstLine;
  let startLine = firstLine;
  const push = (): void => {
    const text = current.trim();
    current = '';
    if (text === '') return;
    const background = /(?:^|[^&])&$/.test(text);
    commands.push({ text: background ? text.slice(0, -1).trimEnd() : text, line: startLine, background });
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? '';
    if (current.trim() === '' && /\S/.test(c)) startLine = line;
    if (c === '\n') line++;
    if (quote === "'") {
      current += c;
      if (c === "'") quote = null;
    } else if (c === '\\' && i + 1 < body.length) {
      const next = body[++i] ?? '';
      if (next === '\n') {
        line++;
        current += ' ';
      } else current += c + next;
    } else if (quote === '"') {
      current += c;
      if (c === '"') quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
      current += c;
    } else if (c === '#' && (current === '' || /\s$/.test(current))) {
      while (i + 1 < body.length && body[i + 1] !== '\n') i++;
    } else if (c === '\n') push();
    else current += c;
  }
  if (quote !== null) throw new Error(`line ${startLine}: a ${quote} quote is never closed`);
  push();
  return commands;
}

/**
 * A `console` block: `$ ` lines are commands (a trailing `\` continues onto the next line).
 * Output lines are not compared yet, so a block that shows any is refused rather than half-checked.
 */
export function consoleCommands(body: string, firstLine: number): ShellCommand[] {
  const typed: string[] = [];
  let continued = false;
  for (const line of body.split('\n')) {
    if (continued || line.startsWith('$ ')) {
      typed.push(continued ? line : line.slice(2));
      continued = line.endsWith('\\');
    } else if (line.trim() !== '') {
      throw new Error(
        `a console block with output lines ("${line.trim()}") is not checked: write the commands as sh and the output as a json block`,
      );
    } else typed.push('');
  }
  return splitCommands(typed.join('\n'), firstLine);
}

/**
 * What the docs write for the reader's machine, as this test runs it. These are the only
 * rewrites; every one keeps the meaning of the command:
 * - `npm start [-- args]` → the `start` script of package.json followed by args (what npm runs);
 * - `npx ucp-location` and `node dist/cli/main.js` → `ucp-location`, which the test puts on the
 *   PATH as `node <clone>/dist/cli/main.js` (a clone's `npx` runs the package's own bin).
 * Ports are moved later, by the page session (documented ports are stand-ins for free ones).
 */
export function asTestRuns(command: string, startScript: string): string {
  return command
    .replace(/^npm start(?:\s+--(?=\s|$))?/, startScript)
    .replace(/(^|[;&|]\s*)(?:npx ucp-location|node dist\/cli\/main\.js)(?=\s|$)/g, '$1ucp-location');
}

/** `ucp-location serve` over HTTP (not `--stdio`): a server the reader leaves running. */
export function isHttpServe(command: string): boolean {
  return /^ucp-location\s+serve(?:\s|$)/.test(command) && !/\s--stdio(?:\s|$)/.test(command);
}

/** URLs on this machine named with a port: 127.0.0.1:8080, localhost:8080, [::1]:8080. */
export const LOOPBACK_PORT = /(?:127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})\b/g;

/** The port a `serve` command is documented to listen on (its `--port`, else the default 8080). */
export function documentedServePort(command: string): number {
  const port = /\s--port[=\s]+(\d+)/.exec(command)?.[1];
  return port === undefined ? 8080 : Number(port);
}

/** The same `serve` on a free port: `--port N` becomes `--port 0`; without `--port`, `--port 0` is added. */
export function onFreePort(command: string): string {
  return /\s--port[=\s]+\d+/.test(command) ? command.replace(/(\s--port[=\s]+)\d+/, '$10') : `${command} --port 0`;
}

/** http(s) URLs curl would contact: the ones outside single quotes (bodies and headers are quoted). */
export function curlTargets(command: string): string[] {
  return [...command.replace(/'[^']*'/g, "''").matchAll(/https?:\/\/[^\s'"]+/g)].map((m) => m[0]);
}

/**
 * The programs a documented command may start when the test runs it (after `asTestRuns`). Anything
 * else — npm ci/install (they rewrite the node_modules this clone shares), npm test and other
 * scripts, npx of another package, .ci/run, package managers — is never run here: its block must
 * carry a not-runnable marker saying why.
 */
export const RUNNABLE_PROGRAMS: ReadonlySet<string> = new Set(['ucp-location', 'curl', 'jq', 'cat', 'echo', 'ls', 'head', 'grep', 'wc']);

/** Programs `command` would start that are not in RUNNABLE_PROGRAMS (command substitution counts as one). */
export function unrunnablePrograms(command: string): string[] {
  const unquoted = command.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''");
  if (/\$\(|`/.test(unquoted)) return ['$(…)'];
  return unquoted
    .split(/\|\|?|&&|;/)
    .map(
      (segment) =>
        segment
          .trim()
          .split(/\s+/)
          .find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) ?? '',
    )
    .filter((program) => program !== '' && !RUNNABLE_PROGRAMS.has(program));
}
