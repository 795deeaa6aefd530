/**
 * Links from the data are opened by the host (ui/open-link), never followed by the view: a view
 * makes no request of its own. Only web links are offered; anything else is shown as text.
 */
import type { App } from '@modelcontextprotocol/ext-apps';
import { h } from './dom.js';

function isWebLink(url: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(url).protocol);
  } catch {
    return false; // not a URL at all: the caller shows it as text
  }
}

/** A button that asks the host to open `url`, followed by the address itself as text. */
export function hostLink(app: App, url: string, text: string): HTMLElement {
  if (!isWebLink(url)) return h('span', {}, h('code', {}, url), ' (not a web link, not opened)');
  const button = h('button', { type: 'button', class: 'link', 'data-url': url }, text);
  const status = h('span', { class: 'hint', role: 'status' });
  const refused = () => (status.textContent = ' The host did not open the link.');
  button.addEventListener('click', () => {
    status.textContent = '';
    app.openLink({ url }).then((result) => void (result.isError && refused()), refused);
  });
  return h('span', { class: 'host-link' }, button, ' ', h('code', { class: 'url' }, url), status);
}
