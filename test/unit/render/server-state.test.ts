/** The health tool's own lines: what the server holds back, last heard and answered from memory; Redis only when configured. */
import { describe, expect, it } from 'vitest';
import { renderHealth, renderServerState, serverTroubles } from '../../../src/render/health.js';

const base = { version: '1.2.3', node: 'v22.19.0', calls_in_flight: 1, rate_limit: {}, cache: { answers: 0, hits: 0 } };

describe('renderServerState', () => {
  it('says plainly when nothing is held back and nothing was heard', () => {
    const text = renderServerState(base);
    expect(text).toContain('service-mcp 1.2.3, Node v22.19.0');
    expect(text).toContain('no Retry-After cool-down running; no 429 since start');
    expect(text).toContain('Cache: 0 of 0 API answers');
    expect(text).not.toContain('Redis');
    expect(text).not.toContain('catalog');
  });

  it('names the Redis state when one is configured, and a catalog read that failed', () => {
    expect(renderServerState({ ...base, redis: { connected: true } })).toContain(
      'Redis (shared cool-down and cache): connected.',
    );
    expect(renderServerState({ ...base, redis: { connected: false } })).toContain(
      'unreachable; this replica uses its own state',
    );
    expect(
      renderServerState({ ...base, catalog: { checked: false, failure: 'discovery failed (timeout)' } }),
    ).toContain('Deployed catalog: not read yet; last read failed: discovery failed (timeout).');
  });

  it('says who read the catalog in hand: this process, or an earlier run whose copy it kept', () => {
    const at = '2026-11-27T18:16:08.277Z';
    expect(renderServerState({ ...base, catalog: { checked: true, at, from: 'api' } })).toContain(
      `- Deployed catalog: checked at ${at}.`,
    );
    expect(renderServerState({ ...base, catalog: { checked: true, at, from: 'earlier_run' } })).toContain(
      `- Deployed catalog: checked at ${at} by an earlier run, kept in the user's cache directory.`,
    );
  });
});

describe('the bridge in health', () => {
  it('names the tools skipped for one reason on one line', () => {
    const text = renderServerState({
      ...base,
      bridge: {
        state: 'ready',
        read_at: 't',
        bridged: ['x'],
        skipped: [
          { name: 'search_jobs', reason: 'our own tool of that name wins' },
          { name: 'send', reason: 'not annotated readOnlyHint: true' },
          { name: 'get_job', reason: 'our own tool of that name wins' },
        ],
      },
    });
    expect(text).toContain(
      '  Skipped search_jobs, get_job: our own tool of that name wins.\n  Skipped send: not annotated readOnlyHint: true.',
    );
  });
});

describe("the health tool's first line says whose problem it is", () => {
  const ok = { status: 'ok' as const, probes: [{ name: 'db', ok: true }] };
  it("names this server's own problem when the API is fine: Redis unreachable", () => {
    const troubles = serverTroubles({ ...base, redis: { connected: false } });
    expect(renderHealth(ok, 200, troubles).split('\n')[0]).toBe(
      "API health: OK (HTTP 200); 1 of 1 probes passing. The API is fine; the problem is this server's: Redis unreachable (this replica uses its own state).",
    );
  });
  it("a catalog that could not be read is not this server's problem (it failed for the API's reasons)", () => {
    expect(serverTroubles({ ...base, catalog: { checked: false, failure: 'discovery failed (network)' } })).toEqual([]);
    expect(serverTroubles({ ...base, redis: { connected: true } })).toEqual([]);
  });
});
