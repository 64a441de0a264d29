/**
 * Buckets in this process's memory (the default store, and the Redis store's stand-in while
 * Redis is unreachable). Bounded so that a flood of distinct addresses cannot grow memory
 * without limit: when the map is full, buckets that have refilled completely are dropped first
 * (a missing bucket is a full one, so nothing is lost), then the least recently used ones.
 */
import {
  type BucketPolicy,
  type BucketState,
  type BucketStore,
  type BucketTake,
  refill,
  TOKEN_EPSILON,
  takeTokens,
} from './token-bucket.js';

export interface MemoryStoreOptions {
  /** Most buckets kept at once (default 100000, some 20 MB at worst). */
  maxBuckets?: number;
  /** Clock in milliseconds; tests pass their own. */
  now?: () => number;
}

export class MemoryBucketStore implements BucketStore {
  /** Insertion order is recency order: every take moves its bucket to the end. */
  private readonly buckets = new Map<string, BucketState>();
  private readonly maxBuckets: number;
  private readonly now: () => number;

  constructor(
    private readonly policy: BucketPolicy,
    options: MemoryStoreOptions = {},
  ) {
    this.maxBuckets = Math.max(1, options.maxBuckets ?? 100_000);
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.buckets.size;
  }

  async take(key: string, cost: number): Promise<BucketTake> {
    return this.takeNow(key, cost);
  }

  /** The synchronous core, for callers that already hold the event loop. */
  takeNow(key: string, cost: number): BucketTake {
    const now = this.now();
    const before = this.buckets.get(key);
    if (before === undefined && this.buckets.size >= this.maxBuckets) this.evict(now);
    const { state, take } = takeTokens(before, cost, now, this.policy);
    this.buckets.delete(key);
    this.buckets.set(key, state);
    return take;
  }

  /**
   * Frees at least a tenth of the map, so the O(n) sweep runs at most once per maxBuckets/10
   * new clients however hard the store is hammered.
   */
  private evict(now: number): void {
    const target = Math.floor(this.maxBuckets * 0.9);
    for (const [key, state] of this.buckets) {
      if (refill(state, now, this.policy) >= this.policy.capacity - TOKEN_EPSILON) this.buckets.delete(key);
    }
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= target) break;
      this.buckets.delete(key);
    }
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }
}
