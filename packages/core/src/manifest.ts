import { apiVersionProblem } from './api-version.js';
import { isContractError } from './contract-error.js';
import { isToolName } from './name.js';
import { PluginError } from './plugin-error.js';
import { checkPermissions, type Permissions } from './permissions.js';
import { isRecord } from './record.js';
import { checkDefinition, checkTimeout, sameDefinition, type ToolDefinition } from './tool-definition.js';

/** The `"toolshed"` field of a plugin's package.json. */
export interface ManifestField {
  apiVersion: number;
  tools: string[];
  /** Path (relative to the package) of the generated file with the tools' definitions. */
  manifest?: string;
  /** What the plugin needs (files, network, environment, processes); none when left out. */
  permissions: Permissions;
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

/** Check the `"toolshed"` field, including the apiVersion, without running plugin code. */
export function checkManifestField(field: unknown): ManifestField {
  const fail = (at: string, message: string) => new PluginError({ phase: 'validate', field: at }, message);
  if (!isRecord(field)) {
    throw fail('toolshed', 'its package.json "toolshed" field must be an object like {"apiVersion": 1, "tools": ["echo"]}.');
  }
  const problem = apiVersionProblem(field.apiVersion);
  if (problem) throw fail('toolshed.apiVersion', problem);
  if (!Array.isArray(field.tools) || field.tools.some((name) => !isToolName(name))) {
    throw fail('toolshed.tools', 'its package.json "toolshed.tools" must list its tool names, e.g. ["echo"].');
  }
  if (field.manifest !== undefined && typeof field.manifest !== 'string') {
    throw fail('toolshed.manifest', 'its package.json "toolshed.manifest" must be the path of the generated manifest file.');
  }
  const permissions = checkPermissions(field.permissions);
  return {
    apiVersion: field.apiVersion as number,
    tools: field.tools as string[],
    ...(field.manifest ? { manifest: field.manifest } : {}),
    permissions,
  };
}

/** One manifest tool, by core's own definition and timeout rules; `at` is its place in the file. */
function checkManifestTool(tool: unknown, at: string): ManifestTool {
  if (!isRecord(tool) || !isRecord(tool.definition)) throw new Error(`${at} must be {"definition": {...}}`);
  const name = tool.definition.name;
  const shown = isToolName(name) ? `${at} (${name})` : at;
  try {
    const definition = checkDefinition(tool.definition as unknown as ToolDefinition);
    const timeoutMs = checkTimeout(shown, tool.timeoutMs);
    return timeoutMs === undefined ? { definition } : { definition, timeoutMs };
  } catch (error) {
    if (isContractError(error)) throw new Error(`${shown}: ${error.reason}`);
    throw error;
  }
}

/**
 * Check a generated manifest file's content against its package.json field. `shown` names the
 * file in the message (a path relative to the package). Throws a validate-phase PluginError.
 */
export function checkManifestFile(value: unknown, field: ManifestField, shown: string): ManifestFile {
  try {
    if (!isRecord(value) || !Array.isArray(value.tools)) throw new Error('it must be {"apiVersion": 1, "tools": [...]}');
    if (value.apiVersion !== field.apiVersion) {
      throw new Error(`it says apiVersion ${JSON.stringify(value.apiVersion)} but package.json says ${field.apiVersion}`);
    }
    const tools = value.tools.map((tool, index) => checkManifestTool(tool, `tools[${index}]`));
    const names = tools.map((tool) => tool.definition.name);
    if (names.join('\0') !== field.tools.join('\0')) {
      throw new Error(`it lists tools [${names.join(', ')}] but package.json "toolshed.tools" lists [${field.tools.join(', ')}]`);
    }
    return { apiVersion: field.apiVersion, tools };
  } catch (error) {
    throw new PluginError(
      { phase: 'validate', field: 'toolshed.manifest' },
      `its manifest ${shown} does not fit: ${(error as Error).message.replace(/\.$/, '')}. Rebuild the plugin.`,
    );
  }
}

/** What a plugin's code built, as the manifest check reads it. */
export interface BuiltTools {
  tools: readonly { name: string; timeoutMs?: number }[];
  definitions: readonly ToolDefinition[];
}

/**
 * Whether a plugin's code offers what its manifest says: the same tools in the same order, each
 * described the same way with the same timeout. Throws a validate-phase PluginError naming the
 * first difference; the host runs it when manifest plugin code loads.
 */
export function checkCodeAgainstManifest(manifest: readonly ManifestTool[], built: BuiltTools): void {
  const names = built.definitions.map((definition) => definition.name);
  const listed = manifest.map((tool) => tool.definition.name);
  if (names.join('\0') !== listed.join('\0')) {
    throw new PluginError(
      { phase: 'validate', field: 'toolshed.tools' },
      `its code offers tools [${names.join(', ')}] but its manifest lists [${listed.join(', ')}]; rebuild the plugin so the manifest is regenerated.`,
    );
  }
  manifest.forEach((entry, index) => {
    const tool = built.tools[index]!;
    if (!sameDefinition(entry.definition, built.definitions[index]!) || entry.timeoutMs !== tool.timeoutMs) {
      throw new PluginError(
        { phase: 'validate', tool: tool.name, field: 'toolshed.manifest' },
        `its code describes tool "${tool.name}" differently from its manifest; rebuild the plugin so the manifest is regenerated.`,
      );
    }
  });
}

/** The manifest file's content for what a plugin's code built (what toolshed-manifest writes). */
export function manifestOf(apiVersion: number, built: BuiltTools): ManifestFile {
  return {
    apiVersion,
    tools: built.definitions.map((definition, index) => {
      const timeoutMs = built.tools[index]!.timeoutMs;
      return timeoutMs === undefined ? { definition } : { definition, timeoutMs };
    }),
  };
}
