import type { JsonSchema } from '@toolshed/core';
import type { Adapter } from '../adapter.js';
import { definitionsOf, type ToolSource } from '../source.js';
import { parseResponsesCalls } from './calls.js';
import { functionCallOutputs, type OpenAIFunctionCallOutput } from './results.js';
import { unstrict } from './strict-calls.js';
import { parametersFor } from './strict-tools.js';

/** A Responses API function tool. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: boolean;
}

function responsesTools(source: ToolSource, strict: boolean): OpenAIResponsesTool[] {
  const definitions = definitionsOf(source);
  const parameters = parametersFor(definitions, strict);
  // `strict` is always said: the Responses API takes a tool without it as strict.
  return definitions.map((definition, index) => ({
    type: 'function',
    name: definition.name,
    description: definition.description,
    parameters: parameters[index]!,
    strict,
  }));
}

/**
 * The OpenAI Responses API. Tools: `{type: "function", name, description,
 * parameters, strict: false}`. Calls: the `function_call` items of the
 * response's `output` (pass the response or the array). Results: one
 * `function_call_output` item per outcome, for the next request's `input`.
 */
export const openaiResponses: Adapter<OpenAIResponsesTool[], OpenAIFunctionCallOutput[], 'openai-responses'> = {
  format: 'openai-responses',
  tools: (source) => responsesTools(source, false),
  parseCalls: (reply) => parseResponsesCalls(reply),
  results: functionCallOutputs,
};

/** The Responses API with `strict: true`, as `openaiChatStrict` is for Chat Completions. */
export const openaiResponsesStrict: Adapter<OpenAIResponsesTool[], OpenAIFunctionCallOutput[], 'openai-responses-strict'> = {
  format: 'openai-responses-strict',
  tools: (source) => responsesTools(source, true),
  parseCalls: (reply, options) => unstrict('openaiResponsesStrict', parseResponsesCalls(reply), options),
  results: functionCallOutputs,
};
