import type { JsonSchema, ToolDefinition } from '@toolshed/core';
import { StrictSchemaError, toStrictSchema, type StrictProblem } from './strict-schema.js';

/**
 * Each tool's parameters: as they are, or rewritten for strict mode. Throws a
 * StrictSchemaError naming every tool that cannot be made strict and why.
 */
export function parametersFor(definitions: readonly ToolDefinition[], strict: boolean): JsonSchema[] {
  if (!strict) return definitions.map((definition) => definition.inputSchema);
  const failed: { name: string; problems: StrictProblem[] }[] = [];
  const schemas = definitions.map((definition) => {
    const result = toStrictSchema(definition.inputSchema);
    if (result.ok) return result.schema;
    failed.push({ name: definition.name, problems: result.problems });
    return {};
  });
  if (failed.length > 0) throw new StrictSchemaError(failed);
  return schemas;
}
