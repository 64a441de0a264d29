/**
 * Samples this process's resident set size while something runs, for tests that claim flat
 * memory. The publication server under test runs in the test's process (its SQLite workers are
 * threads), so the process RSS is the server's memory plus the test's own small overhead.
 */
export interface RssSamples {
  baseline: number;
  peak: number;
  samples: number;
}

export async function sampleRss<T>(
  work: () => Promise<T>,
  everyMs = 50,
): Promise<{ result: T; rss: RssSamples }> {
  global.gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  let samples = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
    samples += 1;
  }, everyMs);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, rss: { baseline, peak, samples } };
  } finally {
    clearInterval(timer);
  }
}
