// The keyword-stuffed tool of the bench (bench/stuffed-tool.js: a broad software vocabulary repeated
// in its description and in 50 parameters, written without reading any task), and the reference
// servers' published tools with the requests written for them before any ranking was run: one
// definition of each, shared by the bench and the tests.
import { REFERENCE_TASKS } from '../../bench/reference-tasks.js';
import { REFERENCE_TOOLS } from '../../bench/reference-tools.js';
import { STUFFED_TOOL } from '../../bench/stuffed-tool.js';
import type { SearchableTool } from './tool-index.js';

export const stuffedTool: SearchableTool = STUFFED_TOOL;
export const referenceTools: readonly SearchableTool[] = REFERENCE_TOOLS;
/** Ordinary requests, each written for one of the reference tools. */
export const referenceQueries: readonly string[] = REFERENCE_TASKS.map(([query]) => query);
