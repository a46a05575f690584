import type { SuccessOutcome } from '@toolshed/core';
import { capText, emptyResultText, outputText, unwritableOutputMessage } from '../result-text.js';

/**
 * The text block that leads a result with parts: the output's text, none when the tool gave
 * only parts (the parts are its answer), or the unwritable-output message.
 */
export function leadingText(outcome: SuccessOutcome, maxChars: number): string | undefined {
  let text: string;
  try {
    text = outputText(outcome.output);
  } catch (error) {
    return capText(`Error (invalid_output): ${unwritableOutputMessage(outcome.name, error)}`, maxChars);
  }
  if (text !== '') return capText(text, maxChars);
  return (outcome.parts ?? []).length === 0 ? emptyResultText(outcome.name) : undefined;
}
