import { describe, expect, it } from 'vitest';
import { UcpNegotiationError } from '../../errors.js';
import { parseUcpAgent } from './ucp-agent.js';

function codeOf(header: string | string[] | undefined): string {
  try {
    parseUcpAgent(header);
  } catch (err) {
    expect(err).toBeInstanceOf(UcpNegotiationError);
    return (err as UcpNegotiationError).code;
  }
  return 'ok';
}

describe('parseUcpAgent (R-G1)', () => {
  it('reads the profile sf-string of an RFC 8941 dictionary', () => {
    expect(parseUcpAgent('profile="https://platform.example/p.json"')).toBe('https://platform.example/p.json');
    expect(parseUcpAgent('v=1, profile="https://platform.example/p.json";x=?1')).toBe('https://platform.example/p.json');
  });

  it('combines repeated header lines as one dictionary', () => {
    expect(parseUcpAgent(['v=1', 'profile="https://platform.example/p.json"'])).toBe('https://platform.example/p.json');
  });

  it('answers invalid_profile_url for a missing, unparsable, token-valued or empty profile (REST 400)', () => {
    expect(codeOf(undefined)).toBe('invalid_profile_url');
    expect(codeOf('profile="unterminated')).toBe('invalid_profile_url');
    expect(codeOf('profile=https://platform.example/p.json')).toBe('invalid_profile_url'); // a token, not a string
    expect(codeOf('agent="x"')).toBe('invalid_profile_url');
    expect(codeOf('profile=""')).toBe('invalid_profile_url');
  });
});
