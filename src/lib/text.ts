/**
 * Upstream text reaches a model, so it is treated as data: control and invisible characters are
 * removed before anything is shown, and single-line fields are quoted so that a title can never
 * pass for an instruction (fenced blocks of upstream prose and data: fence.ts).
 */

// C0/C1 controls except tab and newline, plus Unicode format characters (Cf: zero-width, bidi
// controls, soft hyphen, BOM, tag characters), line/paragraph separators, and noncharacters.
// oxlint-disable-next-line no-control-regex -- matching control characters is this pattern's whole job
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\uFFF9-\uFFFB\uFFFE\uFFFF]|\p{Cf}/gu;

// Most upstream text is plain ASCII, or ASCII with a few letters, currency signs and dashes, which
// the Unicode-aware patterns above and below would return unchanged; a quick check skips them (a
// 20-job page runs oneLine about 160 times, and most salaries carry a "£", "€" or "–").
const PRINTABLE_ASCII = /^[\t\n\x20-\x7E]*$/;

/**
 * Characters beyond ASCII that neither pattern touches: not controls, format characters,
 * separators or whitespace (U+00A0 and U+00AD are left out). Latin letters and signs, the
 * General Punctuation dashes, quotes and bullets up to U+2027, and the currency signs.
 */
function isSafeBeyondAscii(c: number): boolean {
  return (c >= 0xa1 && c <= 0x24f && c !== 0xad) || (c >= 0x2010 && c <= 0x2027) || (c >= 0x20a0 && c <= 0x20c0);
}

/** True when UNSAFE would remove nothing from `text`. */
function isSafeText(text: string): boolean {
  if (PRINTABLE_ASCII.test(text)) return true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 ? c !== 0x09 && c !== 0x0a : c >= 0x7f && !isSafeBeyondAscii(c)) return false;
  }
  return true;
}

/** Removes control and invisible characters; keeps tabs and newlines. */
export function sanitize(text: string): string {
  return isSafeText(text) ? text : text.replace(UNSAFE, '');
}

/** True when `text` is already one clean line: safe characters, words separated by single spaces. */
function isOneLine(text: string): boolean {
  const last = text.length - 1;
  if (last < 0) return false;
  for (let i = 0; i <= last; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20) {
      if (i === 0 || i === last || text.charCodeAt(i - 1) === 0x20) return false;
    } else if (c < 0x21 || (c > 0x7e && !isSafeBeyondAscii(c))) return false;
  }
  return true;
}

/** Sanitizes, folds whitespace to one line, and cuts to `max` characters with an ellipsis. */
export function oneLine(text: string, max = 160): string {
  const folded = isOneLine(text) ? text : sanitize(text).replace(/\s+/g, ' ').trim();
  return folded.length > max ? `${folded.slice(0, max - 1)}…` : folded;
}

// Characters a reader takes for a double quote: escaped inside quotes too, so that a value holding
// one cannot seem to close its own quotes and go on as our text.
const QUOTE_LIKE = /[\u201C-\u201F\u2033\u2036\u301D-\u301F\uFF02]/g;
const isQuoteLike = (c: number) =>
  (c >= 0x201c && c <= 0x201f) || c === 0x2033 || c === 0x2036 || (c >= 0x301d && c <= 0x301f) || c === 0xff02;

const escapeCode = (unit: number) => `\\u${unit.toString(16).toUpperCase().padStart(4, '0')}`;
const escapeUnits = (c: string) => Array.from({ length: c.length }, (_, i) => escapeCode(c.charCodeAt(i))).join('');

