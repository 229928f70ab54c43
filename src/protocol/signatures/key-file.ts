/**
 * Key files: a signing key read from disk (a private JWK or a JWK Set), and a new one written for a
 * Platform that has none. The file is the only place a private part lives; errors name the file,
 * never its content.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { causeMessage, ConfigError } from '../../errors.js';
import { generateSigningJwk, publicJwk, readSigningKeySet, type PublicJwk, type SigningKeySet } from './jwk.js';

/** Key files are small; a bigger one is not a key file. */
const MAX_KEY_FILE_BYTES = 256 * 1024;

/** Reads `path` as a signing key set (see `readSigningKeySet`). Throws `ConfigError` saying what to fix. */
export async function loadSigningKeyFile(path: string): Promise<SigningKeySet> {
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.byteLength > MAX_KEY_FILE_BYTES) throw new ConfigError(`${path}: ${bytes.byteLength} bytes is too large for a JWK file.`);
    text = bytes.toString('utf8');
  } catch (cause) {
    if (cause instanceof ConfigError) throw cause;
    throw new ConfigError(`Cannot read the signing key file ${path}: ${causeMessage(cause)}.`, { cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    // The parser's message may quote the file, which holds a private key: say only where it broke.
    throw new ConfigError(`${path}: not valid JSON; expected a private JWK or a JWK Set.`, { cause: undefined });
  }
  return readSigningKeySet(json, path);
}

/**
 * Writes a new ES256 private JWK (its kid the RFC 7638 thumbprint) to `path`, readable by the owner
 * only, refusing to replace an existing file. Returns the public part to publish.
 */
export async function writeNewSigningKeyFile(path: string): Promise<PublicJwk> {
  const jwk = generateSigningJwk();
  try {
    await writeFile(path, `${JSON.stringify(jwk, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
  } catch (cause) {
    const exists = cause instanceof Error && 'code' in cause && cause.code === 'EEXIST';
    throw new ConfigError(
      exists
        ? `${path} already exists; choose another --key-out file, or remove it first (it may hold a key in use).`
        : `Cannot write the key file ${path}: ${causeMessage(cause)}.`,
      { cause },
    );
  }
  return publicJwk(jwk);
}
