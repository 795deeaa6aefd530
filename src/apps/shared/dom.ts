/**
 * Building the DOM from data. Every string a view shows goes in as a text node, never parsed as
 * HTML, so no posting can add markup or script; and cleaned as the text results clean it
 * (lib/text.ts), so a bidi override or a zero-width character cannot disguise a title.
 */
import { sanitize } from '../../lib/text.js';

type Child = Node | string | number | null | undefined | false;

/** Attributes are ours (class names, roles, labels); `text` content is the only way data gets in. */
export type Attributes = Record<string, string | number | boolean | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, ...children);
  return element;
}

function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(sanitize(String(child))));
  }
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.textContent = '';
  append(parent, ...children);
}

/** A definition list from label/value pairs, skipping values that are absent. */
export function facts(pairs: ReadonlyArray<readonly [string, Child]>, className = 'facts'): HTMLDListElement {
  const list = h('dl', { class: className });
  for (const [label, value] of pairs) {
    if (value === null || value === undefined || value === false || value === '') continue;
    append(list, h('dt', {}, label), h('dd', {}, value));
  }
  return list;
}
