export { checkDeclaredPermissions } from './check-declared-permissions.js';
export type { CheckDeclaredPermissionsOptions } from './check-declared-permissions.js';
export { checkPlugin } from './check-plugin.js';
export type { CheckPluginOptions } from './check-plugin.js';
export { checkTool, DEFAULT_ABORT_BOUND_MS, DEFAULT_INVALID_RUNS, MIN_DESCRIPTION_LENGTH } from './check-tool.js';
export type { CheckToolOptions } from './check-tool.js';
export { expectConformance } from './expect-conformance.js';
export { ConformanceError, formatProblems } from './problem.js';
export type { Problem, ProblemKind } from './problem.js';
