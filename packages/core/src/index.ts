export { defineTool } from './tool.js';
export type { AnySchema, AnyTool, Progress, Tool, ToolAnnotations, ToolContext, ToolLogger, ToolResult, ToolReturn } from './tool.js';
export { checkParts, DEFAULT_MAX_PART_BYTES, DEFAULT_MAX_PARTS } from './check-parts.js';
export type { CheckedParts, PartLimits } from './check-parts.js';
export { matchesMagic } from './magic-bytes.js';
export { definePlugin } from './plugin.js';
export type { AnyPlugin, Plugin, PluginHostInfo, PluginTools } from './plugin.js';
export { instantiatePlugin, pluginOptions } from './instantiate.js';
export type { InstantiateOptions, PluginInstance } from './instantiate.js';
export * from './contract.js';
export { isToolRegistry, ToolRegistry } from './registry.js';
export type {
  DeferredTool,
  DispatchOptions,
  RegisteredTool,
  RegisterOptions,
  RegistryOptions,
} from './registry.js';
export { checkExposure, DEFAULT_EXPOSURE_CONTEXT_WINDOW, DEFAULT_EXPOSURE_SHARE } from './exposure.js';
export type { CheckedExposure, Exposure } from './exposure.js';
export { describeTool } from './definition.js';
export type { JsonSchema } from './json-schema-input.js';
export { ERROR_CODES } from './outcome.js';
export type { CallError, ErrorCode, FailureOutcome, Outcome, SuccessOutcome, ToolCall } from './outcome.js';
export { classifyIssue } from './issues.js';
export type { CallIssue, IssueProblem } from './issues.js';
export type { ToolEvent, ToolEventListener } from './events.js';
export type {
  EnvReference,
  HttpServerConfig,
  McpServerConfig,
  McpServerEntry,
  McpServerState,
  StdioServerConfig,
  ToolMarks,
} from './mcp-server.js';
export type { ToolErrorCode } from './tool-error.js';
export { approvalPolicy, approvalRisk, needsApproval } from './approval-policy.js';
export type { Approval, ApprovalSetting, ApproveHook } from './approval-policy.js';
