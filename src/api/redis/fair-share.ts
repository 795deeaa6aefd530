/**
 * Each caller's share kept in Redis, so that a caller has one share across every replica: the
 * same token bucket as fair-share.ts, refilled and taken from in one Lua script on Redis's own
 * clock (replicas' clocks may disagree). While Redis does not answer, the process's own buckets
 * decide, as the cool-down does: a caller may then get a share from each replica.
 */
import { createHash } from 'node:crypto';
import { LocalBudget, type BudgetAnswer, type Rate, type ShareState } from '../fair-share.js';
import type { SharedRedis } from './connection.js';

// ARGV: tokens per ms, burst, 1 to take one (0 to read). Returns {allowed, tokens left (as text), ms to the next}.
const BUCKET = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(held[1]) or burst
local at = tonumber(held[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local allowed = 0
local wait = 0
if ARGV[3] == '1' then
  if tokens >= 1 then
    tokens = tokens - 1
    allowed = 1
  else
    wait = math.ceil((1 - tokens) / rate)
  end
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate) + 1000)
end
return {allowed, tostring(tokens), wait}`;

export class SharedBudget extends LocalBudget {
  constructor(
    private readonly redis: SharedRedis,
    private readonly prefix: string,
    rate: Rate,
  ) {
    super(rate);
  }

  private key(caller: string): string {
    return `${this.prefix}:share:${createHash('sha256').update(caller).digest('base64url')}`;
  }

  private async bucketIn(caller: string, take: boolean): Promise<[number, string, number] | undefined> {
    const answer = await this.redis.eval(
      BUCKET,
      [this.key(caller)],
      [String(this.rate.perMinute / 60_000), String(this.rate.burst), take ? '1' : '0'],
    );
    return Array.isArray(answer) ? (answer as [number, string, number]) : undefined;
  }

  override async take(caller: string): Promise<BudgetAnswer> {
    const answer = await this.bucketIn(caller, true);
    if (!answer) return super.take(caller);
    const allowed = answer[0] === 1;
    this.tally(caller, allowed);
    return {
      allowed,
      left: Math.floor(Number(answer[1])),
      retryAfterS: allowed ? 0 : Math.max(1, Math.ceil(answer[2] / 1000)),
    };
  }

  override async state(caller: string): Promise<ShareState> {
    const local = await super.state(caller);
    const answer = await this.bucketIn(caller, false);
    return answer ? { ...local, left: Math.floor(Number(answer[1])), shared: true } : local;
  }
}
