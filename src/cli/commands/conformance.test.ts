import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../errors.js';
import { conformanceOptions } from './conformance.js';

describe('conformance command options', () => {
  it('maps flags onto checker options; --serve-profile implies --allow-loopback', () => {
    expect(
      conformanceOptions(
        'https://shop.example',
        {
          serveProfile: true,
          transport: 'rest',
          timeout: '2500',
          only: ['R-S4'],
          privateId: ['hub-1', 'hub-alias'],
          alias: ['downtown-store=loc_downtown', 'a=b=c'],
        },
        {},
      ),
    ).toEqual({
      businessUrl: 'https://shop.example',
      transport: 'rest',
      allowLoopback: true,
      serveProfile: true,
      timeoutMs: 2500,
      only: ['R-S4'],
      privateIds: ['hub-1', 'hub-alias'],
      aliases: [
        { alias: 'downtown-store', id: 'loc_downtown' },
        { alias: 'a=b', id: 'c' },
      ],
    });
  });

  it('takes the platform profile from UCP_PLATFORM_PROFILE when no flag names one', () => {
    expect(
      conformanceOptions('https://shop.example', {}, { UCP_PLATFORM_PROFILE: ' https://platform.example/p.json ' }).platformProfileUrl,
    ).toBe('https://platform.example/p.json');
    expect(
      conformanceOptions('https://shop.example', { platformProfile: 'https://p.example/x.json' }, { UCP_PLATFORM_PROFILE: 'https://other' })
        .platformProfileUrl,
    ).toBe('https://p.example/x.json');
    expect(
      conformanceOptions('https://shop.example', { serveProfile: true }, { UCP_PLATFORM_PROFILE: 'https://other' }).platformProfileUrl,
    ).toBeUndefined();
  });

  it('probes the rate limit only when asked, with a default allowance', () => {
    expect(conformanceOptions('https://shop.example', {}, {}).rateLimitProbe).toBeUndefined();
    expect(conformanceOptions('https://shop.example', { probeRateLimit: true }, {}).rateLimitProbe).toBe(2000);
    expect(conformanceOptions('https://shop.example', { probeRateLimit: '300' }, {}).rateLimitProbe).toBe(300);
  });

  it('is unpaced with the default retry budget unless --pace / --retry-budget say otherwise', () => {
    const plain = conformanceOptions('https://shop.example', {}, {});
    expect(plain.paceCallsPerSecond).toBeUndefined();
    expect(plain.retryBudgetMs).toBeUndefined();
    const paced = conformanceOptions('https://shop.example', { pace: '2.5', retryBudget: '120' }, {});
    expect(paced.paceCallsPerSecond).toBe(2.5);
    expect(paced.retryBudgetMs).toBe(120_000);
    expect(conformanceOptions('https://shop.example', { retryBudget: '0' }, {}).retryBudgetMs).toBe(0);
  });

  it.each([
    [{ transport: 'grpc' }, /--transport "grpc" is not one of mcp, rest, both/],
    [{ timeout: '5s' }, /--timeout "5s" must be a whole number of milliseconds/],
    [{ alias: ['no-separator'] }, /--alias "no-separator" must be <alias>=<canonical id>/],
    [{ alias: ['trailing='] }, /must be <alias>=<canonical id>/],
    [{ serveProfile: true, platformProfile: 'https://p.example/x.json' }, /give one/],
    [{ ca: '/nonexistent/ca.pem' }, /--ca: cannot read \/nonexistent\/ca\.pem \(ENOENT\)/],
    [{ probeRateLimit: 'lots' }, /--probe-rate-limit "lots" is not a number of calls from 1 to 100000/],
    [{ probeRateLimit: '0' }, /--probe-rate-limit "0" is not a number of calls/],
    [{ pace: '0' }, /--pace "0" is not a number of calls per second above 0/],
    [{ pace: 'fast' }, /--pace "fast" is not a number of calls per second/],
    [{ retryBudget: '-1' }, /--retry-budget "-1" is not a number of seconds from 0 to 3600/],
    [{ retryBudget: '' }, /--retry-budget "" is not a number of seconds/],
  ])('refuses %o with an actionable message', (options, message) => {
    expect(() => conformanceOptions('https://shop.example', options, {})).toThrow(ConfigError);
    expect(() => conformanceOptions('https://shop.example', options, {})).toThrow(message);
  });
});
