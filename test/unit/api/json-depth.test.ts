import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanJson } from '../../../src/api/json-depth.js';

const jsonDepthExceeds = (text: string, max: number) => scanJson(text, max).tooDeep;
import { BASE, makeClient, makeServer } from './helpers.js';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll } from 'vitest';

const nest = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('scanJson: nesting depth', () => {
  it('counts object and array nesting outside strings', () => {
    expect(jsonDepthExceeds(nest(64), 64)).toBe(false);
    expect(jsonDepthExceeds(nest(65), 64)).toBe(true);
    expect(jsonDepthExceeds(`[${'['.repeat(70)}${']'.repeat(70)}]`, 64)).toBe(true);
  });
  it('ignores brackets inside strings, escaped quotes included', () => {
    const inString = JSON.stringify({ s: '{'.repeat(500) + '\\"[[[[' + '"'.repeat(3) });
    expect(jsonDepthExceeds(inString, 2)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ s: 'a\\\\' , t: { u: '[[[' } }), 1)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ s: 'a\\\\' , t: { u: '[[[' } }), 2)).toBe(false);
  });
  it('leaves malformed text to JSON.parse', () => {
    expect(jsonDepthExceeds('{"a":"unterminated', 64)).toBe(false);
  });
});

describe('scanJson: the top-level members as sent', () => {
  it('gives each member of an object exactly as written, brackets and quotes in strings included', () => {
    const text = '{"success":true,"data":{"a":[1,{"b":"}]\\","c":"\\"{"}],"n":1.50},"meta":{"x":"a,b:c"}}';
    const members = scanJson(text).members!;
    expect([...members.keys()]).toEqual(['success', 'data', 'meta']);
    expect(members.get('data')).toBe('{"a":[1,{"b":"}]\\","c":"\\"{"}],"n":1.50}');
    expect(members.get('meta')).toBe('{"x":"a,b:c"}');
    expect(members.get('success')).toBe('true');
  });

  it('trims the whitespace around a value, keeps the last of a repeated name, and leaves out escaped names', () => {
    const members = scanJson(' {\n "data" : { "a" : 1 } ,\t"meta":{},"meta":[2] , "d\\u0061ta": 3 }\n').members!;
    expect(members.get('data')).toBe('{ "a" : 1 }');
    expect(members.get('meta')).toBe('[2]');
    expect(members.size).toBe(2);
  });

  it('gives no members for anything but an object, or for a body too deep', () => {
    expect(scanJson('[{"data":1}]').members).toBeUndefined();
    expect(scanJson('"data"').members).toBeUndefined();
    expect(scanJson(`{"data":${nest(70)}}`, 64)).toEqual({ tooDeep: true, members: undefined });
  });

  it('every member parses to what JSON.parse gives for it, however the text is laid out', () => {
    const object = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 });
    fc.assert(
      fc.property(object, fc.constantFrom(undefined, 1, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const parsed = JSON.parse(text) as Record<string, unknown>;
        const { members } = scanJson(text);
        for (const [name, inner] of Object.entries(parsed)) {
          if (JSON.stringify(name).includes('\\')) expect(members!.has(name)).toBe(false);
          else expect(JSON.parse(members!.get(name)!)).toEqual(inner);
        }
      }),
      { numRuns: 500, seed: 7 },
    );
  });
});

describe('the client refuses absurdly nested bodies', () => {
  const server = makeServer();
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => server.close());

  it('as upstream_contract, before parsing', async () => {
    const body = `{"success":true,"data":{"deep":${nest(5_000)}},"meta":{}}`;
    server.use(http.get(`${BASE}/*`, () => new HttpResponse(body, { headers: { 'content-type': 'application/json' } })));
    await expect(makeClient().getMarketMap()).rejects.toMatchObject({ kind: 'upstream_contract', message: expect.stringMatching(/nested deeper than 64 levels/) });
  });
});
