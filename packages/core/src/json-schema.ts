import { toJsonSchema } from '@valibot/to-json-schema';
import { carriedJsonSchema, type JsonSchema } from './json-schema-input.js';
import { ContractError } from './contract-error.js';
import type { AnySchema } from './tool.js';

/**
 * Convert a tool's schema to the JSON Schema a model sees. Throws (with the
 * tool's name and the converter's reason) when the schema has no JSON form,
 * so a tool that could never be described is refused at registration.
 */
export function toolJsonSchema(schema: AnySchema, mode: 'input' | 'output', toolName: string): JsonSchema {
  // A schema made by jsonSchemaInput (an MCP server's tool) is its own description.
  const carried = carriedJsonSchema(schema);
  if (carried) return carried;
  let converted: JsonSchema | undefined;
  // Runtime-only actions (check, custom transforms) have no JSON form, but
  // the schema without them is still a true description: dispatch enforces
  // them anyway. Only schemas without a JSON form (date, map, function...) are refused.
  const ignoreActions: string[] = [];
  while (converted === undefined) {
    try {
      // typeMode: a model sends the schema's input type (before transforms)
      // and reads the output type (after them).
      converted = toJsonSchema(schema as Parameters<typeof toJsonSchema>[0], { typeMode: mode, ignoreActions }) as JsonSchema;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const action = /^The "(\w+)" action cannot be converted/.exec(reason)?.[1];
      if (action && !ignoreActions.includes(action)) {
        ignoreActions.push(action);
        continue;
      }
      throw new ContractError({
        tool: toolName,
        field: mode,
        reason: `its ${mode} schema cannot be converted to JSON Schema: ${reason} Use schemas with a JSON form, or move the check into the handler.`,
      });
    }
  }
  // The draft marker means nothing to model APIs and some reject unknown keys.
  const { $schema: _draft, ...rest } = converted;
  if (mode === 'input' && rest.type !== 'object') {
    throw new ContractError({
      tool: toolName,
      field: 'input',
      reason:
        `its input schema must describe an object (got ${JSON.stringify(rest.type ?? 'no type')}); ` +
        `model APIs only send named arguments. Wrap it, e.g. v.object({ value: ... }).`,
    });
  }
  return rest;
}
