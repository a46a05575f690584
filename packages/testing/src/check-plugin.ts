import { API_VERSION, type AnyPlugin, type AnyTool } from '@toolshed/core';
import * as v from 'valibot';
import { checkTool, type CheckToolOptions } from './check-tool.js';
import type { Problem } from './problem.js';

export interface CheckPluginOptions extends Omit<CheckToolOptions, 'samples'> {
  /** Valid inputs per tool name, e.g. `{ echo: [{ text: 'hi' }] }`. */
  samples?: Readonly<Record<string, readonly unknown[]>>;
  /** The plugin options to check with, as a user would put them in toolshed.config.json (default {}). */
  options?: unknown;
  /** The folder the tools factory is told it runs in (default: process.cwd()). */
  cwd?: string;
}

function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .map((issue) => {
      const path = issue.path?.map((item) => String(item.key)).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/**
 * Check a plugin the way the host will load it (apiVersion, options, tools
 * factory), then every tool it offers with checkTool. Resolves to every
 * problem found; never throws for a broken plugin.
 */
export async function checkPlugin(plugin: AnyPlugin, options: CheckPluginOptions = {}): Promise<Problem[]> {
  const problems: Problem[] = [];
  const name = typeof plugin?.name === 'string' && plugin.name !== '' ? plugin.name : undefined;
  const label = `Plugin ${name ? JSON.stringify(name) : '(unnamed)'}`;
  const add = (message: string) => problems.push({ kind: 'plugin', message: `${label}: ${message}` });
  if (typeof plugin !== 'object' || plugin === null) {
    add('is not a plugin; export definePlugin({ name, apiVersion: 1, tools }) as the default export.');
    return problems;
  }
  if (!name) add('has no name; use its package name, e.g. definePlugin({ name: "@acme/tool-weather", ... }).');
  if (plugin.apiVersion !== API_VERSION) {
    add(`declares apiVersion ${JSON.stringify(plugin.apiVersion)}, but @toolshed/core speaks ${API_VERSION}; set apiVersion: ${API_VERSION}.`);
  }

  let pluginOptions: unknown = options.options;
  if (plugin.options !== undefined) {
    // Like the host: no options given means an empty object.
    const given = options.options ?? {};
    const parsed = await v.safeParseAsync(plugin.options, given);
    if (!parsed.success) {
      add(`the options given to the check do not fit its options schema (${describeIssues(parsed.issues)}); pass options a user could write.`);
      return problems;
    }
    pluginOptions = parsed.output;
  }

  let tools: readonly AnyTool[];
  try {
    tools = typeof plugin.tools === 'function' ? await plugin.tools(pluginOptions, { cwd: options.cwd ?? process.cwd() }) : plugin.tools;
  } catch (error) {
    add(`its tools factory threw: ${error instanceof Error ? error.message : String(error)}`);
    return problems;
  }
  if (!Array.isArray(tools)) {
    add('"tools" must be an array of tools, or a function of the options that returns one.');
    return problems;
  }
  if (tools.length === 0) add('offers no tools; a plugin exists to offer at least one.');

  const seen = new Map<string, number>();
  for (const [index, tool] of tools.entries()) {
    const toolName = (tool as { name?: unknown })?.name;
    if (typeof toolName !== 'string') continue;
    const first = seen.get(toolName);
    if (first === undefined) {
      seen.set(toolName, index);
    } else {
      problems.push({
        kind: 'duplicate_name',
        tool: toolName,
        message: `${label}: tools ${first + 1} and ${index + 1} are both named "${toolName}"; a host registers one name once, so rename one.`,
      });
    }
  }
  const samples = options.samples ?? {};
  for (const key of Object.keys(samples)) {
    if (!seen.has(key)) add(`samples were given for "${key}", but it offers no tool of that name (it offers ${[...seen.keys()].join(', ') || 'none'}).`);
  }
  const { samples: _samples, options: _options, cwd: _cwd, ...toolOptions } = options;
  try {
    for (const tool of tools) {
      const toolName = (tool as { name?: unknown })?.name;
      const toolSamples = typeof toolName === 'string' && Object.hasOwn(samples, toolName) ? samples[toolName] : undefined;
      problems.push(...(await checkTool(tool, toolSamples ? { ...toolOptions, samples: toolSamples } : toolOptions)));
    }
  } finally {
    // Tools the check built may hold connections or files; release what offers a way to.
    if (typeof plugin.tools === 'function') await closeAll(tools);
  }
  return problems;
}

async function closeAll(tools: readonly AnyTool[]): Promise<void> {
  for (const tool of tools) {
    const close = (tool as { close?: unknown })?.close;
    if (typeof close === 'function') {
      try {
        await (close as () => unknown).call(tool);
      } catch {
        // A failing close says nothing about conformance.
      }
    }
  }
}
