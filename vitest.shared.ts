import { defineConfig } from 'vitest/config';

// The one vitest config every package uses. Tests start servers and spawn
// processes, and CI runs packages side by side on two cores: the limits are
// there to catch a hang, not to time anything (no test asserts on speed).
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
