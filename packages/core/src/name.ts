/** The names every model API accepts for a function/tool. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export function isToolName(name: unknown): name is string {
  return typeof name === 'string' && TOOL_NAME_PATTERN.test(name);
}

export function assertToolName(name: unknown, origin?: string): asserts name is string {
  if (isToolName(name)) return;
  const from = origin ? ` (from ${origin})` : '';
  throw new TypeError(
    `Invalid tool name ${JSON.stringify(name)}${from}: use 1 to 64 letters, digits, "_" or "-" (${TOOL_NAME_PATTERN}).`,
  );
}
