// The conformance suite's tools that a Toolshed plugin can implement, as the suite describes them.
import { defineTool, definePlugin } from '@toolshed/core';
import * as v from 'valibot';

const pause = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

export default definePlugin({
  name: 'conformance-tools',
  apiVersion: 1,
  tools: [
    defineTool({
      name: 'test_simple_text',
      description: 'Returns a simple text response.',
      input: v.object({}),
      annotations: { readOnly: true },
      run: () => 'This is a simple text response for testing.',
    }),
    defineTool({
      name: 'test_error_handling',
      description: 'Always fails.',
      input: v.object({}),
      annotations: { readOnly: true },
      run: () => {
        throw new Error('This tool intentionally returns an error for testing');
      },
    }),
    defineTool({
      name: 'test_tool_with_progress',
      description: 'Reports progress 0, 50 and 100 of 100, about 50 ms apart.',
      input: v.object({}),
      annotations: { readOnly: true },
      run: async (_input, ctx) => {
        for (const progress of [0, 50, 100]) {
          if (progress > 0) await pause(50, ctx.signal);
          ctx.report({ progress, total: 100 });
        }
        // The SDK client can miss a notification that arrives in the same read as the result.
        await pause(50, ctx.signal);
        return 'Progress test completed';
      },
    }),
  ],
});
