/**
 * The Platform's half of UCP message signatures (R-SIG2, R-SIG3), shared by both bindings:
 * every request is signed when the Platform has a key, and every answer of a Business that
 * publishes keys is verified before anything in it is used. Both bindings hand this module the
 * exact bytes that travel; it never re-serialises a body.
 *
 * An answer that carries no signature is accepted unless `requireBusinessSignatures` is set: the
 * draft makes answer signatures optional for read-only queries and for error answers. One that
 * carries a signature is always checked, and a failure is never downgraded to a warning.
 */
import {
  hasSignatureHeaders,
  profileKeys,
  signRequest,
  SignatureError,
  verifyResponse,
  type MessageHeaders,
  type SigningKey,
} from '../protocol/signatures/index.js';
import { AnswerSignatureError } from './errors.js';

export interface MessageSignatureOptions {
  /** This Platform's key: when set, every request is signed with it (its public part must be in the Platform profile's `keys[]`). */
  readonly signingKey?: SigningKey | undefined;
  /** Refuse an answer of the Business that carries no signature (only successful answers; error answers may be unsigned). */
  readonly requireBusinessSignatures?: boolean | undefined;
  /** The clock, ms since the epoch: `created` of our signatures, `expires` of the Business's. */
  readonly now?: (() => number) | undefined;
}

/** The Business whose answers are checked: its profile URL (to name it) and what the profile publishes. */
export interface BusinessIdentity {
  readonly profileUrl: string;
  /** The Business profile as fetched; its `keys[]` and `signing_keys[]` are read. */
  readonly profile: unknown;
}

/** The request as it will leave: an absolute URL, the method, its headers (lower-case names) and the exact body bytes. */
export interface OutgoingRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | undefined;
}

export class MessageSignatures {
  readonly #signingKey: SigningKey | undefined;
  readonly #require: boolean;
  readonly #now: () => number;
  readonly #business: BusinessIdentity;
  readonly #keys: readonly unknown[];

  constructor(business: BusinessIdentity, options: MessageSignatureOptions = {}) {
    this.#signingKey = options.signingKey;
    this.#require = options.requireBusinessSignatures === true;
    this.#now = options.now ?? Date.now;
    this.#business = business;
    this.#keys = profileKeys(business.profile);
    if (this.#require && this.#keys.length === 0) {
      throw new AnswerSignatureError(
        `The business ${business.profileUrl} publishes no signing keys (keys[] in its profile), so its answers cannot be verified, and this platform requires signed answers; ask the business to publish its key, or drop --require-business-signatures.`,
        'key_not_found',
        business.profileUrl,
      );
    }
  }

  /** Whether requests are signed. */
  get signsRequests(): boolean {
    return this.#signingKey !== undefined;
  }

  /** Whether answers are verified (the Business publishes keys). */
  get verifiesAnswers(): boolean {
    return this.#keys.length > 0;
  }

  /**
   * The headers to add to `request` (`content-digest`, `signature-input`, `signature`), covering
   * what the draft requires: `@method`, `@authority`, `@path`, `@query` when present, `ucp-agent`
   * and `idempotency-key` when sent, `content-digest` and `content-type` with a body. Empty when
   * this Platform has no key.
   */
  signatureHeaders(request: OutgoingRequest): Record<string, string> {
    const key = this.#signingKey;
    if (key === undefined) return {};
    const search = request.url.search;
    const signed = signRequest(
      {
        method: request.method.toUpperCase(),
        authority: request.url.host,
        path: request.url.pathname,
        query: search === '' ? undefined : search.slice(1),
        headers: request.headers,
      },
      request.body,
      key,
      { created: Math.floor(this.#now() / 1000) },
    );
    return { ...signed };
  }

  /**
   * Checks an answer of the Business: `what` names the exchange in messages ("search over REST").
   * Throws `AnswerSignatureError` naming the Business when a signature or digest fails, or when a
   * successful answer is unsigned and signed answers are required.
   */
  verifyAnswer(answer: { readonly status: number; readonly headers: MessageHeaders }, body: Uint8Array, what: string): void {
    if (this.#keys.length === 0) return;
    const business = this.#business.profileUrl;
    if (!hasSignatureHeaders({ status: answer.status, headers: answer.headers })) {
      if (this.#require && answer.status < 400) {
        throw new AnswerSignatureError(
          `The business ${business} sent an unsigned answer to ${what} (HTTP ${answer.status}), and this platform requires signed answers; the answer was discarded.`,
          'signature_missing',
          business,
        );
      }
      return;
    }
    try {
      verifyResponse({ status: answer.status, headers: answer.headers }, body, {
        keys: this.#keys,
        now: Math.floor(this.#now() / 1000),
      });
    } catch (error) {
      if (!(error instanceof SignatureError)) throw error;
      throw new AnswerSignatureError(
        `The answer of the business ${business} to ${what} failed verification against the keys its profile publishes (${error.code}: ${error.message}); it was discarded, since it may have been altered on the way or not come from the business.`,
        error.code,
        business,
        { cause: error },
      );
    }
  }
}
