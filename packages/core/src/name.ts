import { ContractError } from './contract-error.js';

/**
 * The tool names every supported API accepts: the intersection of OpenAI and
 * Anthropic (`^[a-zA-Z0-9_-]{1,64}$`), Gemini (a letter or "_" first, then
 * letters, digits, "_", ".", ":" or "-", at most 64) and MCP (1-128 of
 * letters, digits, "_", "-" and "."). A name one of them refuses would make
 * every request that lists the tool fail, so core refuses it at registration.
 */
export const TOOL_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

/** The rule in words, for error messages. */
export const TOOL_NAME_RULE =
  'a letter or "_" first, then letters, digits, "_" or "-", at most 64 in all (what OpenAI, Anthropic, Gemini and MCP all accept)';

/** What an MCP server may be called (Anthropic's tool-name rule): it names the server's cache file, reports and errors. */
export const SERVER_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export function isToolName(name: unknown): name is string {
  return typeof name === 'string' && TOOL_NAME_PATTERN.test(name);
}

export function assertToolName(name: unknown, origin?: string): asserts name is string {
  if (isToolName(name)) return;
  const from = origin ? ` (from ${origin})` : '';
  const rule = `use ${TOOL_NAME_RULE}, e.g. get_weather.`;
  const reason = `${JSON.stringify(name)} is not a valid tool name: ${rule}`;
  throw new ContractError({ field: 'name', reason }, `Invalid tool name ${JSON.stringify(name)}${from}: ${rule}`);
}
