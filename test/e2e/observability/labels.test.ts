/**
 * Metric labels and span names come from a closed set: a tool, prompt or method name a caller
 * invents is recorded as `_OTHER`, so a thousand invented names (and one of 20,000 characters)
 * leave `/metrics` the size it was, give or take the digits of its counters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, closedPort } from '../helpers.js';
import { initialize, lineSession, type LineSession } from '../wire.js';

let session: LineSession;
let metricsPort: number;
let nextId = 0;

const scrape = async () => {
  const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
};

/** One invented tool, prompt and method name each, `tag` making them unique. */
async function invented(tag: string): Promise<void> {
  const answers = await Promise.all([
    session.request(++nextId, 'tools/call', { name: `made_up_tool_${tag}`, arguments: {} }),
    session.request(++nextId, 'prompts/get', { name: `made_up_prompt_${tag}`, arguments: {} }),
    session.request(++nextId, `made/up/method/${tag}`, {}),
  ]);
  for (const answer of answers) expect(answer.error, JSON.stringify(answer)).toBeDefined();
}

beforeAll(async () => {
  metricsPort = await closedPort();
  session = lineSession(['--offline'], { env: cleanEnv({ SERVICE_MCP_METRICS_PORT: String(metricsPort) }) });
  await initialize(session);
  // Every series the run will touch exists before the first scrape: a real tool call, and one of each invented kind.
  await session.request(++nextId, 'tools/call', { name: 'discover_api', arguments: {} });
  await invented('warm-up');
});

afterAll(async () => {
  session?.child.stdin.end();
  await session?.exited;
});

describe('labels from a closed set', () => {
  it('1,000 invented names and one of 20,000 characters leave /metrics within 2 KB of its size', async () => {
    const before = await scrape();
    for (let batch = 0; batch < 10; batch++)
      await Promise.all(Array.from({ length: 100 }, (_, i) => invented(`${batch}_${i}`)));
    const long = 'x'.repeat(20_000);
    await invented(long);
    const after = await scrape();

    expect(after).not.toContain('made_up');
    expect(after).not.toContain(long.slice(0, 100));
    expect(after).toMatch(/gen_ai_tool_name="_OTHER"/);
    expect(after).toMatch(/gen_ai_prompt_name="_OTHER"/);
    expect(after).toMatch(/mcp_method_name="_OTHER"/);
    expect(after).toMatch(/gen_ai_tool_name="discover_api"/);
    // Only the counts grew (a few digits on each line of the _OTHER series).
    expect(after.length - before.length, `before ${before.length} B, after ${after.length} B`).toBeLessThan(2_048);
  });
});
