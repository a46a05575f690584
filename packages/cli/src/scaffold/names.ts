import { isToolName, TOOL_NAME_RULE } from '@toolshed/core/contract';
import { UsageError } from '../usage-error.js';

// npm's rules for new package names: lower case, URL-safe, at most 214 characters, an optional @scope/.
const PACKAGE_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

export function checkPackageName(name: string): string {
  if (name.length > 214 || !PACKAGE_NAME.test(name)) {
    throw new UsageError(
      `"${name}" is not a valid npm package name: use lower-case letters, digits, "-", "." or "_", optionally scoped, e.g. "@acme/tool-weather" or "toolshed-plugin-weather".`,
    );
  }
  return name;
}

/** The tool a new plugin starts with: its package name without scope and the usual prefixes. */
export function toolNameFor(packageName: string): string {
  const base = packageName
    .replace(/^@[^/]+\//, '')
    .replace(/^(toolshed-plugin-|toolshed-tool-|toolshed-|tool-|plugin-)/, '')
    .replace(/[^a-zA-Z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (base === '') return 'my_tool';
  // A tool name starts with a letter or "_" (Gemini's rule): tool-2fa gets tool_2fa.
  return (/^[0-9]/.test(base) ? `tool_${base}` : base).slice(0, 64);
}

export function checkToolName(name: string): string {
  if (!isToolName(name)) {
    throw new UsageError(`"${name}" is not a valid tool name: use ${TOOL_NAME_RULE}, e.g. get_weather.`);
  }
  return name;
}
