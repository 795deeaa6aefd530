/**
 * One pass over a JSON text before parsing it. It measures nesting depth: data nested thousands deep
 * parses, but every later step (validation, rendering, the transport's JSON.stringify) recurses
 * through it and overflows the stack, so such a body is refused up front as a contract break. On the
 * same pass it notes where each member of a top-level object begins and ends, so a caller can pass
 * a member on exactly as sent instead of serializing its parsed copy again.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

export interface JsonScan {
  /** Brackets outside strings nest deeper than the limit. */
  tooDeep: boolean;
  /**
   * For a top-level object, each member's value as JSON text, by name; a repeated name keeps its
   * last value, as JSON.parse does. Names written with escapes are left out. Only meaningful once
   * the text has parsed: malformed text gives no promise.
   */
  members: Map<string, string> | undefined;
}

/** Scans `text` (linear; string bodies are skipped with indexOf). */
export function scanJson(text: string, max = MAX_JSON_DEPTH): JsonScan {
  let depth = 0;
  let members: Map<string, string> | undefined;
  // At depth 1 of a top-level object: the name of the member being read, where its value starts.
  let name: string | undefined;
  let valueStart = -1;
  let expectingName = false;
  let opened = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      // Jump to the closing quote: one not preceded by an odd run of backslashes.
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end === -1) return { tooDeep: false, members: undefined }; // unterminated: JSON.parse reports it
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        i = end;
        if (slashes % 2 === 0) break;
      }
      if (expectingName && depth === 1) {
        const raw = text.slice(start + 1, i);
        name = raw.includes('\\') ? undefined : raw;
        expectingName = false;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return { tooDeep: true, members: undefined };
      // The top-level value's own bracket (valid JSON reaches depth 1 once).
      if (depth === 1 && !opened) {
        opened = true;
        if (c === OPEN_BRACE) {
          members = new Map();
          expectingName = true;
        }
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 0 && members) {
        if (name !== undefined && valueStart >= 0) members.set(name, text.slice(valueStart, i).trim());
        name = undefined;
        valueStart = -1;
      }
    } else if (depth === 1 && members) {
      if (c === COLON && valueStart < 0) valueStart = i + 1;
      else if (c === COMMA) {
        if (name !== undefined && valueStart >= 0) members.set(name, text.slice(valueStart, i).trim());
        name = undefined;
        valueStart = -1;
        expectingName = true;
      }
    }
  }
  return { tooDeep: false, members };
}
