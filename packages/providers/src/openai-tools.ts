import type { JsonSchema, ToolDefinition } from '@toolshed/core';
import { definitionsOf, type ToolSource } from './source.js';
import { StrictSchemaError, toStrictSchema, type StrictProblem } from './strict-schema.js';

/** A Chat Completions function tool (`tools` in the request). */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema; strict?: boolean };
}

/** A Responses API function tool. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

export interface OpenAIToolsOptions {
  /**
   * Send every tool with `strict: true`, its schema rewritten to fit strict mode.
   * Throws a StrictSchemaError naming each tool that cannot be made strict and why.
   * Pass the same tools as `strict` when parsing the calls, to undo the rewrite.
   */
  strict?: boolean;
}

function parametersFor(definitions: ToolDefinition[], strict: boolean): JsonSchema[] {
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

/** Tools for Chat Completions: `{type: "function", function: {name, description, parameters, strict?}}`. */
export function toOpenAIChatTools(source: ToolSource, options: OpenAIToolsOptions = {}): OpenAIChatTool[] {
  const definitions = definitionsOf(source);
  const strict = options.strict === true;
  const parameters = parametersFor(definitions, strict);
  return definitions.map((definition, index) => ({
    type: 'function',
    function: {
      name: definition.name,
      description: definition.description,
      parameters: parameters[index]!,
      ...(strict ? { strict: true } : {}),
    },
  }));
}

/** Tools for the Responses API: `{type: "function", name, description, parameters, strict}`. */
export function toOpenAIResponsesTools(source: ToolSource, options: OpenAIToolsOptions = {}): OpenAIResponsesTool[] {
  const definitions = definitionsOf(source);
  const strict = options.strict === true;
  const parameters = parametersFor(definitions, strict);
  return definitions.map((definition, index) => ({
    type: 'function',
    name: definition.name,
    description: definition.description,
    parameters: parameters[index]!,
    strict,
  }));
}
