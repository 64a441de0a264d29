/**
 * Seeded pseudo-random numbers for the demo generator. Every record draws from its own stream,
 * derived from (seed, salt, id), so a row can be generated alone and in any order while still
 * being byte-identical from one run to the next: that is what lets the generator stream rows
 * instead of building the whole archive in memory. The generator is mulberry32 (32-bit state,
 * integer arithmetic only, so results do not depend on the platform).
 */

/** Mixes integers into a well-spread 32-bit value (the murmur3 finaliser, applied per input). */
export function hash32(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A stream for one record: independent of how many numbers other records consumed. */
  static for(seed: number, salt: number, id: number): Random {
    // Both halves of the seed count, so any safe integer gives its own data.
    return new Random(hash32(seed % 2 ** 32, Math.floor(seed / 2 ** 32), salt, id));
  }

  /** Uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Fisher-Yates, in place (plain or typed arrays); returns the same list for chaining. */
  shuffle<T, L extends { length: number; [index: number]: T }>(items: L): L {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = items[i]!;
      items[i] = items[j]!;
      items[j] = tmp;
    }
    return items;
  }
}
