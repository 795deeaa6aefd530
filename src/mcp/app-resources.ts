/**
 * The MCP Apps views as `ui://` resources, registered on McpServer with ext-apps'
 * registerAppResource (which sets the MCP Apps MIME type). Each is one self-contained HTML
 * document built into dist/apps, so it is the same for everyone for the life of a build.
 */
import { readFile } from 'node:fs/promises';
import type { McpUiResourceMeta } from '@modelcontextprotocol/ext-apps';
import {
  registerAppResource,
  RESOURCE_MIME_TYPE,
  type McpUiAppResourceConfig,
} from '@modelcontextprotocol/ext-apps/server';
import type { CacheHint, McpServer } from '@modelcontextprotocol/server';
import { VIEW_LIST, type ViewDefinition } from '../contract/views.js';
import { CATALOG_CACHE_HINT } from './cache-hints.js';

/**
 * Nothing to fetch: a view draws only the structuredContent its host hands it, with its script
 * and style inlined, so it asks for no origin at all. Empty lists are the spec's "no external
 * connections" default, written out so a host reviewing the template sees it was meant.
 */
export const VIEW_UI_META: McpUiResourceMeta = {
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
  prefersBorder: true,
};

// The bundle and the views sit side by side in dist/ (tsup writes one, the view build the other).
const VIEWS_DIR = new URL('./apps/', import.meta.url);

const documents = new Map<string, Promise<string>>();

/** Read once per process: a view changes only with a new build. */
function viewDocument(view: ViewDefinition): Promise<string> {
  let html = documents.get(view.id);
  if (!html) {
    html = readFile(new URL(`${view.id}.html`, VIEWS_DIR), 'utf8').catch((error: unknown) => {
      documents.delete(view.id);
      throw new Error(`view ${view.uri} is not built (${view.id}.html missing beside the bundle; run npm run build)`, {
        cause: error,
      });
    });
    documents.set(view.id, html);
  }
  return html;
}

export function registerAppResources(server: McpServer): void {
  for (const view of VIEW_LIST) {
    const { uri, title, description } = view;
    // registerAppResource hands its config on to McpServer.registerResource whole, but its type
    // leaves out the SDK's cacheHint; a test checks the hint reaches the wire.
    const config: McpUiAppResourceConfig & { cacheHint: CacheHint } = {
      title,
      description,
      cacheHint: CATALOG_CACHE_HINT,
      _meta: { ui: VIEW_UI_META },
    };
    registerAppResource(server, view.id, uri, config, async () => ({
      contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: await viewDocument(view), _meta: { ui: VIEW_UI_META } }],
    }));
  }
}
