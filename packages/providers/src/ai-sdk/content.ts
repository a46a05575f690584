import type { SuccessOutcome } from '@toolshed/core';
import type { JSONValue, ToolResultPart } from 'ai';
import { leadingText } from '../parts/output-text.js';
import { fileNameOf, type PartRules, planParts } from '../parts/plan.js';
import { capText } from '../result-text.js';

/**
 * The key that marks a tool result carrying parts. `execute`'s result is stored in the SDK's
 * messages as JSON and read back by `toModelOutput` (maybe after a round trip through storage),
 * so the mark is a plain key, not a symbol or a class.
 */
const CONTENT = 'toolshed:content';

/** What `toModelOutput` returns (the SDK does not export its name). */
type ToolResultOutput = ToolResultPart['output'];
type ContentValue = Extract<ToolResultOutput, { type: 'content' }>['value'];

/** What `execute` returns for a success with parts: the content, ready for `toModelOutput`. */
export interface MarkedContent {
  [CONTENT]: ContentValue;
}

/** The AI SDK forwards to any provider; its providers refuse what their API cannot take. */
const rules = (maxPartBytes: number): PartRules => ({ api: 'the AI SDK', maxPartBytes, refuses: () => undefined });

/** A success with parts as the SDK's `content` output: its text, each part as file data, notes for the rest. */
export function markedContent(outcome: SuccessOutcome, maxChars: number, maxPartBytes: number): MarkedContent {
  const text = leadingText(outcome, maxChars);
  const value: ContentValue = text === undefined ? [] : [{ type: 'text', text }];
  planParts(outcome, rules(maxPartBytes)).forEach((planned, index) => {
    if (planned.kind === 'text') value.push({ type: 'text', text: capText(planned.text, maxChars) });
    // `file-data` rather than 7's tagged `file`: AI SDK 6 takes it too.
    else
      value.push({
        type: 'file-data',
        data: planned.part.data,
        mediaType: planned.mime,
        filename: fileNameOf(planned.part, `part-${index}`),
      });
  });
  return { [CONTENT]: value };
}

/** `toModelOutput` for every tool: content for a marked result, else what the SDK sends by default (text for a string, JSON otherwise). */
export function modelOutput(output: MarkedContent | JSONValue | undefined): ToolResultOutput {
  if (isMarked(output)) return { type: 'content', value: output[CONTENT] };
  if (typeof output === 'string') return { type: 'text', value: output };
  return { type: 'json', value: output ?? null };
}

function isMarked(output: MarkedContent | JSONValue | undefined): output is MarkedContent {
  return typeof output === 'object' && output !== null && CONTENT in output && Array.isArray(Reflect.get(output, CONTENT));
}
