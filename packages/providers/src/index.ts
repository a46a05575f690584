export type { Adapter, ParseOptions } from './adapter.js';
export { adapters } from './adapters.js';
export { TOOL_FORMATS } from './formats.js';
export type { ToolFormat } from './formats.js';
export type { ToolSource } from './source.js';
export type { ParsedToolCall } from './parsed-call.js';
export { runToolCalls, dispatchCalls, DEFAULT_CONCURRENCY } from './run-tool-calls.js';
export type { RunToolCallsOptions, ToolCallsRun } from './run-tool-calls.js';
export { capOutput, capText, DEFAULT_MAX_CHARS, emptyResultText, outcomeText, unwritableOutputMessage } from './result-text.js';
export { LOCAL_CALL_ID_PREFIX } from './call-id.js';
export type { ResultOptions } from './result-text.js';

export { openaiChat, openaiChatStrict } from './openai/chat.js';
export type { OpenAIChatTool } from './openai/chat.js';
export { openaiResponses, openaiResponsesStrict } from './openai/responses.js';
export type { OpenAIResponsesTool } from './openai/responses.js';
export type { OpenAIFunctionCallOutput, OpenAIPartsMessage, OpenAIToolMessage } from './openai/results.js';
export type { OpenAIChatUserPart, OpenAIFunctionOutputItem } from './openai/parts.js';
export type { AnthropicToolResultBlock } from './anthropic/parts.js';
export type { GeminiFunctionResponseInlinePart } from './gemini/parts.js';
export type { McpContent } from './mcp/content.js';
export {
  toStrictSchema,
  strictSchemaProblems,
  describeStrictProblems,
  StrictSchemaError,
} from './openai/strict-schema.js';
export type { NullPlan, StrictProblem, StrictRewrite } from './openai/strict-schema.js';
export { restoreOmittedKeys } from './openai/strict-restore.js';

export { anthropic } from './anthropic/adapter.js';
export type { AnthropicTool, AnthropicToolResult, AnthropicToolResultMessage } from './anthropic/adapter.js';

export { gemini } from './gemini/adapter.js';
export type {
  GeminiFunctionDeclaration,
  GeminiFunctionResponseContent,
  GeminiFunctionResponsePart,
  GeminiTools,
} from './gemini/adapter.js';
export { toGeminiSchema } from './gemini/schema.js';

export { mcp } from './mcp/adapter.js';
export type { McpTool } from './mcp/adapter.js';
export { MCP_CALL_ID_META, mcpCallIdProblem } from './mcp/calls.js';
export type { McpCallToolResult } from './mcp/results.js';

export { walkSchema, rewriteSchema, MAX_INLINED_REFS } from './json-schema/walk.js';
export type { RefRefusal, SchemaRewriter, SchemaStep, SchemaVisit, SchemaWalker } from './json-schema/walk.js';
