import { isRecord, isToolName, PluginError, TOOL_NAME_RULE } from '@toolshed/core/contract';
import { pluginLabel } from '../errors.js';
import { fail, type PluginRecord } from './record.js';
import type { PlanEntry } from './entry.js';
import { isLive, type LiveState, type PlannedTool, type PluginState } from './state.js';

/** A rename map's own entry: a tool named "__proto__" or "constructor" would otherwise get Object's. */
function own(map: Record<string, string>, name: string): string | undefined {
  return Object.hasOwn(map, name) ? map[name] : undefined;
}

/** A record's tools under the names the model sees, after its own and the config-wide renames. */
function renamedTools(record: PluginRecord & { state: LiveState }, globalRename: Record<string, string>, usedGlobal: Set<string>) {
  const { state, entry } = record;
  const originals = new Set(state.tools.map((tool) => tool.original));
  const unknown = Object.keys(entry.rename).filter((name) => !originals.has(name));
  if (unknown.length > 0) {
    throw new PluginError(
      { phase: 'register', field: 'rename' },
      `rename names ${unknown.join(', ')}, which it does not offer; its tools are ${[...originals].join(', ')}.`,
    );
  }
  return state.tools.map((tool) => {
    const fromGlobal = own(globalRename, tool.original);
    if (fromGlobal !== undefined) usedGlobal.add(tool.original);
    const name = own(entry.rename, tool.original) ?? fromGlobal ?? tool.original;
    if (!isToolName(name)) {
      throw new PluginError(
        { phase: 'register', tool: tool.original, field: 'rename' },
        `cannot rename ${tool.original} to ${JSON.stringify(name)}: a tool name is ${TOOL_NAME_RULE}.`,
      );
    }
    return { ...tool, definition: { ...tool.definition, name } };
  });
}

/** The name a server gives a tool the mount named `mounted`: the key of the entry's `rename` that made it, or itself. */
function serverToolName(entry: PlanEntry, mounted: string): string {
  const rename = isRecord(entry.spec) && isRecord(entry.spec.rename) ? entry.spec.rename : {};
  return Object.keys(rename).find((key) => rename[key] === mounted) ?? mounted;
}

/**
 * A server's tool whose name is taken, in words that say both origins and the two ways out.
 * Printed by every command until one is taken: it is the only sign that the server's tool is missing.
 */
function leftOutWarning(record: PluginRecord, name: string, original: string, owner: PluginRecord): string {
  const server = serverToolName(record.entry, original);
  const suggested = isToolName(`${record.entry.label}_${server}`) ? `${record.entry.label}_${server}` : '<new name>';
  const taken = owner === record ? 'another tool of the same server' : pluginLabel(owner.about);
  return (
    `${pluginLabel(record.about)}: its tool "${server}" is left out: the name "${name}" is taken by ${taken}. ` +
    `To keep both, rename it in the server's mcpServers entry ("rename": {"${server}": "${suggested}"}); ` +
    `to go without it and this warning, "exclude": ["${server}"].`
  );
}

/**
 * Leave out each of a server's tools whose name is taken (in `taken`, which then holds the rest),
 * with a warning naming both origins. The manifest and the tools stay index for index: the mount's
 * instance is built from the manifest.
 */
export function leaveOutTaken(
  record: PluginRecord,
  state: Extract<PluginState, { status: 'planned' }>,
  tools: PlannedTool[],
  taken: Map<string, PluginRecord>,
  warn: (line: string) => void,
): void {
  const keep = tools.map((tool) => {
    const owner = taken.get(tool.definition.name);
    if (owner) warn(leftOutWarning(record, tool.definition.name, tool.original, owner));
    else taken.set(tool.definition.name, record);
    return owner === undefined;
  });
  state.manifest = state.manifest.filter((_, index) => keep[index]);
  state.tools = tools.filter((_, index) => keep[index]);
}

/**
 * Apply per-plugin and global renames, and settle a tool name offered twice. Plugins first: the
 * later of two plugins fails, naming both. Then MCP servers, whose tools are the strangers': a
 * server tool whose name is taken (by a plugin or an earlier server) is left out alone, with a
 * warning naming both origins, and the rest of the server loads.
 */
export function applyRenames(records: PluginRecord[], globalRename: Record<string, string>, warnings: string[]): void {
  const taken = new Map<string, PluginRecord>();
  const usedGlobal = new Set<string>();
  const servers = (record: PluginRecord) => record.entry.named === 'mcp';
  for (const record of [...records.filter((record) => !servers(record)), ...records.filter(servers)]) {
    const { state, entry } = record;
    if (!isLive(state)) continue;
    try {
      const renamed = renamedTools(record as PluginRecord & { state: LiveState }, globalRename, usedGlobal);
      if (servers(record) && state.status === 'planned') {
        leaveOutTaken(record, state, renamed, taken, (line) => warnings.push(line));
        continue;
      }
      for (const tool of renamed) {
        const owner = taken.get(tool.definition.name);
        if (owner) {
          throw new PluginError(
            { phase: 'register', tool: tool.original },
            `tool "${tool.definition.name}" is offered by both ${pluginLabel(owner.about)} and ${pluginLabel(record.about)}. ` +
              `Rename one in toolshed.config.json, e.g. {"plugin": "${entry.label}", "rename": {"${tool.original}": "<new name>"}}.`,
          );
        }
      }
      for (const tool of renamed) taken.set(tool.definition.name, record);
      state.tools = renamed;
    } catch (error) {
      fail(record, error);
    }
  }
  for (const name of Object.keys(globalRename)) {
    if (!usedGlobal.has(name)) warnings.push(`rename: no loaded plugin offers a tool named "${name}"; the rename does nothing.`);
  }
}
