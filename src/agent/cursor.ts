/**
 * The cursor of a merged list, as the model sees it: an opaque string that continues the list
 * where the previous answer stopped.
 *
 * It carries its whole state (no session table to bound or expire): the list definition, where
 * each business stands, the instant `open_now` was evaluated at. It is sealed with AES-256-GCM
 * under a key drawn when the process starts: authenticated, so an edited or invented cursor is
 * refused instead of sending a business somewhere unexpected; encrypted, because the state holds
 * the buyer's coordinates and the businesses' own cursors, which are nobody's business in a
 * transcript. A restart of the bridge invalidates outstanding cursors, which is stated in the
 * refusal so the model simply asks again.
 *
 * Wire form: base64url(version byte ‖ 12-byte nonce ‖ ciphertext ‖ 16-byte tag), version byte as
 * associated data.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ToolInputError } from './errors.js';

const VERSION = 1;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class CursorSeal {
  readonly #key: Buffer;

  constructor(key: Buffer = randomBytes(32)) {
    if (key.length !== 32) throw new RangeError('the cursor key must be 32 bytes');
    this.#key = key;
  }

  seal(state: unknown): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    const version = Buffer.from([VERSION]);
    cipher.setAAD(version);
    const body = Buffer.concat([cipher.update(JSON.stringify(state), 'utf8'), cipher.final()]);
    return Buffer.concat([version, nonce, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The state sealed in `cursor`, or a ToolInputError telling the model to start the list again. */
  open(cursor: string): unknown {
    const refuse = (): ToolInputError =>
      new ToolInputError(
        '"cursor" is not one this bridge issued (it was changed, belongs to an earlier run of the bridge, or was copied incompletely); call find_locations again without "cursor" to start the list over.',
        'cursor',
      );
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw refuse();
    const bytes = Buffer.from(cursor, 'base64url');
    if (bytes.length < 1 + NONCE_BYTES + TAG_BYTES || bytes[0] !== VERSION) throw refuse();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(1, 1 + NONCE_BYTES));
      decipher.setAAD(bytes.subarray(0, 1));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const plain = Buffer.concat([decipher.update(bytes.subarray(1 + NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
      return JSON.parse(plain.toString('utf8'));
    } catch {
      throw refuse();
    }
  }
}
