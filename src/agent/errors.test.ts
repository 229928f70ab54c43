import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BusinessError } from '../client/errors.js';
import { UcpNegotiationError } from '../errors.js';
import { trustHint, withTrustHint } from '../transport/profile-trust.js';
import { clipAtSentence, describeFailure } from './errors.js';

/** A business's discovery refusal as the SDK reports it: its message in `data.content`. */
function refusal(content: string): BusinessError {
  return new BusinessError(`The business answered -32001: ${content}`, { transport: 'mcp', rpcCode: -32001, data: { content } });
}

/** The text between the quotes of a failure reason. */
const quotedPart = (reason: string): string => /: "(.*)"/s.exec(reason)?.[1] ?? '';

describe('what a business said reaches the model in whole sentences (R-G5 hints)', () => {
  const url = (i: number): string => `https://platform${i}.example/profiles/v2026-01/${'agent-profile-'.repeat(3)}${i}.json`;
  const hints = [trustHint([]), trustHint([url(1)]), trustHint([url(1), url(2)]), trustHint(Array.from({ length: 12 }, (_, i) => url(i)))];

  it.each(hints.map((h) => [h.length, h]))('the trust hint of %i characters is quoted whole, or cut only between sentences', (_n, hint) => {
    const message = (
      withTrustHint(new UcpNegotiationError('profile_unreachable', 'The platform profile could not be fetched.'), []) as Error
    ).message;
    const content = `${message.split('.')[0] ?? ''}. ${hint}`;
    const said = quotedPart(describeFailure('demo', refusal(content), 'search').reason);
    expect(said.length).toBeGreaterThan(0);
    expect(content.startsWith(said)).toBe(true);
    // Either all of it (less the closing period) or up to a sentence end.
    expect(said === content.replace(/\.$/, '') || /^[.;?!] /.test(content.slice(said.length, said.length + 2))).toBe(true);
    expect(said.endsWith('…')).toBe(false);
  });

  it('keeps the demo’s own hint about another profile whole (it was cut at "To use another profile wi…")', () => {
    const hint = trustHint(['https://platform.example/profiles/v2026-01/agent.json']);
    const said = quotedPart(describeFailure('demo', refusal(`Discovery failed: the profile is not allowed. ${hint}`), 'search').reason);
    expect(said).toContain('To use another profile without publishing it, the business operator adds it with --trust-platform-profile');
  });

  it('clipAtSentence: short texts unchanged; long ones end at a sentence end, or at a word with "…" when one sentence is too long', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[A-Za-z][a-z ]{0,80}[a-z]$/), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 20, max: 400 }),
        (sentences, max) => {
          const text = sentences.join('. ');
          const clipped = clipAtSentence(text, max);
          expect(clipped.length).toBeLessThanOrEqual(max);
          if (text.length <= max) expect(clipped).toBe(text);
          else if (clipped.endsWith('…')) expect(text.startsWith(clipped.slice(0, -1))).toBe(true);
          else expect(text.startsWith(`${clipped}. `)).toBe(true);
        },
      ),
    );
  });
});
