export { CONTEXT_FORMATS, isContextFormat } from './accounting/formats.js';
export type { ContextFormat } from './accounting/formats.js';
export { measureTools } from './accounting/measure.js';
export type { ContextReport, Cost, MeasureOptions, ToolCost } from './accounting/measure.js';
export type { ToolSource } from './source.js';
