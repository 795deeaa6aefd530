/**
 * The views as the built package serves them: each one self-contained HTML document under 300 KB
 * that names no address to load, read through the built binary as a `ui://` resource of the MCP
 * Apps type with its CSP metadata and a build-long cache hint, and linked from tools/list over
 * stdio only for a client whose initialize advertised the UI extension.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { VIEW_LIST } from '../../../src/contract/views.js';
import { VIEW_UI_META } from '../../../src/mcp/app-resources.js';
import { cleanEnv, connectStdio, ROOT } from '../helpers.js';

const MAX_BYTES = 300 * 1024;
const UI: ClientCapabilities = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } };
const documentOf = (id: string) => readFileSync(join(ROOT, 'dist/apps', `${id}.html`), 'utf8');

const stdio = async (capabilities: ClientCapabilities, era: 'modern' | 'legacy') =>
  (
    await connectStdio(['--offline'], cleanEnv(), {
      capabilities,
      ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    })
  ).client;

describe('built views', () => {
  it.each(VIEW_LIST.map((view) => [view.id, view] as const))(
    '%s: one document under 300 KB, script and style inline, no address to load, its own strict CSP',
    (_id, view) => {
      const html = documentOf(view.id);
      const bytes = Buffer.byteLength(html);
      process.stderr.write(`[views] ${view.id}.html: ${(bytes / 1024).toFixed(1)} KB\n`);
      expect(bytes).toBeLessThan(MAX_BYTES);
      expect(html).toMatch(/^<!doctype html>/);
      expect(html.match(/<script\b[^>]*>/gi)).toEqual(['<script>']);
      expect(html).not.toMatch(/<link\b/i);
      expect(html).not.toMatch(/\b(?:src|href|action|poster|srcset)\s*=\s*["']?\s*(?:https?:)?\/\//i);
      expect(html).not.toMatch(/url\(\s*["']?\s*(?:https?:)?\/\//i);
      expect(html).not.toMatch(/@import/i);
      expect(html).toContain(
        `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:;`,
      );
    },
  );
});

describe('the views through the built binary over stdio', () => {
  it('serves each as a ui:// resource of the MCP Apps type, with its CSP metadata and a cache hint for the life of a build', async () => {
    const client = await stdio({}, 'modern');
    try {
      for (const view of VIEW_LIST) {
        const result = await client.readResource({ uri: view.uri });
        expect(result.contents).toEqual([
          { uri: view.uri, mimeType: RESOURCE_MIME_TYPE, text: documentOf(view.id), _meta: { ui: VIEW_UI_META } },
        ]);
        expect(result as unknown).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
      }
    } finally {
      await client.close();
    }
  });

  // One list for every client: a host that renders no views ignores the link.
  it.each([
    ['advertised the UI extension in initialize', UI],
    ['did not', {}],
  ] as const)('links views in tools/list for a 2025-era connection whose client %s', async (_case, capabilities) => {
    const client = await stdio(capabilities, 'legacy');
    try {
      const { tools } = await client.listTools();
      const withViews = tools.filter((tool) => tool._meta !== undefined);
      expect(withViews.map((tool) => tool.name)).toEqual([
        'search_jobs',
        'list_jobs',
        'get_job',
        'get_market_map',
        'get_company_interview_brief',
      ]);
      for (const tool of withViews)
        expect((tool._meta as Record<string, { resourceUri: string }>).ui!.resourceUri).toBe(
          tool._meta![RESOURCE_URI_META_KEY],
        );
    } finally {
      await client.close();
    }
  });
});
