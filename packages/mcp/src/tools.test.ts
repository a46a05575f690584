import type { ToolDefinition } from '@toolshed/core';
import { describe, expect, it } from 'vitest';
import { errorResult, successResult, toMcpTool } from './tools.js';

const base: ToolDefinition = {
  name: 'lookup',
  description: 'Look a thing up.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
};

describe('toMcpTool', () => {
  it('passes the input schema through unchanged and adds nothing that was not given', () => {
    const { tool, wrapsOutput } = toMcpTool(base);
    expect(tool).toEqual(base);
    expect(wrapsOutput).toBe(false);
  });

  it('maps every annotation to its MCP hint and the title to the tool title', () => {
    const { tool } = toMcpTool({
      ...base,
      annotations: { title: 'Lookup', readOnly: false, destructive: true, idempotent: false, openWorld: true },
    });
    expect(tool.title).toBe('Lookup');
    expect(tool.annotations).toEqual({
      title: 'Lookup',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('leaves out annotations when the tool has none that MCP knows', () => {
    expect(toMcpTool({ ...base, annotations: {} }).tool.annotations).toBeUndefined();
  });

  it('keeps an object output schema as it is', () => {
    const outputSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
    const entry = toMcpTool({ ...base, outputSchema });
    expect(entry.tool.outputSchema).toEqual(outputSchema);
    expect(entry.wrapsOutput).toBe(false);
  });

  it('wraps any other output schema under `result`, keeping $defs at the root', () => {
    const outputSchema = { type: 'array', items: { $ref: '#/$defs/Item' }, $defs: { Item: { type: 'string' } } };
    const entry = toMcpTool({ ...base, outputSchema });
    expect(entry.wrapsOutput).toBe(true);
    expect(entry.tool.outputSchema).toEqual({
      type: 'object',
      properties: { result: { type: 'array', items: { $ref: '#/$defs/Item' } } },
      required: ['result'],
      $defs: { Item: { type: 'string' } },
    });
  });

  it('wraps a union of objects too: MCP needs `type: "object"` at the top', () => {
    const outputSchema = { anyOf: [{ type: 'object' }, { type: 'object', properties: { a: { type: 'number' } } }] };
    expect(toMcpTool({ ...base, outputSchema }).wrapsOutput).toBe(true);
  });
});

describe('successResult', () => {
  const plain = toMcpTool(base);
  const wrapped = toMcpTool({ ...base, outputSchema: { type: 'number' } });

  it('gives an object output as JSON text and as structuredContent', () => {
    expect(successResult('lookup', { a: 1 }, plain)).toEqual({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
  });

  it('gives an array output as JSON text only when no output schema asks for structure', () => {
    expect(successResult('lookup', [1, 2], plain)).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
  });

  it('gives a string output as the string itself', () => {
    expect(successResult('lookup', 'hello', plain)).toEqual({ content: [{ type: 'text', text: 'hello' }] });
  });

  it('wraps the output of a tool whose output schema is not an object', () => {
    expect(successResult('lookup', 7, wrapped)).toEqual({ content: [{ type: 'text', text: '7' }], structuredContent: { result: 7 } });
  });

  it('gives no content for a tool that returns nothing', () => {
    expect(successResult('lookup', undefined, plain)).toEqual({ content: [] });
  });

  it('turns output that JSON cannot carry into an error naming the tool', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const result = successResult('lookup', cyclic, plain);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^lookup returned output that cannot be sent as JSON \(.*circular.*\)\. This is a fault in the tool, not in your call\.$/i) },
    ]);
    expect(result.structuredContent).toBeUndefined();
  });
});

describe('errorResult', () => {
  it('carries the message as text with isError', () => {
    expect(errorResult('nope')).toEqual({ content: [{ type: 'text', text: 'nope' }], isError: true });
  });
});
