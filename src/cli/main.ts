#!/usr/bin/env node
/**
 * `ucp-location` command line. Each verb lives in its own module under ./commands and
 * registers itself on the program; this file only wires them together, loading just the
 * module of the verb being run so that start-up stays fast.
 */
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { loadCommands } from './commands/index.js';
import { isRecord } from '../protocol/guards.js';

// `ucp-location lookup … | head -3`: once the reader has what it wants it closes the pipe, and the
// next write fails with EPIPE. That is the reader saying "enough", not a failure of ours: stop at
// once, quietly, with status 0 (as other Unix tools do), instead of an unhandled 'error' stack.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const packageVersion = isRecord(pkg) && typeof pkg['version'] === 'string' ? pkg['version'] : '0.0.0';

const program = new Command('ucp-location')
  .description('UCP Location (2026-08-25): business server, data tools, platform client and conformance checker')
  .version(packageVersion)
  .showHelpAfterError();

// The verb is the first argument that is not an option (`ucp-location --help` has none).
const verb = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
for (const register of await loadCommands(verb)) register(program);

await program.parseAsync(process.argv);
