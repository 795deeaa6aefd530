/**
 * A result may carry its own JSON text, for a transport that writes JSON itself (the stdio call
 * lane): data passed on exactly as the API sent it need not be serialized a second time. The text
 * sits under a symbol, so JSON.stringify and every other reader see the plain object; whoever
 * attaches it promises that it parses to what JSON.stringify of the object would give.
 */
const JSON_TEXT = Symbol('service-mcp.jsonText');

type Carrier = { [JSON_TEXT]?: string };

export function withJsonText<T extends object>(value: T, text: string): T {
  Object.defineProperty(value, JSON_TEXT, { value: text });
  return value;
}

/** The JSON text `value` carries, if any. */
export function jsonTextOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? (value as Carrier)[JSON_TEXT] : undefined;
}
