/**
 * Errors the Business reports, made typed. A discovery or version failure the Business names
 * (R-G5) keeps its UCP code; `version_unsupported` becomes a `VersionUnsupportedError` so a caller
 * handles it the same way whether it was found locally or by the Business.
 */
import { BusinessError, VersionUnsupportedError, type UcpClientError } from './errors.js';

export type BusinessErrorDetails = BusinessError['details'];

export function businessFailure(summary: string, details: BusinessErrorDetails, cause?: unknown): UcpClientError {
  const error = new BusinessError(summary, details, cause === undefined ? undefined : { cause });
  if (details.ucpCode === 'version_unsupported') {
    return new VersionUnsupportedError(`The business does not support this platform's version: ${summary}`, [], undefined, {
      cause: error,
    });
  }
  return error;
}

/** A one-line description of what the Business said, for messages. */
export function describeBusinessError(
  transport: 'mcp' | 'rest',
  status: string,
  content: string | undefined,
  ucpCode: string | undefined,
): string {
  const code = ucpCode === undefined ? '' : ` [${ucpCode}]`;
  const text = content === undefined || content === '' ? '' : `: ${content}`;
  return `The business answered ${status} over ${transport.toUpperCase()}${code}${text}`;
}
