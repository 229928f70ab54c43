import { describe, expect, it } from 'vitest';
import { group } from './match-group.js';

describe('group: a mandatory capture group of a match', () => {
  it('returns the group', () => {
    const m = /^(\d+)-(\d+)$/.exec('12-34');
    expect(m === null ? null : [group(m, 1), group(m, 2)]).toEqual(['12', '34']);
  });

  it('throws, naming the group and the text, when the group did not take part (the pattern and its reader disagree)', () => {
    const m = /^(\d+)(?:-(\d+))?$/.exec('12');
    expect(m).not.toBeNull();
    if (m !== null) expect(() => group(m, 2)).toThrow(/capture group 2 of "12"/);
  });
});
