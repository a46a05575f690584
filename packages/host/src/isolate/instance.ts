import type { AnyTool, PluginInstance, ToolAnnotations, ToolDefinition } from '@toolshed/core';
import { PluginError, type ResolvedPermissions, ToolError } from '@toolshed/core/contract';
import type { McpMount, McpServerConfig } from '@toolshed/mcp/mount';
import type { ManifestTool } from '../manifest.js';
import { cacheDir, INSTALL_MCP, loadMountRuntime } from '../mcp/runtime.js';
import { OPTIONS_VARIABLE } from './child-protocol.js';
import { removePrivateFolder, requireSandbox, type Sandbox } from './sandbox.js';
import { wrapInSandbox } from './wrap.js';
const { existsSync } = process.getBuiltinModule('node:fs');
const { createRequire } = process.getBuiltinModule('node:module');
const { dirname, join } = process.getBuiltinModule('node:path');
const { fileURLToPath } = process.getBuiltinModule('node:url');

/** What running an isolated plugin needs: its package, its options and permissions (resolved), and the project. */
export interface IsolatedPlugin {
  name: string;
  dir: string;
  cwd: string;
  options: Record<string, unknown> | undefined;
  permissions: ResolvedPermissions;
  env: Readonly<Record<string, string | undefined>>;
  log?: (line: string) => void;
}

/** The folder of the package this module belongs to (src/ in tests, dist/ once built: both sit in it). */
function ownPackage(): string {
  // By its own name: a package resolves itself through its "exports".
  return dirname(createRequire(import.meta.url).resolve('@toolshed/host/package.json'));
}

/** A server name for the mount (letters, digits, _ and -), from the plugin's package name. */
function serverName(name: string): string {
  return `isolated-${name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+/, '')}`.slice(0, 64);
}

function marks(annotations: ToolAnnotations | undefined): Record<string, unknown> {
  // Every mark written out: the child's hints decide nothing, the host's manifest decides all.
  const { readOnly = false, destructive = !readOnly, idempotent = false, openWorld = true, title } = annotations ?? {};
  return { readOnly, destructive, idempotent, openWorld, ...(title !== undefined ? { title } : {}) };
}

// The child is Node under its permission model as a second belt: no child processes, workers or
// native addons unless granted; files are the sandbox's to police. Its heap is bounded.
function nodeFlags(permissions: ResolvedPermissions): string[] {
  const model = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
  return [
    model,
    '--allow-fs-read=*',
    '--allow-fs-write=*',
    ...(permissions.spawn ? ['--allow-child-process'] : []),
    '--disable-warning=ExperimentalWarning',
    '--max-old-space-size=256',
  ];
}

/** The mount entry that starts the plugin's child under the sandbox; its tools marked by the host's manifest. */
function childConfig(
  plugin: IsolatedPlugin,
  manifest: readonly ManifestTool[],
  sandbox: Sandbox,
  mcpEntry: string,
): { config: McpServerConfig; folder: string } {
  const host = ownPackage();
  // The child imports core from beside the host (a workspace link may point outside any node_modules).
  const core = dirname(createRequire(join(host, 'package.json')).resolve('@toolshed/core/package.json'));
  // The child's script is bundled beside dist/index.js; run from the sources (tests), it is in dist/.
  const beside = new URL('./isolated-child.js', import.meta.url);
  const child = existsSync(beside) ? fileURLToPath(beside) : join(host, 'dist', 'isolated-child.js');
  const wrapped = wrapInSandbox(
    serverName(plugin.name),
    process.execPath,
    [...nodeFlags(plugin.permissions), child, plugin.dir, plugin.cwd, mcpEntry],
    plugin.permissions,
    [plugin.dir, host, core, dirname(dirname(mcpEntry))],
    sandbox,
  );
  const env: Record<string, string> = { ...wrapped.env };
  for (const variable of plugin.permissions.env) {
    const value = plugin.env[variable];
    if (value !== undefined) env[variable] = value;
  }
  if (plugin.options !== undefined) env[OPTIONS_VARIABLE] = JSON.stringify(plugin.options);
  const config = {
    name: serverName(plugin.name),
    command: wrapped.command,
    args: wrapped.args,
    env,
    cwd: plugin.cwd,
    annotations: Object.fromEntries(manifest.map((tool) => [tool.definition.name, marks(tool.definition.annotations)])),
  } as McpServerConfig;
  return { config, folder: wrapped.folder };
}

/** A JSON Schema input the mount made, carrying the manifest's schema for the model to see. */
function carrying(schema: unknown, jsonSchema: object): AnyTool['input'] {
  return { ...(schema as object), [Symbol.for('toolshed.jsonSchema')]: structuredClone(jsonSchema) } as AnyTool['input'];
}

/** Whether what the child lists is what the manifest says (names and input schemas). */
function checkListing(listed: ToolDefinition[], manifest: readonly ManifestTool[]): void {
  const names = listed.map((tool) => tool.name);
  const expected = manifest.map((tool) => tool.definition.name);
  if (names.join('\0') !== expected.join('\0')) {
    throw new PluginError(
      { phase: 'validate', field: 'toolshed.tools' },
      `its isolated process offers tools [${names.join(', ')}] but its manifest lists [${expected.join(', ')}]; rebuild the plugin.`,
    );
  }
  manifest.forEach((tool, index) => {
    if (JSON.stringify(listed[index]!.inputSchema) !== JSON.stringify(tool.definition.inputSchema)) {
      throw new PluginError(
        { phase: 'validate', tool: tool.definition.name, field: 'toolshed.manifest' },
        `its isolated process describes the input of "${tool.definition.name}" differently from its manifest; rebuild the plugin.`,
      );
    }
  });
}

