/**
 * Every promise a call creates has an owner: a cancellation at any moment of a call (between any
 * two of its awaits) ends that call and leaves nothing rejected without a listener, which Node
 * would turn into the death of the process. Counted, not timed: the moments are microtask turns.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { raceAbort } from '../../../src/lib/abort.js';
import { RetryAfterGate } from '../../../src/api/retry-after-gate.js';
import { createBackend } from '../../../src/app/backend.js';
import { resolveConfig } from '../../../src/config/config.js';
import { silentLogger } from '../../../src/obs/log.js';
import { discovery, jobList, sendJson, useLoopback } from './helpers.js';

const api = useLoopback();

let unhandled: unknown[] = [];
const record = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', record);
});
afterEach(() => void process.off('unhandledRejection', record));

/** Node reports a rejection as unhandled after the microtasks queued with it: a macrotask later, it has. */
const rejectionsReported = () => new Promise((resolve) => setImmediate(resolve));
const microtasks = async (count: number) => {
  for (let i = 0; i < count; i++) await Promise.resolve();
};

describe('raceAbort', () => {
  it('owns the raced promise when the signal has already aborted: its later rejection is not unhandled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('the caller left'));
    let fail!: (error: Error) => void;
    const request = new Promise<never>((_, reject) => (fail = reject));
    await expect(raceAbort(request, controller.signal)).rejects.toThrow('the caller left');
    fail(new Error('the request, ended by the same abort'));
    await rejectionsReported();
    expect(unhandled).toEqual([]);
  });

  it('owns it when the signal aborts first and the promise rejects after', async () => {
    const controller = new AbortController();
    let fail!: (error: Error) => void;
    const race = raceAbort(new Promise<never>((_, reject) => (fail = reject)), controller.signal);
    controller.abort(new Error('the caller left'));
    await expect(race).rejects.toThrow('the caller left');
    fail(new Error('late'));
    await rejectionsReported();
    expect(unhandled).toEqual([]);
  });
});

describe('a call cancelled at any moment (the production backend: lazy undici fetch, catalog, gate)', () => {
  const config = () => resolveConfig({ baseUrl: api.url, cache: false }, {});
  beforeEach(() => {
    api.respond = (req, res) =>
      sendJson(res, 200, req.url?.startsWith('/api/public/v1/jobs') ? jobList() : discovery());
  });

  /** Cancels the call `turns` microtasks after it starts, for every count below 80 (more than a call takes to reach the socket); the outcomes seen. */
  async function cancelAtEveryTurn(client: () => ApiClient): Promise<Set<string>> {
    const outcomes = new Set<string>();
    for (let turns = 0; turns < 80; turns++) {
      const controller = new AbortController();
      const call = client()
        .listJobs({ q: `turn ${turns}` }, { signal: controller.signal })
        .then(
          () => 'answered',
          (error: { kind?: string }) => error.kind ?? 'unknown',
        );
      await microtasks(turns);
      controller.abort(new Error('the caller left'));
      outcomes.add(await call);
      await rejectionsReported();
    }
    return outcomes;
  }

  it('on the steady path (undici loaded, catalog known): cancelled or answered, nothing unhandled', async () => {
    const { client } = createBackend(config(), silentLogger);
    await client.listJobs();
    const outcomes = await cancelAtEveryTurn(() => client);
    expect(unhandled).toEqual([]);
    expect([...outcomes].filter((kind) => kind !== 'answered' && kind !== 'cancelled')).toEqual([]);
    expect(outcomes.has('cancelled')).toBe(true);
  });

  it('on a first call (undici loading, the catalog being read): cancelled or answered, nothing unhandled', async () => {
    const outcomes = await cancelAtEveryTurn(() => createBackend(config(), silentLogger).client);
    expect(unhandled).toEqual([]);
    expect([...outcomes].filter((kind) => kind !== 'answered' && kind !== 'cancelled')).toEqual([]);
  });

  it('while waiting out a Retry-After at the gate: cancelled at once, nothing unhandled', async () => {
    const gate = new RetryAfterGate();
    const { client } = createBackend(config(), silentLogger, { gate });
    await client.listJobs();
    gate.block(10);
    const outcomes = await cancelAtEveryTurn(() => client);
    expect(unhandled).toEqual([]);
    expect([...outcomes]).toEqual(['cancelled']);
  });
});
