/**
 * The host page of the browser test, bundled for the browser at test time. It does what an MCP
 * Apps host does, with ext-apps' own host bridge: a real SDK Client connected to the built server
 * (advertising the UI extension), the tool's view read from the server, shown in a sandboxed frame
 * under the CSP its metadata declares, and the bridge carrying the tool input and result to the
 * view and the view's tool calls back to the server.
 */
import {
  AppBridge,
  getToolUiResourceUri,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  type McpUiResourceCsp,
  type McpUiTheme,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type Tool } from '@modelcontextprotocol/client';

export interface Shown {
  uri: string;
  csp: McpUiResourceCsp | undefined;
  result: CallToolResult;
}

/** The spec's host CSP, built from a view's declared domains (all empty for ours). */
function policy(csp: McpUiResourceCsp | undefined): string {
  const list = (domains: string[] | undefined, fallback: string) =>
    domains && domains.length > 0 ? domains.join(' ') : fallback;
  const resources = list(csp?.resourceDomains, '');
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`,
    `style-src 'unsafe-inline' ${resources}`,
    `img-src data: ${resources}`,
    `font-src ${resources || "'none'"}`,
    `connect-src ${list(csp?.connectDomains, "'none'")}`,
    `frame-src ${list(csp?.frameDomains, "'none'")}`,
    "object-src 'none'",
    `base-uri ${list(csp?.baseUriDomains, "'none'")}`,
  ].join('; ');
}

declare global {
  interface Window {
    host: {
      show(tool: string, args: Record<string, unknown>, theme: McpUiTheme): Promise<Shown>;
      setTheme(theme: McpUiTheme): void;
      /** Hands the view a result of the host's own making, as a host may. */
      sendResult(result: CallToolResult): Promise<void>;
      openedLinks: string[];
    };
  }
}

const params = new URLSearchParams(location.search);
// On the 2026-07-28 revision every request carries the client's capabilities, so the stateless
// HTTP server knows this host renders views (a 2025-era initialize would reach another instance).
const client = new Client(
  { name: 'service-mcp-view-test-host', version: '0.0.0' },
  {
    capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } },
    versionNegotiation: { mode: { pin: '2026-07-28' } },
  },
);
const connected = client.connect(new StreamableHTTPClientTransport(new URL(params.get('server')!)));
let bridge: AppBridge | undefined;
const openedLinks: string[] = [];

async function show(name: string, args: Record<string, unknown>, theme: McpUiTheme): Promise<Shown> {
  await connected;
  const { tools } = await client.listTools();
  const tool = tools.find((t: Tool) => t.name === name)!;
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${name} links no view`);
  const { contents } = await client.readResource({ uri });
  const content = contents[0] as { text: string; mimeType: string; _meta?: { ui?: { csp?: McpUiResourceCsp } } };
  if (content.mimeType !== RESOURCE_MIME_TYPE) throw new Error(`${uri} is ${content.mimeType}`);
  const csp = content._meta?.ui?.csp;
  const html = content.text.replace(
    '<head>',
    `<head><meta http-equiv="Content-Security-Policy" content="${policy(csp)}">`,
  );

  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = `${name} view`;
  document.getElementById('frames')!.replaceChildren(frame);
  bridge = new AppBridge(
    client,
    { name: 'view-test-host', version: '0.0.0' },
    { openLinks: {}, serverTools: {}, serverResources: {}, logging: {} },
    { hostContext: { theme, displayMode: 'inline', toolInfo: { tool }, platform: 'web' } },
  );
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${height}px`;
  };
  bridge.onopenlink = async ({ url }) => {
    openedLinks.push(url);
    return {};
  };
  const result = new Promise<CallToolResult>((resolve, reject) => {
    bridge!.oninitialized = () => {
      void bridge!.sendToolInput({ arguments: args });
      client.callTool({ name, arguments: args }).then(async (r) => {
        await bridge!.sendToolResult(r as CallToolResult);
        resolve(r as CallToolResult);
      }, reject);
    };
  });
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.srcdoc = html;
  return { uri, csp, result: await result };
}

window.host = {
  show,
  setTheme: (theme) => void bridge?.sendHostContextChange({ theme }),
  sendResult: (result) => bridge!.sendToolResult(result),
  openedLinks,
};
