#!/usr/bin/env node
/**
 * What the model's context pays, in o200k_base tokens (the tokenizer the public mcp-context-cost
 * leaderboard counts with), for service-mcp as users run it: offline, the bridge on, so the offline
 * deployment's bridged tools are listed beside ours. Each part is counted on its compact JSON (or
 * its text), the bytes a client holds:
 * - client_part: name, description and inputSchema of each tool, what clients send the model;
 * - instructions: the initialize result's instructions;
 * - tools_list: the whole tools/list result (output schemas, annotations, _meta and all);
 * - session: a job seeker's seven calls, text content and structuredContent apart;
 * - largest: the answer with the most text over worst-case arguments.
 * test/e2e/context-cost.test.ts holds these to test/e2e/context-cost.baseline.json; `npm run bench`
 * prints them (alone: `node bench/tokens.mjs` after a build; `--json` for the figures as JSON).
 */
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { isBridged } from './lib/bridged.mjs';
import { spawnStdio } from './lib/rpc.mjs';

const BIN = fileURLToPath(new URL('../bin/service-mcp.js', import.meta.url));

export const tokens = (value) => countTokens(typeof value === 'string' ? value : JSON.stringify(value));

/** A job seeker's session: each step's arguments may read the answers before it. */
export const SESSION = [
  ['search_jobs', () => ({ domain: 'ai', seniority_level: 'senior', remote_only: true })],
  ['search_jobs', () => ({ q: 'remote senior rust engineer' })],
  ['get_job', ([first]) => ({ job_id: first.structuredContent.data.jobs[0].job_id })],
  ['get_company_interview_brief', ([first]) => ({ company_id: first.structuredContent.data.jobs[0].company.id })],
  ['get_market_map', () => ({})],
  ['discover_api', () => ({})],
  ['check_api_health', () => ({})],
];

/** The arguments that make each tool's answer longest, as far as arguments can. */
export const WORST_CASE = [
  ['search_jobs', { per_page: 100, include_predicted_salaries: true }],
  ['list_jobs', { per_page: 100, include_predicted_salaries: true }],
  ['get_market_map', {}],
  ['discover_api', {}],
  ['check_api_health', {}],
  ['get_compensation_benchmarks', {}],
  ['list_frontier_ai_evidence', { limit: 50 }],
];

/** Counts of one answer: its text blocks together, and its structuredContent. */
function answerTokens(result) {
  const text = (result.content ?? []).filter((block) => block.type === 'text').map((block) => block.text);
  return {
    text: text.reduce((sum, part) => sum + tokens(part), 0),
    structured: tokens(result.structuredContent ?? ''),
  };
}

/** An environment without the developer's SERVICE_MCP_*, proxy or NODE_OPTIONS settings: the defaults. */
function cleanEnv() {
  const env = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(SERVICE_MCP_|OTEL_|npm_)|^NODE_OPTIONS$|^(https?|no|all)_proxy$/i.test(key)) env[key] = value;
  return env;
}

/** Spawns the built binary offline with its default flags and counts every part. */
export async function measureTokens() {
  const peer = spawnStdio([BIN, '--offline'], cleanEnv());
  try {
    const init = await peer.initialize();
    const list = await peer.request('tools/list', {});
    if (list.message.error) throw new Error(`tools/list failed: ${JSON.stringify(list.message.error)}`);
    const all = list.message.result.tools;
    const ours = all.filter((tool) => !isBridged(tool));
    const clientPart = (tools) =>
      tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
    const answers = [];
    for (const [name, args] of SESSION) answers.push(await peer.call(name, args(answers)));
    const session = answers.map(answerTokens);
    const largest = [];
    for (const [name, args] of WORST_CASE)
      largest.push({ call: `${name} ${JSON.stringify(args)}`, ...answerTokens(await peer.call(name, args)) });
    largest.sort((a, b) => b.text - a.text);
    return {
      tools: all.length,
      tools_ours: ours.length,
      client_part: tokens(clientPart(all)),
      client_part_ours: tokens(clientPart(ours)),
      instructions: tokens(init.message.result.instructions ?? ''),
      tools_list: tokens(list.message.result),
      tools_list_ours: tokens({ ...list.message.result, tools: ours }),
      session_text: session.reduce((sum, part) => sum + part.text, 0),
      session_structured: session.reduce((sum, part) => sum + part.structured, 0),
      largest_text: largest[0].text,
      largest_text_call: largest[0].call,
      largest_structured: Math.max(...largest.map((answer) => answer.structured)),
    };
  } finally {
    await peer.close();
  }
}

/** The figures as lines of a table, for the bench's output. */
export function formatTokens(counts) {
  const n = (value) => value.toLocaleString('en-US');
  return [
    `Context cost in o200k tokens (offline, bridge on: ${counts.tools} tools, ${counts.tools_ours} ours)`,
    `  client part (name, description, inputSchema)  ${n(counts.client_part)} (ours ${n(counts.client_part_ours)})`,
    `  instructions                                  ${n(counts.instructions)}`,
    `  whole tools/list                              ${n(counts.tools_list)} (ours ${n(counts.tools_list_ours)})`,
    `  seven-call session, text                      ${n(counts.session_text)}`,
    `  seven-call session, structuredContent         ${n(counts.session_structured)}`,
    `  largest answer text (${counts.largest_text_call})  ${n(counts.largest_text)}`,
    `  largest structuredContent                     ${n(counts.largest_structured)}`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const counts = await measureTokens();
  process.stdout.write(
    process.argv.includes('--json') ? `${JSON.stringify(counts, null, 2)}\n` : `${formatTokens(counts)}\n`,
  );
}
