import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // One console and one browser per file; files one after another on two cores.
    fileParallelism: false,
  },
});
