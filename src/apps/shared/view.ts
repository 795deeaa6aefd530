/**
 * What every view does around its own drawing: it talks to the host through ext-apps' App, takes
 * the tool's arguments and result from it, and follows the host's theme and style variables.
 */
import {
  App,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import { VERSION } from '../../contract/version.js';
import { readResult, type Json, type ReadResult } from './data.js';
import { h, replaceChildren } from './dom.js';
import { messageOf } from '../../lib/cause-chain.js';

export interface ViewContext {
  app: App;
  root: HTMLElement;
  /** The arguments of the tool call this view shows (empty until the host sends them). */
  args: Json;
}

/** Host fonts are left out on purpose: their CSS may load fonts from the network, which views never do. */
function followHost(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

export function showStatus(root: HTMLElement, message: string, kind: 'status' | 'error' = 'status'): void {
  replaceChildren(root, h('p', { class: kind, role: kind === 'error' ? 'alert' : 'status' }, message));
}

export function startView(name: string, show: (result: ReadResult, context: ViewContext) => void): App {
  const root = document.getElementById('app')!;
  const app = new App({ name: `service-mcp ${name}`, version: VERSION });
  const context: ViewContext = { app, root, args: {} };
  // Handlers first: the host may send the input and result as soon as the handshake ends.
  app.ontoolinput = ({ arguments: args }) => {
    context.args = args ?? {};
  };
  app.ontoolresult = (result) => show(readResult(result), context);
  app.ontoolcancelled = ({ reason }) => showStatus(root, `The tool call was cancelled${reason ? `: ${reason}` : ''}.`);
  app.onhostcontextchanged = followHost;
  app.onteardown = () => ({});
  app.connect().then(
    () => followHost(app.getHostContext()),
    (error: unknown) => showStatus(root, `Could not connect to the host: ${messageOf(error)}`, 'error'),
  );
  return app;
}
