export { CONTEXT_FORMATS, isContextFormat } from './accounting/formats.js';
export type { ContextFormat } from './accounting/formats.js';
export { measureTools } from './accounting/measure.js';
export type { ContextReport, Cost, MeasureOptions, ToolCost } from './accounting/measure.js';
export { measureResult } from './accounting/result-cost.js';
export type { PartCost, ResultCost } from './accounting/result-cost.js';
export { measureUpFront } from './accounting/up-front.js';
export type { UpFrontReport } from './accounting/up-front.js';
export type { ToolSource } from './source.js';

export { createToolIndex, DEFAULT_SEARCH_LIMIT } from './search/tool-index.js';
export type { SearchableTool, SearchHit, SearchOptions, ToolIndex } from './search/tool-index.js';
export { TOOL_SEARCH_NAME } from './search/search-tool.js';
export type { FoundTool, SearchToolOutput } from './search/search-tool.js';
export { createToolSearch } from './search/session.js';
export type { ExposureDecision, ToolSearch, ToolSearchOptions } from './search/session.js';
export { toAnthropicToolsWithSearch } from './search/anthropic.js';
export type { AnthropicDeferrableTool, AnthropicSearchVariant, AnthropicToolSearchTool } from './search/anthropic.js';