/**
 * An isolated plugin as a plugin instance: its tools run in a child process under the OS
 * sandbox, reached through the MCP mount (validation, progress, cancellation, call ids). A call
 * that times out or is aborted ends that process (a plugin that ignores its signal cannot go on
 * spinning); the next call starts a fresh one.
 */
export async function isolatedInstance(plugin: IsolatedPlugin, manifest: readonly ManifestTool[]): Promise<PluginInstance> {
  // Its outputs are checked against the manifest by a JSON Schema check that takes objects only.
  const loose = manifest.find(({ definition }) => definition.outputSchema && definition.outputSchema.type !== 'object');
  if (loose) {
    const { name, outputSchema } = loose.definition;
    throw new PluginError(
      { phase: 'validate', tool: name, field: 'output' },
      `its tool "${name}" returns ${JSON.stringify(outputSchema!.type ?? 'untyped')} output, and an isolated plugin's tools must return objects; wrap it, e.g. v.object({ value: ... }), or run the plugin with "isolate": false.`,
    );
  }
  const sandbox = await requireSandbox(plugin.cwd);
  const runtime = await loadMountRuntime(plugin.cwd);
  if (!runtime) throw new PluginError({ phase: 'resolve' }, `it is to run isolated, which needs @toolshed/mcp: ${INSTALL_MCP}.`);
  const mcpEntry = createRequire(join(plugin.cwd, 'package.json')).resolve('@toolshed/mcp', {
    paths: [plugin.cwd, dirname(fileURLToPath(import.meta.url))],
  });
  type Running = { mount: McpMount; folder: string; ready: Promise<void>; stopped?: Promise<void> };
  // The process new calls go to, and every process not yet ended (one let go is still ending).
  let current: Running | undefined;
  const running = new Set<Running>();
  let closed = false;
  const start = (): Running => {
    // Once closed, nothing is started again: no one would end it.
    if (closed)
      throw new ToolError('execution_failed', `plugin "${plugin.name}" is closed (the host is shutting down); its tools cannot run.`);
    const { config, folder } = childConfig(plugin, manifest, sandbox, mcpEntry);
    const mount = runtime.mountServer(config, {
      cwd: plugin.cwd,
      cacheDir: cacheDir(plugin.cwd),
      // Every option and variable it was handed is kept out of what leaves the mount, and out of the cache key.
      fromEnv: { env: Object.fromEntries(Object.keys((config as { env?: object }).env ?? {}).map((key) => [key, key])) },
      secrets: plugin.permissions.env.flatMap((name) => plugin.env[name] ?? []),
      ...(plugin.log ? { log: plugin.log } : {}),
    });
    const ready = mount.refresh().then((listed) => checkListing(listed, manifest));
    current = { mount, folder, ready };
    running.add(current);
    return current;
  };
  const stop = async (which: Running) => {
    if (current === which) current = undefined;
    which.stopped ??= which.mount.close().finally(() => {
      removePrivateFolder(which.folder);
      running.delete(which);
    });
    await which.stopped;
  };
  const first = start();
  try {
    await first.ready;
  } catch (error) {
    await stop(first);
    throw error;
  }
  const tools: AnyTool[] = manifest.map((entry, index) => {
    // The child's output schema is not taken: a hostile child could list one that accepts anything.
    const { output: _listed, ...base } = first.mount.tool(entry.definition.name);
    const { definition } = entry;
    // What the model sees and approval reads is the host's manifest, never the child's listing
    // (whose input schema was checked equal to it); the mount's input check stays. Outputs are
    // checked against the manifest's schema, read before any of the plugin's code ran.
    return {
      ...base,
      description: definition.description,
      input: carrying(base.input, definition.inputSchema),
      ...(definition.outputSchema ? { output: runtime.jsonSchemaOutput(definition.outputSchema, `the manifest of "${plugin.name}"`) } : {}),
      ...(definition.annotations ? { annotations: { ...definition.annotations } } : { annotations: undefined }),
      ...(entry.timeoutMs !== undefined ? { timeoutMs: entry.timeoutMs } : {}),
      run: async (input, ctx) => {
        const child = current ?? start();
        try {
          await child.ready;
        } catch (error) {
          // A child that did not start is not kept: the next call starts a fresh one.
          await stop(child);
          throw error;
        }
        // Given up on while its child started (a restart can outlast a short timeout): nothing of
        // this call ran, so the child is kept for the next call rather than started yet again.
        ctx.signal.throwIfAborted();
        // Stopped while in the child, the call ends its child (the plugin may go on spinning). It is
        // let go at once, so a call made right after the timeout starts a fresh one instead of joining it.
        const letGo = () => {
          if (current === child) current = undefined;
        };
        ctx.signal.addEventListener('abort', letGo, { once: true });
        try {
          return await child.mount.tool(manifest[index]!.definition.name).run(input, ctx);
        } finally {
          ctx.signal.removeEventListener('abort', letGo);
          if (ctx.signal.aborted) await stop(child);
        }
      },
    } as AnyTool;
  });
  return {
    plugin: { name: plugin.name, apiVersion: 1, tools },
    tools,
    definitions: manifest.map((entry) => entry.definition),
    // Every process, the current one and any still ending, is ended before close resolves.
    close: async () => {
      closed = true;
      await Promise.all([...running].map(stop));
    },
  };
}
