import type { AnyPlugin, AnyTool } from '@toolshed/core';
import { checkPlugin, type CheckPluginOptions } from './check-plugin.js';
import { checkTool, type CheckToolOptions } from './check-tool.js';
import { ConformanceError } from './problem.js';

function isPlugin(target: AnyPlugin | AnyTool): target is AnyPlugin {
  return typeof target === 'object' && target !== null && 'apiVersion' in target && 'tools' in target;
}

/**
 * For a test runner: resolves when the plugin (or tool) conforms, rejects
 * with a ConformanceError listing every problem otherwise.
 * `await expectConformance(plugin, { samples: { echo: [{ text: 'hi' }] } })`
 */
export async function expectConformance(plugin: AnyPlugin, options?: CheckPluginOptions): Promise<void>;
export async function expectConformance(tool: AnyTool, options?: CheckToolOptions): Promise<void>;
export async function expectConformance(target: AnyPlugin | AnyTool, options: CheckPluginOptions | CheckToolOptions = {}): Promise<void> {
  const plugin = isPlugin(target);
  const problems = plugin ? await checkPlugin(target, options as CheckPluginOptions) : await checkTool(target, options as CheckToolOptions);
  if (problems.length > 0) {
    const subject = plugin ? `plugin ${JSON.stringify(target.name)}` : `tool ${JSON.stringify((target as AnyTool).name)}`;
    throw new ConformanceError(subject, problems);
  }
}
