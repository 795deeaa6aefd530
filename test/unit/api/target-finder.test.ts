/**
 * The production fetch skips URL parsing for paths already in parsed form (undici-fetch.ts). Where
 * it does, the request must go exactly where parsing would send it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { targetFinder } from '../../../src/api/undici-fetch.js';

const parsedBy = (url: string) => {
  const target = new URL(url);
  return { origin: target.origin, path: `${target.pathname}${target.search}` };
};

// Path characters that URL parsing keeps, encodes, resolves or treats specially.
const path = fc
  .array(fc.constantFrom('/', '/', 'a', 'Z', '0', '_', '-', '.', '..', '~', '%', '2', 'e', 'E', '%20', '%2e', '%2E', '?', '&', '=', '+', '#', ' ', "'", '"', '\\', '[', '|', '^', '`', '{', 'é', '\t'), { maxLength: 12 })
  .map((parts) => `/${parts.join('')}`);

describe('targetFinder', () => {
  it('sends every path where URL parsing sends it, for any base, before and after it has learnt the base', () => {
    for (const base of ['http://127.0.0.1:8080', 'https://api.example.test/prefix', 'https://API.example.test:443/a/b', 'http://h.test/pre fix', 'http://h.test/x?y=1', 'http://h.test/x#frag']) {
      const targetOf = targetFinder();
      fc.assert(
        fc.property(path, (p) => {
          expect(targetOf(base + p, p)).toEqual(parsedBy(base + p));
          expect(targetOf(`${base}/api/public/v1/jobs/job_1`, '/api/public/v1/jobs/job_1')).toEqual(parsedBy(`${base}/api/public/v1/jobs/job_1`));
        }),
        { numRuns: 2000, seed: 7 },
      );
    }
  });

  it('leaves the parser out once it has learnt the base', () => {
    const targetOf = targetFinder();
    const base = 'https://api.example.test/prefix';
    expect(targetOf(`${base}/api/public/v1/jobs?per_page=20`, '/api/public/v1/jobs?per_page=20')).toEqual({ origin: 'https://api.example.test', path: '/prefix/api/public/v1/jobs?per_page=20' });
    const Parser = globalThis.URL;
    globalThis.URL = class extends Parser {
      constructor(...args: ConstructorParameters<typeof Parser>) {
        super(...args);
        throw new Error('parsed again');
      }
    } as typeof URL;
    try {
      expect(targetOf(`${base}/api/public/v1/jobs/job_ai_0001`, '/api/public/v1/jobs/job_ai_0001')).toEqual({ origin: 'https://api.example.test', path: '/prefix/api/public/v1/jobs/job_ai_0001' });
      expect(() => targetOf(`${base}/a/../b`, '/a/../b')).toThrow('parsed again');
    } finally {
      globalThis.URL = Parser;
    }
  });
});
