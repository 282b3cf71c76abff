import { defineConfig } from 'vitest/config';

// Web unit tests: the pure logic of the shell and widgets (no browser; e2e/ drives Chromium).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
  },
});
