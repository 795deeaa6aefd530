/**
 * What a server is built over: the API client, how the API is reached, and the tools offered,
 * ours and bridged. app/ assembles one for each mode; mcp/ and transports/ only read it.
 */
import type { ApiClient } from '../api/client.js';
import type { Mode } from '../api/provenance-record.js';
import { TOOL_NAMES } from '../contract/tool-names.js';
import type { HostedBridge } from '../hosted/bridge.js';
import type { AnyTool, ExposedTool } from './define.js';
import { refuseUnknown } from './index.js';

export interface Backend {
  client: ApiClient;
  /** How the API is reached: embedded (in-process) or over HTTP from the base URL. */
  mode: Mode;
  /** Our own tools exposed over this client (`--tools`; all by default), chosen once per process. */
  tools: readonly AnyTool[];
  /** The names `--tools` asked for, bridged ones among them; undefined for all. */
  toolNames?: readonly string[] | undefined;
  /** The bridge to the deployment's hosted tools (src/hosted/), unless --no-bridge. */
  bridge?: HostedBridge | undefined;
  /** The origin requests go to (for offline mode, a placeholder that is never resolved). */
  baseUrl: string;
  /** With --redis-url: whether Redis is connected and answering right now. */
  redisReady?: (() => boolean) | undefined;
}

/** Every tool a server offers now: ours, then the bridged ones (those `--tools` names, when it names any). */
export function exposedTools(backend: Backend): readonly ExposedTool[] {
  const bridged = backend.bridge?.tools() ?? [];
  const names = backend.toolNames;
  return [...backend.tools, ...(names ? bridged.filter((tool) => names.includes(tool.name)) : bridged)];
}

/**
 * What a server reads as it starts: the hosted list, and for a live API its HTTP client and the
 * deployed catalog, so that none of them holds up a first call (offline, the catalog is read
 * in-process in microseconds, and reading it at start would only load the engine sooner).
 */
export function startReads({ bridge, mode, client }: Backend): void {
  bridge?.start();
  if (mode === 'http') client.readAhead();
}

/**
 * Refuses, before anything is served, a `--tools` name that is neither ours nor bridged. A name not
 * ours may be a bridged tool's, so the hosted list is waited for (`waitMs` at most); a list not read
 * by then cannot tell a bridged name from a typo, so the name is refused all the same, saying why
 * (a server that started without the tool it was asked for would fail later and more quietly).
 */
export async function checkToolNames({ toolNames, bridge }: Backend, waitMs: number): Promise<void> {
  const ours: readonly string[] = TOOL_NAMES;
  if (!bridge || !toolNames || toolNames.every((name) => ours.includes(name))) return;
  await bridge.settled(waitMs);
  const { bridged } = bridge.status();
  const unread = unreadBridge(bridge, waitMs);
  refuseUnknown(
    toolNames,
    [...ours, ...(unread ? [] : bridged)],
    unread
      ? `${ours.join(', ')}${unread}`
      : bridged.length > 0
        ? `${ours.join(', ')}, and bridged from the deployment's hosted surface: ${bridged.join(', ')}`
        : `${ours.join(', ')} (the deployment's hosted surface offers none to bridge)`,
  );
}

/** Why bridged names are unknown once `waitMs` has passed: the hosted list failed or is still being read; '' once read. */
export function unreadBridge(bridge: HostedBridge | undefined, waitMs: number): string {
  const { state, failure } = bridge?.status() ?? { state: 'ready' };
  if (state === 'ready') return '';
  const why = state === 'failed' ? `(${failure})` : `within ${waitMs / 1000} s`;
  return `; the deployment's hosted tools could not be read ${why}, so bridged names are not known`;
}
