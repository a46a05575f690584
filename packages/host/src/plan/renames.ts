import { isToolName, PluginError, TOOL_NAME_RULE } from '@toolshed/core/contract';
import { pluginLabel } from '../errors.js';
import { fail, type PluginRecord } from './record.js';
import { isLive } from './state.js';

/** A rename map's own entry: a tool named "__proto__" or "constructor" would otherwise get Object's. */
function own(map: Record<string, string>, name: string): string | undefined {
  return Object.hasOwn(map, name) ? map[name] : undefined;
}

/** Apply per-plugin and global renames, and refuse a tool name two plugins offer. */
export function applyRenames(records: PluginRecord[], globalRename: Record<string, string>, warnings: string[]): void {
  const taken = new Map<string, PluginRecord>();
  const usedGlobal = new Set<string>();
  for (const record of records) {
    const { state, entry } = record;
    if (!isLive(state)) continue;
    try {
      const originals = new Set(state.tools.map((tool) => tool.original));
      const unknown = Object.keys(entry.rename).filter((name) => !originals.has(name));
      if (unknown.length > 0) {
        throw new PluginError(
          { phase: 'register', field: 'rename' },
          `rename names ${unknown.join(', ')}, which it does not offer; its tools are ${[...originals].join(', ')}.`,
        );
      }
      const renamed = state.tools.map((tool) => {
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
      for (const tool of renamed) {
        const owner = taken.get(tool.definition.name);
        if (owner) {
          throw new PluginError(
            { phase: 'register', tool: tool.original },
            `tool "${tool.definition.name}" is offered by both ${pluginLabel(owner.about)} and ${pluginLabel(record.about)}. ` +
              `Rename one in toolshed.config.json, e.g. ${entry.named === 'mcp' ? `the mcpServers entry {"name": "${entry.label}", ...,` : `{"plugin": "${entry.label}",`} "rename": {"${tool.original}": "<new name>"}}.`,
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
