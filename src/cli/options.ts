/**
 * Option parsing shared by the verbs that call a Business (the platform verbs and `conformance`),
 * so the same flag is accepted and refused in the same words everywhere. Every refusal is a
 * `ConfigError` naming the option (exit status 2).
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import { errorCodeOf } from '../protocol/error-code.js';

/** `--timeout <ms>`: a whole number of milliseconds, at least 100; undefined when absent. */
export function timeoutOption(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!Number.isSafeInteger(ms) || ms < 100)
    throw new ConfigError(`--timeout ${JSON.stringify(value)} must be a whole number of milliseconds, at least 100`);
  return ms;
}

/** `--ca <file>`: the PEM text of the file; undefined when absent. */
export function caOption(file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ConfigError(`--ca: cannot read ${file} (${errorCodeOf(cause) || String(cause)})`, { cause });
  }
}
