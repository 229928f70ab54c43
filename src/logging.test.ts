import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from './errors.js';
import {
  chooseLogFormat,
  createLogger,
  isTerminal,
  LOG_FORMAT_ENV,
  parseLogFormat,
  redactCoordinates,
  summarizeRequest,
  truncateCoordinate,
  type LoggerOptions,
} from './logging.js';

describe('truncateCoordinate (R-P1)', () => {
  it('keeps at most 2 decimals, never rounds away from zero, and loses less than 0.01°', () => {
    fc.assert(
      fc.property(fc.double({ min: -180, max: 180, noNaN: true }), (x) => {
        const t = truncateCoordinate(x);
        expect(Math.abs(t)).toBeLessThanOrEqual(Math.abs(x) + 1e-9);
        expect(Math.abs(x - t)).toBeLessThan(0.01 + 1e-9);
        expect(Number.isInteger(Math.round(t * 100 * 1e6) / 1e6)).toBe(true);
        if (t !== 0) expect(Math.sign(t)).toBe(Math.sign(x));
      }),
    );
  });

  it('truncates rather than rounds, and keeps digits binary noise would lose', () => {
    expect(truncateCoordinate(37.779999)).toBe(37.77);
    expect(truncateCoordinate(-122.41942)).toBe(-122.41);
    expect(truncateCoordinate(0.29)).toBe(0.29);
    expect(truncateCoordinate(-0.004)).toBe(0); // toBe tells -0 from 0: no "-0" in logs
  });
});

describe('redactCoordinates (R-P1)', () => {
  it('truncates every coordinate-named number at any depth and leaves other fields alone', () => {
    const out = redactCoordinates({
      distance: { center: { latitude: 48.858844, longitude: 2.294351 }, max: 1234.5678 },
      serves: { point: { lat: -33.856784, lon: 151.215297 } },
      list: [{ lng: 139.691706 }],
      name: 'latitude',
    });
    expect(out).toEqual({
      distance: { center: { latitude: 48.85, longitude: 2.29 }, max: 1234.56 },
      serves: { point: { lat: -33.85, lon: 151.21 } },
      list: [{ lng: 139.69 }],
      name: 'latitude',
    });
  });
});

describe('redactCoordinates is structural: any key, any spelling (R-P1, issue 37 N7; fails before: only a list of key names)', () => {
  it('truncates coordinates under any key name, in strings and in member names, and leaves addresses, versions and times alone', () => {
    const out = redactCoordinates({
      Latitude: 40.7123456,
      LONGITUDE: '-73.9876543',
      distance: { center: { x: 40.7123456, y: -74.0060123 } },
      point: [151.215297, -33.856784],
      note: 'buyer at 40.7123456,-74.0060123 (geo:48.858844;2.294351)',
      byPlace: { '40.7123456,-74.0060123': 3 },
      client: '10.0.100.5',
      version: '1.2.345',
      at: '2026-08-25T12:30:45.123Z',
      count: 12,
    });
    expect(out).toEqual({
      Latitude: 40.71,
      LONGITUDE: '-73.98',
      distance: { center: { x: 40.71, y: -74 } },
      point: [151.21, -33.85],
      note: 'buyer at 40.71,-74.00 (geo:48.85;2.29)',
      byPlace: { '40.71,-74.00': 3 },
      client: '10.0.100.5',
      version: '1.2.345',
      at: '2026-08-25T12:30:45.123Z',
      count: 12,
    });
  });

  it('property: whatever the key, a coordinate as a number or a string leaves the log with at most 2 decimals', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z_]{1,10}$/), fc.double({ min: -180, max: 180, noNaN: true }), (key, coordinate) => {
        const text = coordinate.toFixed(7);
        const line = JSON.stringify(redactCoordinates({ [key]: coordinate, nested: { [key]: text, note: `at ${text};${text}` } }));
        expect(line).not.toMatch(/\d\.\d{3}/);
      }),
    );
  });
});