function quoteLine(line: string): string {
  // Most text has none of these characters, and a scan is far cheaper than a replace that finds nothing.
  let body = line.includes('\\') || line.includes('"') ? line.replace(/\\/g, '\\\\').replace(/"/g, '\\"') : line;
  for (let i = 0; i < body.length; i++) {
    if (isQuoteLike(body.charCodeAt(i))) {
      body = body.replace(QUOTE_LIKE, (c) => escapeCode(c.charCodeAt(0)));
      break;
    }
  }
  return `"${body}"`;
}

/** A single-line upstream string in double quotes (inner quotes escaped), for unambiguous data. */
export function quote(text: string, max = 160): string {
  return quoteLine(oneLine(text, max));
}

/**
 * A description's first sentence, for a listing of one line a tool. A bridged tool's description
 * holds the deployment's as one quoted string (`quote`): when the cut falls inside it, the quote is
 * closed after an ellipsis, so the line never reads as if the quote went on.
 */
export function firstSentence(text: string): string {
  const [first = text] = text.split(/(?<=\.)\s/, 1);
  if (first.length === text.length) return text;
  let open = false;
  for (let i = 0; i < first.length; i++) {
    if (first[i] === '\\') i++;
    else if (first[i] === '"') open = !open;
  }
  return open ? `${first} …"` : first;
}

const isAlphanumeric = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/**
 * One word from a closed ASCII alphabet (letters, digits, `_ . + / -`): it cannot pass for a field,
 * a separator, a salary label or an instruction, so it may stay bare (job ids, labels such as
 * ai_lab, paths). A loop, not a pattern: it runs for most fields of every job.
 */
function isBareWord(line: string): boolean {
  if (line === '') return false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (!isAlphanumeric(c) && c !== 0x2f && (i === 0 || (c !== 0x5f && c !== 0x2e && c !== 0x2b && c !== 0x2d)))
      return false;
  }
  return true;
}

// An ISO date or date-time, bare for the same reason (its colons and space cannot start a field).
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * A single-line upstream value shown as data: bare when it is one plain word or a timestamp, else
 * quoted as `quote` does. Every upstream string on a line of ours goes through this or `quote`.
 */
export function datum(text: string, max = 160): string {
  const line = oneLine(text, max);
  return isBareWord(line) || TIMESTAMP.test(line) ? line : quoteLine(line);
}

// Everything a reader could not see or could misread in a short code: controls, format and private-use
// characters, unassigned and lone surrogate code points, spaces other than U+0020, combining marks
// (variation selectors among them), Hangul fillers, quotes and what looks like one, backslashes and
// square brackets.
const NOT_PLAIN =
  /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{M}\u115F\u1160\u3164\uFFA0\u201C-\u201F\u2033\u2036\u301D-\u301F\uFF02"\\[\]]|[^\P{Z} ]/gu;

/**
 * A short upstream code (an unrecognised salary class) in double quotes with every character that is
 * not plainly visible written as a JSON escape (`"disclosed\u200B"`): removing it would show the code
 * as one it is not. JSON.parse reads the result back to the exact value (cut at `max` code points).
 */
export function visible(text: string, max = 40): string {
  const points = Array.from(text);
  const head = points.length > max ? points.slice(0, max).join('') : text;
  const body = head.replace(NOT_PLAIN, (c) => (c === '"' || c === '\\' ? `\\${c}` : escapeUnits(c)));
  return `"${body}"${points.length > max ? '…' : ''}`;
}

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\u2028\u2029]/gu;
// A run of them is text smuggled past the reader (tag characters spelling out instructions), not a
// stray character in an id: it is counted, not spelled out.
const HIDDEN_RUN = /(?:(?![\n\r\t])[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\u2028\u2029]){4,}/gu;

/**
 * Text with every invisible character written as its `\uXXXX` escape (line breaks and tabs left to
 * fold), a run of four or more counted instead: for error messages, so that an id that failed
 * because of a zero-width space shows it.
 */
export function escapeInvisible(text: string): string {
  // The characters isSafeText lets through are none of INVISIBLE's; its first use builds a large
  // Unicode set, which a start reading a hosted list of plain text need not pay for.
  if (isSafeText(text)) return text;
  return text
    .replace(HIDDEN_RUN, (run) => `[${Array.from(run).length} hidden characters]`)
    .replace(INVISIBLE, (c) => (c === '\n' || c === '\r' || c === '\t' ? c : escapeUnits(c)));
}

/** Returns a deep copy of a JSON value with every string sanitized (keys too). */
export function sanitizeJson(value: unknown): unknown {
  if (typeof value === 'string') return sanitize(value);
  if (Array.isArray(value)) return value.map(sanitizeJson);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      // Defined as an own data property so a "__proto__" key stays data and never touches the prototype.
      Object.defineProperty(out, sanitize(key), {
        value: sanitizeJson(inner),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/** `text` as a regular expression that matches it literally. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
