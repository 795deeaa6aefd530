/**
 * Upstream text reaches a model, so it is treated as data: control and invisible characters
 * (zero-width, bidi overrides, other format characters) are removed before anything is shown, and
 * single-line fields are quoted so that a title can never pass for an instruction.
 */

// C0/C1 controls except tab and newline, plus Unicode format characters (Cf: zero-width, bidi
// controls, soft hyphen, BOM, tag characters), line/paragraph separators, and noncharacters.
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\uFFF9-\uFFFB\uFFFE\uFFFF]|\p{Cf}/gu;

/** Removes control and invisible characters; keeps tabs and newlines. */
export function sanitize(text: string): string {
  return text.replace(UNSAFE, '');
}

/** Sanitizes, folds whitespace to one line, and cuts to `max` characters with an ellipsis. */
export function oneLine(text: string, max = 160): string {
  const folded = sanitize(text).replace(/\s+/g, ' ').trim();
  return folded.length > max ? `${folded.slice(0, max - 1)}…` : folded;
}

/** A single-line upstream string in double quotes (inner quotes escaped), for unambiguous data. */
export function quote(text: string, max = 160): string {
  return `"${oneLine(text, max).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Returns a deep copy of a JSON value with every string sanitized (keys too). */
export function sanitizeJson(value: unknown): unknown {
  if (typeof value === 'string') return sanitize(value);
  if (Array.isArray(value)) return value.map(sanitizeJson);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      // Defined as an own data property so a "__proto__" key stays data and never touches the prototype.
      Object.defineProperty(out, sanitize(key), { value: sanitizeJson(inner), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

/**
 * Free-form upstream data as a fenced JSON block, cut at `maxChars`. The fence is lengthened past
 * any backtick run in the content, so the content cannot close it.
 */
export function fencedJson(value: unknown, maxChars = 6_000): string {
  let body = JSON.stringify(sanitizeJson(value), null, 1) ?? 'null';
  if (body.length > maxChars) body = `${body.slice(0, maxChars)}\n… (cut at ${maxChars} characters; the full data is in structuredContent)`;
  const longestRun = Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  return `${fence}json\n${body}\n${fence}`;
}
