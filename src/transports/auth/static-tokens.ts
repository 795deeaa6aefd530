/**
 * Static bearer tokens for a small team (--auth-tokens-file): one `name:token` a line, read at
 * start and again on SIGHUP. A token is kept only as its SHA-256, and an offered token is compared
 * with every one of them in constant time, so neither timing nor a memory dump gives one away.
 * Errors name the file and the line, never a token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';

/** A name is shown in logs and metrics: short and plain. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
/** RFC 6750's b64token, so it can be sent as `Authorization: Bearer <token>`; 16 characters at least, so it cannot be guessed. */
const TOKEN = /^[A-Za-z0-9\-._~+/]{16,}=*$/;

export class TokensFileError extends Error {
  override readonly name = 'TokensFileError';
}

interface Entry {
  name: string;
  digest: Buffer;
}

const digest = (token: string) => createHash('sha256').update(token).digest();

/** Parses a tokens file's text; throws TokensFileError naming the line of the first mistake. */
export function parseTokens(text: string, file: string): Entry[] {
  const entries: Entry[] = [];
  const names = new Set<string>();
  const digests = new Set<string>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `${file}:${index + 1}`;
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon).trim();
    const token = colon < 0 ? '' : line.slice(colon + 1).trim();
    if (colon < 0) throw new TokensFileError(`${where}: expected name:token`);
    if (!NAME.test(name))
      throw new TokensFileError(
        `${where}: the name must be 1 to 64 letters, digits or . _ @ - (starting with a letter or digit)`,
      );
    if (!TOKEN.test(token))
      throw new TokensFileError(
        `${where}: the token of ${name} must be at least 16 characters of A-Z a-z 0-9 - . _ ~ + / (e.g. openssl rand -base64 32)`,
      );
    if (names.has(name)) throw new TokensFileError(`${where}: the name ${name} is given twice`);
    const hex = digest(token).toString('hex');
    if (digests.has(hex)) throw new TokensFileError(`${where}: the token of ${name} is another name's too`);
    names.add(name);
    digests.add(hex);
    entries.push({ name, digest: digest(token) });
  });
  if (entries.length === 0) throw new TokensFileError(`${file}: no name:token line`);
  return entries;
}

export class StaticTokens implements OAuthTokenVerifier {
  private entries: Entry[] = [];

  constructor(readonly file: string) {}

  /** Reads the file (again); on failure the tokens read before stay in force and the error is thrown. */
  async load(): Promise<number> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      throw new TokensFileError(`${this.file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    this.entries = parseTokens(text, this.file);
    return this.entries.length;
  }

  verifyAccessToken(token: string): Promise<AuthInfo> {
    // Said apart from an unknown token: it is a pasting or templating mistake on the client's side.
    if (!TOKEN.test(token))
      return Promise.reject(
        new OAuthError(
          OAuthErrorCode.InvalidToken,
          'Not a token of this server: its tokens are 16 or more of A-Z a-z 0-9 - . _ ~ + /',
        ),
      );
    const offered = digest(token);
    let name: string | undefined;
    // Every entry is compared, found or not, so the time taken says nothing of which matched.
    for (const entry of this.entries) if (timingSafeEqual(offered, entry.digest)) name = entry.name;
    if (name === undefined) return Promise.reject(new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown token'));
    // A static token does not expire; the SDK's check wants an expiry, so it is this request's.
    return Promise.resolve({ token, clientId: name, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 60 });
  }
}
