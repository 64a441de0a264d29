/**
 * Per-client token-bucket rate limiting (RATE_LIMIT_RPM; the arithmetic and the stores are in
 * common/rate-limit/). Every request pays one token at the door, before the API key is checked,
 * so guessing keys is limited too; a batch pays for the rest of its queries before any of them
 * runs. Every charged answer carries RateLimit-Limit, -Remaining and -Reset; a refusal is a 429
 * problem with Retry-After. Free: the favicon and CORS preflights. A batch's queries pay up
 * front (chargeBatch) and then run inside the batch request, never as requests of their own.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientAddress, trustedProxies } from '../../common/client-address.js';
import { bucketKeyOf } from '../../common/rate-limit/bucket-key.js';
import { MemoryBucketStore } from '../../common/rate-limit/memory-store.js';
import {
  type BucketPolicy,
  type BucketStore,
  type BucketTake,
  reportOf,
  secondsUntilAvailable,
} from '../../common/rate-limit/token-bucket.js';
import type { PublicationConfig } from '../config.js';
import { ProblemError } from '../problems.js';
import { isPreflight } from './cors.js';
import { pathOf } from './query-params.js';

export interface RateLimiter {
  /**
   * The door: charges one token, reports the bucket on the reply and returns the 429 problem
   * when the bucket is empty. The edge does not call it for free requests. Synchronous with the in-memory store, so
   * the common case creates no promise.
   */
  charge(
    request: FastifyRequest,
    reply: FastifyReply,
  ): ProblemError | undefined | Promise<ProblemError | undefined>;
  /**
   * Charges a batch of `queries` queries: the door took one token, this takes the others, all
   * or none. Short of tokens, the door's token goes back and a 429 ProblemError is thrown, so a
   * refused batch costs nothing.
   */
  chargeBatch(request: FastifyRequest, reply: FastifyReply, queries: number): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimiter: RateLimiter;
  }
}

function createStore(
  app: FastifyInstance,
  config: PublicationConfig,
  policy: BucketPolicy,
): BucketStore | MemoryBucketStore {
  const memory = new MemoryBucketStore(policy);
  const url = config.rateLimitRedisUrl;
  if (url === undefined) return memory;
  // ioredis adds about 15 MB of RSS once loaded: only a server configured for Redis loads it,
  // before it listens (onReady), so no request is charged anywhere else.
  let store: BucketStore = memory;
  app.addHook('onReady', async () => {
    const { RedisBucketStore } = await import('../../common/rate-limit/redis-store.js');
    const redis = new RedisBucketStore(url, policy, {
      keyPrefix: 'publication:ratelimit:',
      log: app.log,
      fallback: memory,
    });
    store = redis;
    await redis.connect();
  });
  return { take: (key, cost) => store.take(key, cost), close: () => store.close() };
}

export function createRateLimiter(app: FastifyInstance, config: PublicationConfig): RateLimiter {
  const policy: BucketPolicy = { capacity: config.rateLimitRpm, refillPerMinute: config.rateLimitRpm };
  const store = createStore(app, config, policy);
  app.addHook('onClose', () => store.close());
  const isTrusted = config.trustProxy.length > 0 ? trustedProxies(config.trustProxy) : undefined;
  const favicons = new Set(['/favicon.ico', `${config.basePath}/favicon.ico`]);

  const keyOf = (request: FastifyRequest) =>
    bucketKeyOf(
      clientAddress(request.raw.socket.remoteAddress, request.headers['x-forwarded-for'], isTrusted),
    );
  const isFree = (request: FastifyRequest) => isPreflight(request) || favicons.has(pathOf(request.url));

  const report = (reply: FastifyReply, tokens: number) => {
    const r = reportOf(tokens, policy);
    reply.header('RateLimit-Limit', String(r.limit));
    reply.header('RateLimit-Remaining', String(r.remaining));
    reply.header('RateLimit-Reset', String(r.resetSeconds));
  };
  const refusal = (tokens: number, cost: number) => {
    const wait = secondsUntilAvailable(tokens, cost, policy);
    const limit = `the limit is ${policy.capacity} requests per minute per client`;
    const detail =
      cost > policy.capacity
        ? `this batch costs ${cost} tokens (one per query) but ${limit}; split it into smaller batches`
        : cost > 1
          ? `this batch costs ${cost} tokens (one per query) and fewer are left; ${limit}; retry in ${wait} s`
          : `too many requests; ${limit}; retry in ${wait} s`;
    return new ProblemError('rate-limited', detail, undefined, { 'Retry-After': String(wait) });
  };

  const settle = (reply: FastifyReply, take: BucketTake) => {
    report(reply, take.tokens);
    return take.allowed ? undefined : refusal(take.tokens, 1);
  };

  const limiter: RateLimiter = {
    charge(request, reply) {
      if (store instanceof MemoryBucketStore) return settle(reply, store.takeNow(keyOf(request), 1));
      return store.take(keyOf(request), 1).then((take) => settle(reply, take));
    },
    async chargeBatch(request, reply, queries) {
      if (queries <= 1 || isFree(request)) return;
      const key = keyOf(request);
      const take = await store.take(key, queries - 1);
      if (take.allowed) {
        report(reply, take.tokens);
        return;
      }
      const back = await store.take(key, -1);
      report(reply, back.tokens);
      throw refusal(back.tokens, queries);
    },
  };
  app.decorate('rateLimiter', limiter);
  return limiter;
}
