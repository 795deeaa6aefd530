/** The tokens file: its format, its mistakes named by line and never by token, and reading it again. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTokens, StaticTokens, TokensFileError } from '../../../../src/transports/auth/static-tokens.js';

const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdef+/=';

function mistake(text: string): string {
  try {
    parseTokens(text, 'tokens.txt');
  } catch (error) {
    expect(error).toBeInstanceOf(TokensFileError);
    return (error as Error).message;
  }
  throw new Error('expected a TokensFileError');
}

describe('the tokens file', () => {
  it('is one name:token a line, with comments and blank lines', () => {
    const entries = parseTokens(`# the team\n\nalice:${ALICE}\n  bob : ${BOB}  \r\n`, 'tokens.txt');
    expect(entries.map((e) => e.name)).toEqual(['alice', 'bob']);
  });

  it.each([
    ['no colon', 'alice', /tokens.txt:1: expected name:token/],
    ['a bad name', `al ice:${ALICE}`, /tokens.txt:1: the name must be/],
    ['a short token', 'alice:short', /tokens.txt:1: the token of alice must be at least 16/],
    ['a token with a space', `alice:${ALICE} x`, /tokens.txt:1: the token of alice/],
    ['a name twice', `alice:${ALICE}\nalice:${BOB}`, /tokens.txt:2: the name alice is given twice/],
    ['a token twice', `alice:${ALICE}\nbob:${ALICE}`, /tokens.txt:2: the token of bob is another name's too/],
    ['no line at all', '# nobody\n', /tokens.txt: no name:token line/],
  ])('refuses %s, naming the line and never the token', (_what, text, expected) => {
    const message = mistake(text);
    expect(message).toMatch(expected);
    expect(message).not.toContain(ALICE);
    expect(message).not.toContain(BOB);
  });

  it('knows a token by its name, refuses any other, and keeps the old set when a new read fails', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'service-mcp-tokens-')), 'tokens');
    writeFileSync(file, `alice:${ALICE}\n`);
    const tokens = new StaticTokens(file);
    expect(await tokens.load()).toBe(1);
    expect(await tokens.verifyAccessToken(ALICE)).toMatchObject({ clientId: 'alice', scopes: [] });
    await expect(tokens.verifyAccessToken(BOB)).rejects.toThrow('Unknown token');
    await expect(tokens.verifyAccessToken(`${ALICE}x`)).rejects.toThrow('Unknown token');

    writeFileSync(file, `bob:${BOB}\n`);
    expect(await tokens.load()).toBe(1);
    await expect(tokens.verifyAccessToken(ALICE)).rejects.toThrow('Unknown token');
    expect(await tokens.verifyAccessToken(BOB)).toMatchObject({ clientId: 'bob' });

    writeFileSync(file, 'bob:short\n');
    await expect(tokens.load()).rejects.toThrow(/:1: the token of bob/);
    expect(await tokens.verifyAccessToken(BOB)).toMatchObject({ clientId: 'bob' });
  });
});