describe('redactCoordinates on malformed input (R-P1; fails before: non-numbers passed through in full)', () => {
  it('truncates numeric strings and drops coordinate-named values of any other type', () => {
    expect(
      redactCoordinates({
        center: { latitude: '40.7123456', longitude: ' -73.9876543 ', lat: [40.7123456], lon: { deg: 1.234567 }, lng: true },
        other: { latitude: null, longitude: 'north' },
      }),
    ).toEqual({
      center: { latitude: '40.71', longitude: '-73.98', lat: '[redacted]', lon: '[redacted]', lng: true },
      other: { latitude: null, longitude: '[redacted]' },
    });
  });

  it('summarizeRequest describes a center of the wrong shape by its type only', () => {
    expect(summarizeRequest({ distance: { center: [40.7123456, -73.9876543], max: 5 } })).toEqual({
      distance: { center: '[array]', max: 5 },
    });
    expect(summarizeRequest({ distance: { center: '40.7123456,-73.98765', max: 5 } })).toEqual({
      distance: { center: '[string]', max: 5 },
    });
  });
});

describe('createLogger (R-P1)', () => {
  it('never writes a precise buyer coordinate, whatever object a call site logs', async () => {
    const sink = new PassThrough();
    const lines: string[] = [];
    sink.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
    const log = createLogger({ level: 'info', destination: sink });
    log.info({ request: { distance: { center: { latitude: 51.5007292, longitude: -0.1246254 }, max: 500 } } }, 'tools/call');
    await new Promise((resolve) => setImmediate(resolve));
    const text = lines.join('');
    expect(text).toContain('"latitude":51.5');
    expect(text).toContain('"longitude":-0.12');
    expect(text).not.toContain('51.5007');
    expect(text).not.toContain('0.1246');
  });
});

/** A sink that collects what a logger writes; `tty` makes it claim to be a terminal. */
function sink(tty = false): { stream: PassThrough; text: () => Promise<string> } {
  const stream = new PassThrough();
  if (tty) Object.assign(stream, { isTTY: true });
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  return {
    stream,
    text: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return chunks.join('');
    },
  };
}

const PRECISE = { request: { distance: { center: { latitude: 51.5007292, longitude: -0.1246254 }, max: 500 } } };

async function logOnce(options: LoggerOptions & { destination: PassThrough }, text: () => Promise<string>): Promise<string> {
  createLogger({ level: 'info', ...options }).info(PRECISE, 'tools/call');
  return text();
}

