/**
 * Free-form upstream members (requirements, evidence, unknown additions) shown as they came:
 * objects as labelled lists, arrays as lists, scalars as text. Nothing the API sends is dropped
 * from view, and nothing is interpreted beyond its shape.
 */
import { isRecord } from './data.js';
import { h } from './dom.js';

const MAX_DEPTH = 4;

const label = (key: string): string => key.replace(/_/g, ' ');

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

export function valueNode(value: unknown, depth = 0): Node | string {
  if (value === null || value === undefined) return 'not stated';
  if (isScalar(value)) return String(value);
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    if (value.every(isScalar)) return value.map(String).join(', ');
    return h('ul', { class: 'values' }, ...value.map((item) => h('li', {}, valueNode(item, depth + 1))));
  }
  if (isRecord(value)) {
    const list = h('dl', { class: 'values' });
    for (const [key, inner] of Object.entries(value))
      list.append(h('dt', {}, label(key)), h('dd', {}, valueNode(inner, depth + 1)));
    return list;
  }
  return String(value);
}

/** The members of `record` a view did not lay out itself, so none is lost. */
export function otherMembers(
  record: Record<string, unknown>,
  shown: readonly string[],
  heading = 'Other fields from the API',
): HTMLElement | null {
  const rest = Object.fromEntries(Object.entries(record).filter(([key]) => !shown.includes(key)));
  if (Object.keys(rest).length === 0) return null;
  return h('section', { class: 'other' }, h('h3', {}, heading), valueNode(rest));
}
