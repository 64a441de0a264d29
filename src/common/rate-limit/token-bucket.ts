/**
 * Token-bucket arithmetic, shared by every store so they agree to the token: a bucket holds at
 * most `capacity` tokens and refills continuously at `refillPerMinute` (fractional tokens by
 * elapsed time, not a fixed window that resets), and a request of cost n passes only when n
 * whole tokens are there. The Redis store runs the same rule in Lua (see redis-store.ts).
 */

export interface BucketPolicy {
  capacity: number;
  refillPerMinute: number;
}

export interface BucketState {
  tokens: number;
  /** Milliseconds since the epoch of the last refill. */
  updatedMs: number;
}

/** What one take did: whether the cost was paid and the tokens left afterwards. */
export interface BucketTake {
  allowed: boolean;
  tokens: number;
}

/** What the HTTP layer reports: IETF RateLimit header fields and, on refusal, Retry-After. */
export interface BucketReport {
  limit: number;
  /** Whole tokens left. */
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
}

/**
 * Refill arithmetic in floating point can leave 0.9999999 where a whole token is due; anything
 * this close counts as there, so a client that waits exactly the advertised time is served.
 */
export const TOKEN_EPSILON = 1e-9;

const perMs = (policy: BucketPolicy) => policy.refillPerMinute / 60_000;

/** Whole seconds to wait for `tokens` more, rounded up (2.0000000001 s of rounding noise is 2). */
const secondsFor = (tokens: number, policy: BucketPolicy) =>
  Math.ceil(tokens / perMs(policy) / 1000 - TOKEN_EPSILON);

/** Tokens in a bucket at `nowMs`; a missing bucket is full (a fresh client owes nothing). */
export function refill(state: BucketState | undefined, nowMs: number, policy: BucketPolicy): number {
  if (state === undefined) return policy.capacity;
  // A clock that steps backwards refills nothing rather than draining the bucket.
  const elapsed = Math.max(0, nowMs - state.updatedMs);
  return Math.min(policy.capacity, state.tokens + elapsed * perMs(policy));
}

/**
 * Takes `cost` tokens when they are all there (never part of them). A negative cost gives
 * tokens back, never above capacity: how a batch returns the token it paid at the door when
 * the rest of its cost cannot be met.
 */
export function takeTokens(
  state: BucketState | undefined,
  cost: number,
  nowMs: number,
  policy: BucketPolicy,
): { state: BucketState; take: BucketTake } {
  const available = refill(state, nowMs, policy);
  const allowed = cost <= available + TOKEN_EPSILON;
  const tokens = allowed ? Math.min(policy.capacity, Math.max(0, available - cost)) : available;
  const updatedMs = state === undefined ? nowMs : Math.max(nowMs, state.updatedMs);
  return { state: { tokens, updatedMs }, take: { allowed, tokens } };
}

/** Seconds until the bucket holds `capacity` again, rounded up. */
export function secondsUntilFull(tokens: number, policy: BucketPolicy): number {
  const missing = policy.capacity - tokens;
  return missing <= TOKEN_EPSILON ? 0 : Math.max(1, secondsFor(missing, policy));
}

/**
 * Seconds until `cost` tokens are there, rounded up (at least 1 when they are not there now).
 * A cost above capacity can never be met; the time to a full bucket is the honest best answer.
 */
export function secondsUntilAvailable(tokens: number, cost: number, policy: BucketPolicy): number {
  if (cost > policy.capacity) return Math.max(1, secondsUntilFull(tokens, policy));
  const missing = cost - tokens;
  return missing <= TOKEN_EPSILON ? 0 : Math.max(1, secondsFor(missing, policy));
}

export function reportOf(tokens: number, policy: BucketPolicy): BucketReport {
  return {
    limit: policy.capacity,
    remaining: Math.max(0, Math.floor(tokens + TOKEN_EPSILON)),
    resetSeconds: secondsUntilFull(tokens, policy),
  };
}

/** Where buckets live: in this process (memory-store.ts) or shared by instances (redis-store.ts). */
export interface BucketStore {
  take(key: string, cost: number): Promise<BucketTake>;
  close(): Promise<void>;
}
