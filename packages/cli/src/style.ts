import { styleText } from 'node:util';

type Format = Parameters<typeof styleText>[0];

/** Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function style(format: Format, text: string, stream: NodeJS.WriteStream = process.stdout): string {
  const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '';
  // Our own check decides; styleText would otherwise look at process.stdout only.
  return stream.isTTY && !noColor ? styleText(format, text, { validateStream: false }) : text;
}
