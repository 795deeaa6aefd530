/**
 * Headless Chromium for the view test: Debian's `chromium` package (or CHROMIUM_PATH), driven by
 * playwright-core, which downloads no browser of its own. Every request a page makes is recorded,
 * and only the host page's own requests (to itself and to the MCP server) are let through.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no Chromium at ${CHROMIUM}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  const profile = mkdtempSync(join(tmpdir(), 'service-mcp-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    viewport: { width: 1000, height: 700 },
    deviceScaleFactor: 1,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface Traffic {
  /** Requests made by any frame but the host page's own (the views): there must be none. */
  fromViews: string[];
  /** Requests refused because they went anywhere but the host page and the MCP server. */
  refused: string[];
  /** Console lines that report a refused load (CSP). */
  violations: string[];
  /** The host page's JSON-RPC requests to the MCP server, with their bodies. */
  rpc: Array<{ body: unknown; response: Promise<string> }>;
}

/** Records and filters every request of `page`; `allowed` are the origins the host page may reach. */
export async function watch(page: Page, allowed: readonly string[]): Promise<Traffic> {
  const traffic: Traffic = { fromViews: [], refused: [], violations: [], rpc: [] };
  const fromHost = (request: Request) => request.frame() === page.mainFrame();
  page.on('request', (request) => {
    if (!fromHost(request)) traffic.fromViews.push(`${request.method()} ${request.url()}`);
    else if (request.method() === 'POST')
      traffic.rpc.push({ body: request.postDataJSON(), response: request.response().then((r) => r?.text() ?? '') });
  });
  page.on('console', (message) => {
    if (/Refused to|Content Security Policy/i.test(message.text())) traffic.violations.push(message.text());
  });
  await page.route('**/*', (route) => {
    const request = route.request();
    if (fromHost(request) && allowed.includes(new URL(request.url()).origin)) return route.continue();
    traffic.refused.push(`${request.method()} ${request.url()}`);
    return route.abort('blockedbyclient');
  });
  return traffic;
}
