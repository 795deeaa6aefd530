/**
 * Bridged tools as a connected client meets them through our server: a hosted outputSchema is
 * checked by us, not relisted (an answer without a structure that fits is still an answer, its
 * structure dropped and said so, which a relisted schema would make a protocol error), and a tool
 * bridged after the client connected is named by the unknown-tool answer like the rest.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { LIST_TTL_MS } from '../../../src/hosted/caps.js';
import { bridgeOver, READ_ONLY_TOOL, servedOver, surface, type SurfaceOptions } from './surface.js';

async function connected(options: SurfaceOptions, now: () => number = Date.now) {
  const target = surface(options);
  const bridge = bridgeOver(target, { timeoutMs: 5_000, now });
  await bridge.settled(5_000);
  const client = await servedOver(bridge);
  return { client, bridge };
}

const textOf = (result: CallToolResult) =>
  result.content.map((block) => ('text' in block ? block.text : '')).join('\n');

describe('a bridged tool with an outputSchema, served', () => {
  it('is listed without it; an answer that fits keeps its structure, one without or not fitting is still an answer', async () => {
    const answers: Array<Record<string, unknown> | undefined> = [
      { rounds: [{ stage: 'Seed' }] },
      undefined,
      { rounds: 'none' },
    ];
    const { client } = await connected({
      tools: [READ_ONLY_TOOL],
      call: () => {
        const structured = answers.shift();
        return {
          content: [{ type: 'text', text: 'Seed round.' }],
          ...(structured ? { structuredContent: structured } : {}),
        };
      },
    });
    const listed = (await client.listTools()).tools.find((tool) => tool.name === 'get_company_funding');
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('outputSchema');

    const call = () =>
      client.callTool({ name: 'get_company_funding', arguments: { company: 'x' } }) as Promise<CallToolResult>;
    const fits = await call();
    expect(fits.isError, textOf(fits)).toBeFalsy();
    expect(fits.structuredContent).toEqual({ rounds: [{ stage: 'Seed' }] });

    const without = await call();
    expect(without.isError, textOf(without)).toBeFalsy();
    expect(without.structuredContent).toBeUndefined();
    expect(textOf(without)).toContain('Seed round.');

    const misfit = await call();
    expect(misfit.isError, textOf(misfit)).toBeFalsy();
    expect(misfit.structuredContent).toBeUndefined();
    expect(textOf(misfit)).toMatch(/structuredContent dropped: it does not match the tool's outputSchema \(rounds: /);
    await client.close();
  });
});

describe('a tool bridged after the client connected', () => {
  it('is named by the unknown-tool answer', async () => {
    let now = Date.parse('2026-11-25T12:00:00Z');
    const listed: unknown[] = [READ_ONLY_TOOL];
    const { client, bridge } = await connected({ tools: listed }, () => now);
    listed.push({ ...READ_ONLY_TOOL, name: 'get_company_headcount' });
    now += LIST_TTL_MS;
    const changed = new Promise<void>((resolve) => bridge.onChange(() => resolve()));
    bridge.tools();
    await changed;
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((error: Error) => error);
    expect(String((unknown as Error).message)).toMatch(/get_company_funding, get_company_headcount$/);
    await client.close();
  });
});
