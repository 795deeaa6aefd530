/**
 * Upstream prose and data as fenced blocks: cleaned, cut, and fenced past any backtick run in
 * them, so nothing inside can close the fence or read as ours.
 */
import { escapeInvisible, sanitize } from './text.js';

const PLAIN = /^[\p{L}\p{N}][\p{L}\p{N} _.,:;/()%$€£+&'’–-]*$/u;
// PLAIN restricted to ASCII, tried first: the Unicode-aware test costs several times more.
const PLAIN_ASCII = /^[A-Za-z0-9][A-Za-z0-9 _.,:;/()%$+&'-]*$/;

const LOOKS_TYPED = /^(?:true|false|null|[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/i;

function scalar(value: unknown, inList = false): string {
  if (typeof value === 'string') {
    const clean = sanitize(value);
    // Plain words stay bare; anything that could be read as structure, as another type, or (in an
    // inline list) as a list separator is JSON-quoted.
    const bare =
      (PLAIN_ASCII.test(clean) || PLAIN.test(clean)) &&
      !clean.endsWith(':') &&
      !/:\s/.test(clean) &&
      !LOOKS_TYPED.test(clean) &&
      !(inList && clean.includes(','));
    return bare ? clean : JSON.stringify(clean);
  }
  return value === undefined ? 'null' : String(JSON.stringify(value));
}

const isScalar = (value: unknown) => value === null || typeof value !== 'object';

/**
 * Member names repeat from call to call (the API's own vocabulary), so each is rendered once; bounded,
 * as names come from upstream.
 */
const keyTexts = new Map<string, string>();
function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = scalar(key);
    if (keyTexts.size < 1_000) keyTexts.set(key, text);
  }
  return text;
}

/** Deeper data is summarised: a reader gains nothing from it, and recursion must stay bounded. */
const MAX_DEPTH = 24;

function toLines(value: unknown, indent: string, out: string[]): void {
  if (indent.length / 2 >= MAX_DEPTH) {
    out.push(`${indent}… (nested deeper than ${MAX_DEPTH} levels; see structuredContent)`);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isScalar(item)) out.push(`${indent}- ${scalar(item)}`);
      else if (Array.isArray(item)) {
        out.push(`${indent}-`);
        toLines(item, `${indent}  `, out);
      } else {
        // The object's lines, its first one then marked as the list item.
        const first = out.length;
        toLines(item, `${indent}  `, out);
        if (out.length === first) out.push(`${indent}- {}`);
        else out[first] = `${indent}- ${out[first]!.slice(indent.length + 2)}`;
      }
    }
    return;
  }
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const name = keyText(key);
    if (isScalar(inner)) out.push(`${indent}${name}: ${scalar(inner)}`);
    else if (Array.isArray(inner) && inner.every(isScalar))
      out.push(`${indent}${name}: [${inner.map((item) => scalar(item, true)).join(', ')}]`);
    else if (Object.keys(inner as object).length === 0)
      out.push(`${indent}${name}: ${Array.isArray(inner) ? '[]' : '{}'}`);
    else {
      out.push(`${indent}${name}:`);
      toLines(inner, `${indent}  `, out);
    }
  }
}

/** `body` fenced longer than any run of backticks in it, so the body cannot close the fence. */
function fence(body: string, info: string): string {
  const longestRun = body.includes('`') ? Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length)) : 2;
  const marks = '`'.repeat(longestRun + 1);
  return `${marks}${info}\n${body}\n${marks}`;
}

/**
 * Upstream prose (a hosted tool's text) as a fenced block: invisible characters written as their
 * escapes, cut at `maxChars` (saying where the rest is: `rest`), and fenced past any backtick run,
 * so nothing in it reads as ours.
 */
export function fencedText(text: string, maxChars = 6_000, rest = 'the rest of the text is not passed on'): string {
  let body = escapeInvisible(text.replace(/\r\n?/g, '\n'));
  if (body.length > maxChars) body = `${body.slice(0, maxChars)}\n… (cut at ${maxChars} characters; ${rest})`;
  return fence(body, 'text');
}

/**
 * Free-form upstream data as a fenced block in a compact YAML-like form (a model reads it easily and
 * it costs far fewer tokens than indented JSON), cut at `maxChars`; strings are sanitized, and
 * quoted where they could be mistaken for structure.
 */
export function fencedData(value: unknown, maxChars = 6_000): string {
  const lines: string[] = [];
  if (isScalar(value)) lines.push(scalar(value));
  else toLines(value, '', lines);
  let body = lines.join('\n');
  if (body.length > maxChars)
    body = `${body.slice(0, maxChars)}\n… (cut at ${maxChars} characters; the full data is in structuredContent)`;
  return fence(body, 'yaml');
}
