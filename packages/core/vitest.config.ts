import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// Type tests (src/**/*.test-d.ts) run with the others: vitest checks them with tsc and reports
// each expectTypeOf and @ts-expect-error by test. Errors elsewhere are `pnpm typecheck`'s to report.
export default mergeConfig(
  shared,
  defineConfig({
    test: { typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json', ignoreSourceErrors: true } },
  }),
);
