import { brand, hasBrand } from './brand.js';
import type { ContentPart, PartType } from './content-part.js';

const WITH_PARTS = Symbol.for('toolshed.withParts');

/** What a handler returns to give content parts along with its output. */
export interface WithParts<TOutput = unknown, TType extends PartType = PartType> {
  readonly output: TOutput;
  readonly parts: readonly (ContentPart & { type: TType })[];
}

class PartsResult {
  constructor(
    readonly output: unknown,
    readonly parts: readonly ContentPart[],
  ) {}
}
brand(PartsResult.prototype, WITH_PARTS);

/**
 * A handler's result with content parts: `return withParts({path}, [{type: 'image', mimeType:
 * 'image/png', data}])`. The registry checks the output against the tool's output schema and
 * each part against the tool's declared `parts`, the caps and its own bytes.
 */
export function withParts<TOutput, TType extends PartType>(
  output: TOutput,
  parts: readonly (ContentPart & { type: TType })[],
): WithParts<TOutput, TType> {
  return new PartsResult(output, parts) as WithParts<TOutput, TType>;
}

export function isWithParts(value: unknown): value is WithParts {
  return hasBrand(value, WITH_PARTS);
}
