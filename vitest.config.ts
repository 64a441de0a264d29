import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: [
      'test/helpers/global-setup.ts',
      'test/helpers/postgres-global-setup.ts',
      'test/helpers/pglite-template-setup.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // expect.poll waits for what a page or a server shows after an asynchronous step (a list
    // read, a label resolved): 1 s (the default) was too short on a loaded CI machine, where a
    // list page took longer to render. A ceiling on waiting, not a timing assertion.
    expect: { poll: { timeout: 10_000 } },
    // Integration files each create their own databases; running files in parallel on a
    // 2-core machine mostly adds contention, so keep a small pool.
    maxWorkers: 2,
    // Each worker keeps the modules it loaded for the next file instead of importing the server
    // and its dependencies again per file (about 1 s a file, 200 s of a run). Every test file
    // makes its own servers and databases; none mocks modules.
    isolate: false,
  },
});
