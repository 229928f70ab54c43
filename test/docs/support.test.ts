/**
 * The pieces the docs test reads pages with: fences and markers, shell commands, JSON matching.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScratchDir } from '../support/scratch.js';
import { at, differences, without } from './support/json-match.js';
import { codeBlocks } from './support/markdown.js';
import { asTestRuns, curlTargets, documentedServePort, onFreePort, splitCommands, unrunnablePrograms } from './support/shell.js';

describe('codeBlocks', () => {
  const scratch = useScratchDir('ucp-docs-md');

  it('reads fences with their language, first line and the markers directly above them', () => {
    const page = [
      '# Title',
      '',
      '<!-- not-runnable: needs a public host -->',
      '```sh',
      'curl https://x',
      '```',
      '',
      '````json',
      '{"a": "```"}',
      '````',
    ];
    writeFileSync(join(scratch(), 'page.md'), page.join('\n'));
    expect(codeBlocks(scratch(), 'page.md')).toEqual([
      { file: 'page.md', line: 4, lang: 'sh', body: 'curl https://x', markers: [{ kind: 'not-runnable', reason: 'needs a public host' }] },
      { file: 'page.md', line: 8, lang: 'json', body: '{"a": "```"}', markers: [] },
    ]);
  });

  it('parses docs-test roles with options, and refuses a marker without a reason', () => {
    writeFileSync(join(scratch(), 'roles.md'), '<!-- docs-test: output at=result.x match=exact -->\n```json\n{}\n```\n');
    expect(codeBlocks(scratch(), 'roles.md')[0]?.markers).toEqual([
      { kind: 'docs-test', role: 'output', options: { at: 'result.x', match: 'exact' } },
    ]);
    writeFileSync(join(scratch(), 'bad.md'), '<!-- not-runnable: -->\n```sh\nls\n```\n');
    expect(() => codeBlocks(scratch(), 'bad.md')).toThrow('needs a reason');
  });
});

describe('splitCommands', () => {
  it('joins continuation lines and quoted newlines, drops comments, and notes a trailing &', () => {
    const body = [
      'ucp-location serve --port 8080 &   # the business',
      "curl -s http://127.0.0.1:8080/x -d '{",
      '  "a": "#1"}\'',
      'ucp-location search \\',
      '  --query "a # b"',
    ].join('\n');
    expect(splitCommands(body, 10)).toEqual([
      { text: 'ucp-location serve --port 8080', line: 10, background: true },
      { text: `curl -s http://127.0.0.1:8080/x -d '{\n  "a": "#1"}'`, line: 11, background: false },
      { text: 'ucp-location search    --query "a # b"', line: 13, background: false },
    ]);
  });

  it('refuses a quote that is never closed', () => {
    expect(() => splitCommands("curl -d '{", 1)).toThrow('never closed');
  });
});

describe('shell rewrites and guards', () => {
  it('runs npm start as its script and npx ucp-location as the built CLI', () => {
    expect(asTestRuns('npm start -- --port 8081', 'node dist/cli/main.js serve')).toBe('ucp-location serve --port 8081');
    expect(asTestRuns('npx ucp-location lookup http://127.0.0.1:8080 a', 'x')).toBe('ucp-location lookup http://127.0.0.1:8080 a');
  });

  it('moves a serve to a free port and remembers the documented one (8080 when none is given)', () => {
    expect(onFreePort('ucp-location serve --port 8081 --db a.db')).toBe('ucp-location serve --port 0 --db a.db');
    expect(onFreePort('ucp-location serve')).toBe('ucp-location serve --port 0');
    expect(documentedServePort('ucp-location serve --port 8081')).toBe(8081);
    expect(documentedServePort('ucp-location serve --db a.db')).toBe(8080);
  });

  it('starts only the allowed programs', () => {
    expect(unrunnablePrograms('ucp-location search x --json | jq .locations')).toEqual([]);
    expect(unrunnablePrograms('npm ci && ucp-location serve')).toEqual(['npm']);
    expect(unrunnablePrograms('FOO=1 bash .ci/run')).toEqual(['bash']);
    expect(unrunnablePrograms('echo $(rm -rf x)')).toEqual(['$(…)']);
    expect(unrunnablePrograms(`curl -d '{"a": "$(b)"}' http://127.0.0.1:1`)).toEqual([]);
  });

  it('finds the URLs curl would contact, not the ones inside its quoted body or headers', () => {
    expect(
      curlTargets(`curl -s http://127.0.0.1:1/ucp -H 'UCP-Agent: profile="https://p.example/a"' -d '{"u": "https://q.example"}'`),
    ).toEqual(['http://127.0.0.1:1/ucp']);
  });
});

describe('differences', () => {
  it('exact: the same value whatever the member order', () => {
    expect(differences({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }, 'exact')).toEqual([]);
    expect(differences({ a: 1 }, { a: 1, b: 2 }, 'exact')).toEqual(['$.b: real has it (2) but documented does not']);
  });

  it('subset: shown members only, arrays keep their length, … elides a value or the rest of a string', () => {
    const real = { ids: [{ id: 'a', n: 1 }, { id: 'b' }], cursor: 'xyz', msg: 'radius too large: 600000 m' };
    expect(differences({ ids: [{ id: 'a' }, {}], cursor: '…', msg: 'radius too large…' }, real, 'subset')).toEqual([]);
    expect(differences({ ids: [{ id: 'a' }] }, real, 'subset')).toEqual(['$.ids: documented 1 elements but real 2']);
  });

  it('at and without address members by dotted paths', () => {
    const value = { result: { list: [{ id: 'x', cursor: 'c' }] } };
    expect(at(value, 'result.list[0].id')).toBe('x');
    expect(without(value, ['result.list.0.cursor'])).toEqual({ result: { list: [{ id: 'x' }] } });
  });
});
