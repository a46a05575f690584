import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// Type tests run with the others: vitest checks src/**/*.test-d.ts with tsc, and
// options-types.test.ts too, whose @ts-expect-error lines stand beside its run-time checks.
// Errors elsewhere are `pnpm typecheck`'s to report.
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      typecheck: {
        enabled: true,
        include: ['src/**/*.test-d.ts', 'src/options-types.test.ts'],
        tsconfig: './tsconfig.json',
        ignoreSourceErrors: true,
      },
    },
  }),
);
