/** Who this server is and what it offers, as it says in its handshake and in its server card. */
import { PACKAGE_NAME, VERSION } from '../version.js';

export const SERVER_INFO = { name: PACKAGE_NAME, title: 'Hiring intelligence (AI and web3 jobs)', version: VERSION };

// The lists never change while the server runs, so no list_changed is promised.
export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
  logging: {},
  completions: {},
};
