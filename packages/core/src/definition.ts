import { ContractError } from './contract-error.js';
import { toolJsonSchema } from './json-schema.js';
import { assertToolName } from './name.js';
import { isSchema } from './record.js';
import { checkTimeout, normalizeAnnotations, type ToolDefinition } from './tool-definition.js';
import type { AnyTool } from './tool.js';

/**
 * Check a tool's shape and compute what a model sees of it. Everything that
 * can be wrong with a tool is found here, at registration, with the tool's name.
 */
export function describeTool(tool: AnyTool, origin?: string): ToolDefinition {
  if (typeof tool !== 'object' || tool === null) {
    throw new ContractError({
      reason: `Cannot register ${String(tool)}${origin ? ` from ${origin}` : ''}: a tool is an object made by defineTool().`,
    });
  }
  assertToolName(tool.name, origin);
  const { name } = tool;
  if (typeof tool.description !== 'string' || tool.description.trim() === '') {
    throw new ContractError({
      tool: name,
      field: 'description',
      reason: '"description" must be a non-empty string; it is what the model reads.',
    });
  }
  if (!isSchema(tool.input)) {
    throw new ContractError({ tool: name, field: 'input', reason: '"input" must be a valibot schema such as v.object({...}).' });
  }
  if (tool.output !== undefined && !isSchema(tool.output)) {
    throw new ContractError({ tool: name, field: 'output', reason: '"output" must be a valibot schema when given.' });
  }
  if (typeof tool.run !== 'function') {
    throw new ContractError({ tool: name, field: 'run', reason: '"run" must be a function (input, ctx) => output.' });
  }
  if (tool.close !== undefined && typeof tool.close !== 'function') {
    throw new ContractError({
      tool: name,
      field: 'close',
      reason: '"close" must be a function () => void when given; the host calls it on shutdown.',
    });
  }
  checkTimeout(`Tool "${name}"`, tool.timeoutMs);
  const definition: ToolDefinition = {
    name,
    description: tool.description,
    inputSchema: toolJsonSchema(tool.input, 'input', name),
  };
  if (tool.output !== undefined) definition.outputSchema = toolJsonSchema(tool.output, 'output', name);
  const annotations = normalizeAnnotations(name, tool.annotations);
  if (annotations) definition.annotations = annotations;
  return definition;
}
