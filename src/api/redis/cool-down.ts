/**
 * One Retry-After cool-down for every replica: the process's own gate, with Redis consulted before
 * each request. A 429 seen anywhere holds every replica for its window, and when it ends exactly one
 * request across the replicas probes (it holds a lock) while the others poll. Waiting stays local
 * (cancellable, with progress); when Redis does not answer in time, the local gate alone decides.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { RetryAfterGate, type GatePassOptions, type GateTicket } from '../retry-after-gate.js';
import type { SharedRedis } from './connection.js';

/** How often a replica asks whether another's probe has its status. */
const PROBE_POLL_MS = 50;
/** A probe lock outlives a probe that crashed by this much beyond the request timeout. */
const LOCK_SLACK_MS = 1_000;
/** How long the "a probe is due" mark outlives its window: far longer than any wait, but not forever. */
const PROBE_DUE_MS = 3_600_000;

// 0: cooling down (ms left) · 1: this caller holds the probe lock · 2: another caller probes · 3: open.
const CHECK = `
local left = redis.call('PTTL', KEYS[1])
if left > 0 then return {0, left} end
if redis.call('EXISTS', KEYS[2]) == 1 then
  if redis.call('SET', KEYS[3], ARGV[1], 'NX', 'PX', ARGV[2]) then return {1, 0} end
  return {2, 0}
end
return {3, 0}`;
// Extends (never shortens) the window, marks a probe as due, and frees the lock of a probe that was refused.
const BLOCK = `
if tonumber(ARGV[1]) > redis.call('PTTL', KEYS[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
redis.call('SET', KEYS[2], '1', 'PX', tonumber(ARGV[1]) + tonumber(ARGV[2]))
redis.call('DEL', KEYS[3])
return 1`;
// The probe had its status and it was no 429: open for all, if this caller still holds the lock.
const OPEN = `
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[1], KEYS[2]) end
return 1`;

export interface SharedGateOptions {
  redis: SharedRedis;
  /** Key prefix naming the API's origin: replicas of different APIs do not hold each other. */
  prefix: string;
  /** The client's request timeout: a probe lock lasts that long (and a little more). */
  requestTimeoutMs: number;
  now?: () => number;
}

export class SharedRetryAfterGate extends RetryAfterGate {
  private readonly redis: SharedRedis;
  /** KEYS of the scripts: the cool-down window, the "a probe is due" mark, the probe lock. */
  private readonly keys: string[];
  private readonly lockMs: number;
  private blocks = 0;

  constructor(options: SharedGateOptions) {
    super(options.now);
    this.redis = options.redis;
    this.keys = ['cooldown', 'probe-due', 'probe-lock'].map((name) => `${options.prefix}:${name}`);
    this.lockMs = options.requestTimeoutMs + LOCK_SLACK_MS;
  }

  override sharedConnected(): boolean {
    return this.redis.ready();
  }

  /** Never the no-wait fast path while Redis is there: another replica may have seen a 429. */
  override open(): GateTicket | undefined {
    return this.redis.ready() ? undefined : super.open();
  }

  override async pass(options: GatePassOptions): Promise<GateTicket> {
    const started = Date.now();
    for (;;) {
      const local = await super.pass({ ...options, maxWaitS: options.maxWaitS - (Date.now() - started) / 1000 });
      const token = `${process.pid}:${Math.random().toString(36).slice(2)}`;
      const state = (await this.redis.eval(CHECK, this.keys, [token, String(this.lockMs)])) as
        [number, number] | undefined;
      if (state === undefined || state[0] === 3) return local;
      if (state[0] === 0) {
        // Another replica's window: wait it out here, with this caller's budget, progress and signal.
        local.settle();
        super.block(state[1] / 1000);
        continue;
      }
      if (state[0] === 2) {
        local.settle();
        await sleep(PROBE_POLL_MS, undefined, { signal: options.signal });
        continue;
      }
      const blocksBefore = this.blocks;
      return {
        waitedMs: Date.now() - started,
        settle: () => {
          local.settle();
          // A 429 to the probe already freed the lock and set the next window (block, below).
          if (this.blocks === blocksBefore) void this.redis.eval(OPEN, this.keys.slice(1), [token]);
        },
      };
    }
  }

  override block(seconds: number): void {
    super.block(seconds);
    this.blocks++;
    void this.redis.eval(BLOCK, this.keys, [String(Math.ceil(seconds * 1000)), String(PROBE_DUE_MS)]);
  }
}
