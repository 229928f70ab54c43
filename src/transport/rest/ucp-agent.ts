/**
 * The `UCP-Agent` request header (R-G1, REST binding): an RFC 8941 Dictionary whose `profile`
 * member is an sf-string holding the Platform profile URL, e.g.
 * `UCP-Agent: profile="https://platform.example/profiles/agent.json"`.
 * Parsed with a real Structured Fields parser, never a regex: quoting, escapes and parameters
 * follow RFC 8941 exactly.
 */
import { parseDictionary } from 'structured-headers';
import { causeMessage, UcpNegotiationError } from '../../errors.js';

/**
 * The profile URL, or a UcpNegotiationError `invalid_profile_url` (REST 400) saying what to fix.
 * @param exampleUrl the profile URL shown in the example: one that works on this Business, when any is announced.
 */
export function parseUcpAgent(header: string | string[] | undefined, exampleUrl = 'https://platform.example/profile.json'): string {
  const EXAMPLE = `UCP-Agent: profile="${exampleUrl}"`;
  if (header === undefined || (Array.isArray(header) && header.length === 0)) {
    throw new UcpNegotiationError('invalid_profile_url', `The UCP-Agent header is required; send ${EXAMPLE}.`);
  }
  // Repeated header lines combine with "," (RFC 9110 §5.3), which is how RFC 8941 dictionaries merge.
  const value = Array.isArray(header) ? header.join(', ') : header;
  let dictionary: ReturnType<typeof parseDictionary>;
  try {
    dictionary = parseDictionary(value);
  } catch (cause) {
    throw new UcpNegotiationError(
      'invalid_profile_url',
      `The UCP-Agent header is not an RFC 8941 dictionary (${causeMessage(cause)}); send ${EXAMPLE}.`,
      { cause },
    );
  }
  const member = dictionary.get('profile');
  if (member === undefined) {
    throw new UcpNegotiationError('invalid_profile_url', `The UCP-Agent header has no "profile" member; send ${EXAMPLE}.`);
  }
  const [item] = member;
  if (typeof item !== 'string') {
    throw new UcpNegotiationError(
      'invalid_profile_url',
      `The UCP-Agent "profile" member must be a quoted string (sf-string); send ${EXAMPLE}.`,
    );
  }
  if (item.trim() === '') throw new UcpNegotiationError('invalid_profile_url', `The UCP-Agent "profile" member is empty; send ${EXAMPLE}.`);
  return item;
}
