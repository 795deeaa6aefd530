/**
 * The hosted list is kept for LIST_TTL_MS, shared through a store when there is one, read again
 * after it, and a change of the bridged set reaches a connected client as
 * notifications/tools/list_changed (the stdio server follows the bridge), the first list's arrival
 * after the first tools/list included; how long a list holds (the 2026-07-28 ttlMs) follows the
 * reads. Clocks are injected.
 */
import { describe, expect, it } from 'vitest';
import { HostedBridge } from '../../../src/hosted/bridge.js';
import { LIST_RETRY_MS, LIST_TTL_MS } from '../../../src/hosted/caps.js';
import { TOOL_NAMES } from '../../../src/contract/tool-names.js';
import { bridgeOver, READ_ONLY_TOOL, servedOver, surface } from './surface.js';

function clockedBridge(
  listed: unknown[],
  now: () => number,
  store?: ConstructorParameters<typeof HostedBridge>[0]['store'],
) {
  const target = surface({ tools: listed });
  const bridge = bridgeOver(target, { timeoutMs: 5_000, now, store });
  return { bridge, target };
}

const changed = (bridge: HostedBridge) => new Promise<void>((resolve) => bridge.onChange(() => resolve()));

describe('the hosted list over time', () => {
  it('is kept until LIST_TTL_MS has passed, then read again; a change reaches a connected client', async () => {
    let now = Date.parse('2026-11-25T12:00:00Z');
    const listed: unknown[] = [READ_ONLY_TOOL];
    const { bridge, target } = clockedBridge(listed, () => now);
    const first = changed(bridge);
    bridge.start();
    await first;

    let notified = 0;
    const client = await servedOver(bridge, (c) =>
      c.setNotificationHandler('notifications/tools/list_changed', () => void notified++),
    );
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([...TOOL_NAMES, 'get_company_funding']);

    const lists = () => target.seen.filter((m) => m === 'tools/list').length;
    bridge.tools();
    now += LIST_TTL_MS - 1;
    bridge.tools();
    expect(lists()).toBe(1);

    listed.push({ ...READ_ONLY_TOOL, name: 'get_company_headcount' });
    now += 1;
    const second = changed(bridge);
    bridge.tools();
    await second;
    expect(lists()).toBe(2);
    // Counted, not timed: the notification follows the re-registration on the same connection.
    while (notified === 0) await new Promise((resolve) => setImmediate(resolve));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      ...TOOL_NAMES,
      'get_company_funding',
      'get_company_headcount',
    ]);
    await client.close();
  });

  it('is taken from the shared store while another replica’s read is fresh, and written there after a read', async () => {
    const written: string[] = [];
    const store = {
      get: async () => written.at(-1),
      set: async (value: string) => {
        written.push(value);
        return true;
      },
    };
    const one = clockedBridge([READ_ONLY_TOOL], Date.now, store);
    one.bridge.start();
    await one.bridge.settled(30_000);
    expect(written).toHaveLength(1);
    const two = clockedBridge([], Date.now, store);
    two.bridge.start();
    await two.bridge.settled(30_000);
    expect(two.bridge.tools().map((t) => t.name)).toEqual(['get_company_funding']);
    // Its age is the other replica's read, not this one's taking it up.
    const at = (JSON.parse(written[0]!) as { at: number }).at;
    expect(two.bridge.status()).toMatchObject({ list_from: 'replica', read_at: new Date(at).toISOString() });
    expect(two.target.seen).not.toContain('tools/list');
  });
});

describe('the first hosted list, when it comes after the first tools/list', () => {
  it('leaves that list ours alone, holding for nothing; then the client is told, and the list holds until due', async () => {
    let now = Date.parse('2026-11-25T12:00:00Z');
    let release!: () => void;
    const held = new Promise<undefined>((resolve) => (release = () => resolve(undefined)));
    const target = surface({
      tools: [READ_ONLY_TOOL],
      fault: (method) => (method === 'tools/list' ? held : undefined),
    });
    const bridge = bridgeOver(target, { timeoutMs: 30_000, now: () => now });
    bridge.start();
    let notified = 0;
    const client = await servedOver(bridge, (c) =>
      c.setNotificationHandler('notifications/tools/list_changed', () => void notified++),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    expect(bridge.holdsForMs()).toBe(0);

    const arrived = changed(bridge);
    release();
    await arrived;
    // Counted, not timed: the notification follows the registration on the same connection.
    while (notified === 0) await new Promise((resolve) => setImmediate(resolve));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([...TOOL_NAMES, 'get_company_funding']);
    expect(bridge.holdsForMs()).toBe(LIST_TTL_MS);
    now += 60_000;
    expect(bridge.holdsForMs()).toBe(LIST_TTL_MS - 60_000);
    await client.close();
  });

  it('holds a list until the next try after a failed read', async () => {
    let now = Date.parse('2026-11-25T12:00:00Z');
    const target = surface({
      tools: [READ_ONLY_TOOL],
      fault: (method) => (method === 'tools/list' ? Promise.resolve(new Response('down', { status: 503 })) : undefined),
    });
    const bridge = bridgeOver(target, { now: () => now });
    bridge.start();
    await bridge.settled(30_000);
    expect(bridge.status().state).toBe('failed');
    expect(bridge.holdsForMs()).toBe(LIST_RETRY_MS);
    now += LIST_RETRY_MS - 1;
    expect(bridge.holdsForMs()).toBe(1);
  });
});
