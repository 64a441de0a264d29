/**
 * Buckets in Redis, so several instances behind one proxy share one limit per client. One Lua
 * script refills and takes atomically (no read-modify-write race between instances) on Redis's
 * own clock (instances with skewed clocks still agree), and gives every key a TTL of the time it
 * takes to refill: an expired bucket and a full one are the same thing, so Redis keeps only the
 * clients that are actually limited.
 *
 * Redis being unreachable must never turn requests into 500s, nor lift every limit: the store
 * then charges a per-instance memory bucket (the limit holds per instance, so N instances allow
 * at most N times it), logs one warning per outage, and returns to Redis as soon as it answers.
 */
import { Redis } from 'ioredis';
import { type BucketPolicy, type BucketStore, type BucketTake, TOKEN_EPSILON } from './token-bucket.js';

// Mirrors takeTokens() in token-bucket.ts; keep the two rules identical.
const TAKE_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local capacity = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local epsilon = tonumber(ARGV[4])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(saved[1])
local ts = tonumber(saved[2])
if tokens == nil or ts == nil then
  tokens = capacity
  ts = now
end
if now > ts then
  tokens = math.min(capacity, tokens + (now - ts) * per_ms)
  ts = now
end
local allowed = 0
if cost <= tokens + epsilon then
  tokens = math.min(capacity, math.max(0, tokens - cost))
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(ts))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / per_ms) + 1000)
return { allowed, tostring(tokens) }
`;

/** The script as ioredis exposes it once defined (evalsha, with eval on a cold script cache). */
interface TakeCommand {
  takeTokens(
    key: string,
    capacity: number,
    perMs: string,
    cost: number,
    epsilon: number,
  ): Promise<[number, string]>;
}

export interface RateLimitLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export interface RedisStoreOptions {
  /** Prepended to every bucket key, after any `keyPrefix` given in the URL's query. */
  keyPrefix?: string;
  log: RateLimitLog;
  /** Charged while Redis cannot answer. */
  fallback: BucketStore;
  /** How long one take may wait for Redis before the fallback answers (default 300 ms). */
  commandTimeoutMs?: number;
}

export class RedisBucketStore implements BucketStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private degraded = false;

  constructor(
    url: string,
    private readonly policy: BucketPolicy,
    private readonly options: RedisStoreOptions,
  ) {
    this.prefix = options.keyPrefix ?? 'ratelimit:';
    this.redis = new Redis(url, {
      lazyConnect: true,
      // A request must not wait for a reconnect: with no offline queue a take fails at once
      // while Redis is down, and the fallback answers.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 300,
      connectTimeout: 2000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.redis.defineCommand('takeTokens', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    // Every failed reconnect emits 'error'; the outage itself is reported once, by take().
    this.redis.on('error', () => {});
  }

  /** Waits for the first connection (bounded); a Redis that is down only means degraded mode. */
  async connect(timeoutMs = 2000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([this.redis.connect().catch(() => {}), timeout]);
    clearTimeout(timer);
    if (this.redis.status !== 'ready') this.noteFailure(new Error(`not connected (${this.redis.status})`));
  }

  async take(key: string, cost: number): Promise<BucketTake> {
    try {
      const [allowed, tokens] = await (this.redis as unknown as TakeCommand).takeTokens(
        `${this.prefix}${key}`,
        this.policy.capacity,
        String(this.policy.refillPerMinute / 60_000),
        cost,
        TOKEN_EPSILON,
      );
      if (this.degraded) {
        this.degraded = false;
        this.options.log.info({}, 'rate limiting: Redis answers again; limits are shared again');
      }
      return { allowed: allowed === 1, tokens: Number(tokens) };
    } catch (err) {
      this.noteFailure(err);
      return this.options.fallback.take(key, cost);
    }
  }

  private noteFailure(err: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    this.options.log.warn(
      { err: err instanceof Error ? err.message : String(err) },
      'rate limiting: Redis is unreachable; limiting per instance in memory until it is back',
    );
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
    await this.options.fallback.close();
  }
}
