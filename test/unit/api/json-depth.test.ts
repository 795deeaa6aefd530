import { describe, expect, it } from 'vitest';
import { jsonTooDeep as jsonDepthExceeds } from '../../../src/api/json-depth.js';
import { BASE, makeClient, makeServer } from './helpers.js';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll } from 'vitest';

const nest = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('jsonTooDeep', () => {
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
