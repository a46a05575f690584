import { defineTool } from '@toolshed/core';
import * as v from 'valibot';

const Text = v.object({
  text: v.pipe(v.string(), v.description('The text to return.')),
});
// The output's field needs no words: MCP clients get its schema with every tools/list.
const Output = v.object({ text: v.string() });

/** The smallest real tool: proves the whole path from schema to outcome. */
export const echo = defineTool({
  name: 'echo',
  description: 'Return the given text unchanged. Useful to check that tool calls work.',
  input: Text,
  output: Output,
  annotations: { readOnly: true, idempotent: true },
  run: ({ text }) => ({ text }),
});
