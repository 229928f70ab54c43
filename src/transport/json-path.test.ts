import { describe, expect, it } from 'vitest';
import { pointerToJsonPath } from './json-path.js';

describe('pointerToJsonPath', () => {
  it('maps the whole document to $', () => expect(pointerToJsonPath('')).toBe('$'));
  it('uses normalized bracket notation for names and bare indices for array positions', () => {
    expect(pointerToJsonPath('/distance/max')).toBe("$['distance']['max']");
    expect(pointerToJsonPath('/ids/3')).toBe("$['ids'][3]");
  });
  it('decodes pointer escapes and escapes quotes in names', () => {
    expect(pointerToJsonPath('/signals/dev.ucp.buyer_ip')).toBe("$['signals']['dev.ucp.buyer_ip']");
    expect(pointerToJsonPath('/a~1b/c~0d')).toBe("$['a/b']['c~d']");
    expect(pointerToJsonPath("/it's")).toBe("$['it\\'s']");
  });
});
