/**
 * The answers to `initialize` and `tools/list` are fixed for a given build, so `npm run build`
 * records them once (from the real SDK server, see precompute.ts) in dist/static-answers.json. The
 * stdio adapter answers those two requests from that file while the SDK, zod and the tool
 * definitions are still loading, which is what makes the cold start fast. No zod and no SDK here:
 * this module is on the start-up path.
 */
import { readFileSync } from 'node:fs';
import { isRecord } from '../is-record.js';
import { isJsonRpcRequest, type RequestId } from './jsonrpc.js';

export interface StaticAnswers {
  /** The initialize result for `latestProtocolVersion`; protocolVersion is negotiated per request. */
  initialize: { protocolVersion: string } & Record<string, unknown>;
  toolsList: { tools: unknown[] };
  supportedProtocolVersions: string[];
  latestProtocolVersion: string;
  /** The package version the answers were recorded for; a mismatch means a stale file. */
  version: string;
}

export const STATIC_ANSWERS_FILE = 'static-answers.json';

/** Reads the recorded answers next to the bundle; undefined when absent (running from sources) or stale. */
export function loadStaticAnswers(version: string, url: URL = new URL(`./${STATIC_ANSWERS_FILE}`, import.meta.url)): StaticAnswers | undefined {
  let answers: StaticAnswers;
  try {
    answers = JSON.parse(readFileSync(url, 'utf8')) as StaticAnswers;
  } catch {
    return undefined; // no recorded answers: the SDK answers everything, only slower to start
  }
  return answers.version === version && Array.isArray(answers.toolsList?.tools) ? answers : undefined;
}

/** Only `_meta` (and a cursor on list requests) may accompany these requests; anything else goes to the SDK. */
function plainParams(params: unknown, allowed: readonly string[]): boolean {
  return params === undefined || (isRecord(params) && Object.keys(params).every((key) => allowed.includes(key)) && (params._meta === undefined || isRecord(params._meta)));
}

/** A well-formed initialize, as the SDK's InitializeRequestSchema requires; a doubtful one is left to the SDK. */
function isPlainInitialize(params: unknown): params is { protocolVersion: string } {
  if (!isRecord(params) || typeof params.protocolVersion !== 'string' || !isRecord(params.capabilities)) return false;
  const info = params.clientInfo;
  return isRecord(info) && typeof info.name === 'string' && typeof info.version === 'string';
}

export type StaticReply = { kind: 'initialize' | 'tools/list'; response: { jsonrpc: '2.0'; id: RequestId; result: unknown } };

/**
 * The reply to `message` when it is an initialize or tools/list request this file can answer
 * exactly as the SDK server would; undefined for everything else (which the SDK then handles).
 */
export function staticReply(message: unknown, answers: StaticAnswers): StaticReply | undefined {
  if (!isJsonRpcRequest(message)) return undefined;
  if (message.method === 'initialize' && isPlainInitialize(message.params)) {
    const requested = message.params.protocolVersion;
    // The SDK's negotiation: the client's version when supported, else the latest.
    const protocolVersion = answers.supportedProtocolVersions.includes(requested) ? requested : answers.latestProtocolVersion;
    return { kind: 'initialize', response: { jsonrpc: '2.0', id: message.id, result: { ...answers.initialize, protocolVersion } } };
  }
  if (message.method === 'tools/list' && plainParams(message.params, ['_meta', 'cursor'])) {
    return { kind: 'tools/list', response: { jsonrpc: '2.0', id: message.id, result: answers.toolsList } };
  }
  return undefined;
}
