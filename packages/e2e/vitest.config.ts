import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Publishing, installing and testing real packages takes minutes; each step sets its own limit.
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
