import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolDefinition } from '@toolshed/core';
// The light entry: the name rule without the rest of core (listing imports no core).
import { isToolName } from '@toolshed/core/name';
import { apiVersionProblem } from './compat.js';
import { PhaseError } from './errors.js';

/** The `"toolshed"` field of a plugin's package.json. */
export interface ManifestField {
  apiVersion: number;
  tools: string[];
  /** Path (relative to the package) of the generated file with the tools' definitions. */
  manifest?: string;
}

/** One tool in the generated manifest file. */
export interface ManifestTool {
  definition: ToolDefinition;
  timeoutMs?: number;
}

/** The generated manifest file. */
export interface ManifestFile {
  apiVersion: number;
  tools: ManifestTool[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Check the `"toolshed"` field, including the apiVersion, without running plugin code. */
export function readManifestField(field: unknown): ManifestField {
  if (!isRecord(field)) {
    throw new PhaseError('validate', 'its package.json "toolshed" field must be an object like {"apiVersion": 1, "tools": ["echo"]}.');
  }
  const problem = apiVersionProblem(field.apiVersion);
  if (problem) throw new PhaseError('validate', problem);
  if (!Array.isArray(field.tools) || field.tools.some((name) => !isToolName(name))) {
    throw new PhaseError('validate', 'its package.json "toolshed.tools" must list its tool names, e.g. ["echo"].');
  }
  if (field.manifest !== undefined && typeof field.manifest !== 'string') {
    throw new PhaseError('validate', 'its package.json "toolshed.manifest" must be the path of the generated manifest file.');
  }
  return { apiVersion: field.apiVersion as number, tools: field.tools as string[], ...(field.manifest ? { manifest: field.manifest } : {}) };
}

function checkTool(tool: unknown, index: number): ManifestTool {
  const at = `tools[${index}]`;
  if (!isRecord(tool) || !isRecord(tool.definition)) throw new Error(`${at} must be {"definition": {...}}`);
  const { definition } = tool;
  if (!isToolName(definition.name)) throw new Error(`${at}.definition.name is not a valid tool name`);
  if (typeof definition.description !== 'string' || definition.description.trim() === '') {
    throw new Error(`${at} (${definition.name}) has no description`);
  }
  if (!isRecord(definition.inputSchema) || definition.inputSchema.type !== 'object') {
    throw new Error(`${at} (${definition.name}) needs an inputSchema of type "object"`);
  }
  if (tool.timeoutMs !== undefined && !(typeof tool.timeoutMs === 'number' && tool.timeoutMs > 0 && Number.isFinite(tool.timeoutMs))) {
    throw new Error(`${at} (${definition.name}) has a timeoutMs that is not a positive number`);
  }
  return tool as unknown as ManifestTool;
}

/** Read the generated manifest file and check it agrees with the package.json field. */
export function readManifestFile(packageDir: string, field: ManifestField & { manifest: string }): ManifestFile {
  const file = path.resolve(packageDir, field.manifest);
  const shown = path.relative(packageDir, file);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'it is missing' : (error as Error).message;
    throw new PhaseError('validate', `cannot read its manifest ${shown}: ${reason}. Rebuild the plugin (its build runs toolshed-manifest).`);
  }
  try {
    if (!isRecord(value) || !Array.isArray(value.tools)) throw new Error('it must be {"apiVersion": 1, "tools": [...]}');
    if (value.apiVersion !== field.apiVersion) {
      throw new Error(`it says apiVersion ${JSON.stringify(value.apiVersion)} but package.json says ${field.apiVersion}`);
    }
    const tools = value.tools.map(checkTool);
    const names = tools.map((tool) => tool.definition.name);
    if (names.join('\0') !== field.tools.join('\0')) {
      throw new Error(`it lists tools [${names.join(', ')}] but package.json "toolshed.tools" lists [${field.tools.join(', ')}]`);
    }
    return { apiVersion: field.apiVersion, tools };
  } catch (error) {
    throw new PhaseError('validate', `its manifest ${shown} does not fit: ${(error as Error).message}. Rebuild the plugin.`);
  }
}