describe('log format', () => {
  const saved = { format: process.env[LOG_FORMAT_ENV], noColor: process.env['NO_COLOR'] };
  afterEach(() => {
    for (const [name, value] of [
      [LOG_FORMAT_ENV, saved.format],
      ['NO_COLOR', saved.noColor],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('is pretty on a terminal and JSON elsewhere, unless the flag or UCP_LOG_FORMAT says otherwise (flag first)', () => {
    expect(chooseLogFormat({ isTTY: true })).toBe('pretty');
    expect(chooseLogFormat({ isTTY: false })).toBe('json');
    expect(chooseLogFormat({ isTTY: true, env: 'json' })).toBe('json');
    expect(chooseLogFormat({ isTTY: false, env: 'pretty' })).toBe('pretty');
    expect(chooseLogFormat({ isTTY: false, env: '' })).toBe('json');
    expect(chooseLogFormat({ isTTY: false, env: 'json', format: 'pretty' })).toBe('pretty');
    expect(chooseLogFormat({ isTTY: true, env: 'pretty', format: 'json' })).toBe('json');
  });

  it('refuses an unknown format, naming where it came from and the choices', () => {
    expect(parseLogFormat(undefined, '--log-format')).toBeUndefined();
    expect(parseLogFormat('pretty', '--log-format')).toBe('pretty');
    expect(() => parseLogFormat('text', '--log-format')).toThrow(ConfigError);
    expect(() => parseLogFormat('text', '--log-format')).toThrow('--log-format must be one of json, pretty, got "text"');
    expect(() => chooseLogFormat({ isTTY: false, env: 'JSON' })).toThrow(`${LOG_FORMAT_ENV} must be one of json, pretty, got "JSON"`);
  });

  it('detects a terminal from the stream itself', () => {
    expect(isTerminal(new PassThrough())).toBe(false);
    expect(isTerminal(sink(true).stream)).toBe(true);
    expect(isTerminal('stdout')).toBe(process.stdout.isTTY === true);
    expect(isTerminal('stderr')).toBe(process.stderr.isTTY === true);
  });

  it('writes one JSON object per line when not at a terminal (R-P1: coordinates truncated)', async () => {
    delete process.env[LOG_FORMAT_ENV];
    const out = sink();
    const line = JSON.parse((await logOnce({ destination: out.stream }, out.text)).trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, msg: 'tools/call', service: 'ucp-location' });
    expect(line['request']).toEqual({ distance: { center: { latitude: 51.5, longitude: -0.12 }, max: 500 } });
  });

  it('writes one readable line per entry at a terminal, in colour, with coordinates truncated (R-P1)', async () => {
    delete process.env[LOG_FORMAT_ENV];
    delete process.env['NO_COLOR'];
    const out = sink(true);
    const text = await logOnce({ destination: out.stream }, out.text);
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text).toContain('\u001b['); // ANSI colour
    process.env['NO_COLOR'] = '1'; // https://no-color.org
    const plain = sink(true);
    expect(await logOnce({ destination: plain.stream }, plain.text)).not.toContain('\u001b[');
    expect(text).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] .*INFO.*: .*tools\/call/);
    expect(text).toContain('"latitude":51.5');
    expect(text).not.toContain('51.5007');
    expect(text).not.toContain('0.1246');
  });

  it('forced pretty into a file or pipe: readable, no colour codes, still redacted (R-P1)', async () => {
    const out = sink();
    const text = await logOnce({ destination: out.stream, format: 'pretty' }, out.text);
    expect(text).toMatch(
      /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: tools\/call \{"request":\{"distance":\{"center":\{"latitude":51\.5,"longitude":-0\.12\},"max":500\}\}\}\n$/,
    );
    expect(text).not.toContain('\u001b[');
  });

  it('UCP_LOG_FORMAT forces either format when no flag does', async () => {
    process.env[LOG_FORMAT_ENV] = 'json';
    const atTerminal = sink(true);
    expect(JSON.parse(await logOnce({ destination: atTerminal.stream }, atTerminal.text))).toMatchObject({ msg: 'tools/call' });
    process.env[LOG_FORMAT_ENV] = 'pretty';
    const piped = sink();
    expect(await logOnce({ destination: piped.stream }, piped.text)).toMatch(/^\[[\d:.]+\] INFO: tools\/call /);
    const flagWins = sink();
    expect(JSON.parse(await logOnce({ destination: flagWins.stream, format: 'json' }, flagWins.text))).toMatchObject({ msg: 'tools/call' });
  });
});

describe('summarizeRequest', () => {
  it('describes the operands without free text or full-precision coordinates', () => {
    const summary = summarizeRequest({
      query: 'my home address is 1 Main St',
      distance: { center: { latitude: 40.712776, longitude: -74.005974 }, max: 2000 },
      serves: { point: { latitude: 1, longitude: 2 } },
      filters: { items: ['sku-1', 'sku-2'], amenities: ['dev.ucp.amenity.wi_fi'] },
      pagination: { limit: 5, cursor: 'opaque' },
    });
    expect(summary).toEqual({
      query_chars: 28,
      distance: { center: { latitude: 40.71, longitude: -74 }, max: 2000 },
      serves: ['point'],
      filters: ['items', 'amenities'],
      items: 2,
      limit: 5,
      cursor: true,
    });
    expect(JSON.stringify(summary)).not.toContain('Main St');
  });
});
