/**
 * Who this server is and what it offers, as it says in its handshake and in its server card; its
 * title and website are the registry entry's (server.json), so the three cannot drift apart.
 */
// Only these members are bundled: esbuild keeps the named top-level JSON members that are used.
import { title, websiteUrl } from '../../server.json';
import { ICON_DATA_URI, PACKAGE_NAME, VERSION } from '../contract/version.js';

export const SERVER_INFO = {
  name: PACKAGE_NAME,
  title,
  version: VERSION,
  websiteUrl,
  icons: [{ src: ICON_DATA_URI, mimeType: 'image/svg+xml', sizes: ['any'] }],
};

// Our lists never change while the server runs; the tool list does when tools are bridged from the
// deployment's hosted surface (src/hosted/), and then list_changed is promised.
export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
  logging: {},
  completions: {},
};

export function capabilitiesFor(bridged: boolean): typeof SERVER_CAPABILITIES {
  return bridged ? { ...SERVER_CAPABILITIES, tools: { listChanged: true } } : SERVER_CAPABILITIES;
}
