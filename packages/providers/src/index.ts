export type { ToolSource } from './source.js';
export type { ParsedToolCall } from './parsed-call.js';
export { runToolCalls, DEFAULT_CONCURRENCY } from './run-tool-calls.js';
export type { RunToolCallsOptions } from './run-tool-calls.js';
export { capOutput, capText, DEFAULT_MAX_CHARS, emptyResultText } from './result-text.js';
export { LOCAL_CALL_ID_PREFIX } from './call-id.js';
export type { ResultOptions } from './result-text.js';

export {
  toStrictSchema,
  strictSchemaProblems,
  describeStrictProblems,
  StrictSchemaError,
} from './strict-schema.js';
export type { NullPlan, StrictProblem, StrictRewrite } from './strict-schema.js';
export { restoreOmittedKeys } from './strict-restore.js';

export { toOpenAIChatTools, toOpenAIResponsesTools } from './openai-tools.js';
export type { OpenAIChatTool, OpenAIResponsesTool, OpenAIToolsOptions } from './openai-tools.js';
export { parseOpenAIToolCalls, parseOpenAIResponsesCalls } from './openai-calls.js';
export type { OpenAIParseOptions } from './openai-calls.js';
export { toOpenAIToolMessages, toOpenAIResponsesOutputs } from './openai-results.js';
export type { OpenAIFunctionCallOutput, OpenAIToolMessage } from './openai-results.js';

export { toAnthropicTools, parseAnthropicToolUses, toAnthropicToolResults, toAnthropicToolResultMessage } from './anthropic.js';
export type { AnthropicTool, AnthropicToolResult } from './anthropic.js';

export {
  toGeminiFunctionDeclarations,
  toGeminiTools,
  parseGeminiFunctionCalls,
  toGeminiFunctionResponses,
  toGeminiFunctionResponseContent,
} from './gemini.js';
export type { GeminiFunctionDeclaration, GeminiFunctionResponsePart } from './gemini.js';
export { toGeminiSchema } from './gemini-schema.js';

export { toMcpTools } from './mcp.js';
export type { McpTool } from './mcp.js';
