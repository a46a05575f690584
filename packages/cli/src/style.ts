const { fstatSync } = process.getBuiltinModule('node:fs');
const { styleText } = process.getBuiltinModule('node:util');

type Format = Parameters<typeof styleText>[0];

let stdoutTerminal: boolean | undefined;

/**
 * Whether stdout is a terminal. Only a character device can be one: asking process.stdout
 * about a pipe or a file would build the stream (net and the streams stack on a pipe) just to
 * hear no.
 */
function stdoutIsTerminal(): boolean {
  if (stdoutTerminal === undefined) {
    try {
      stdoutTerminal = fstatSync(1).isCharacterDevice() && process.stdout.isTTY === true;
    } catch {
      stdoutTerminal = false; // No stdout at all (fd 1 closed).
    }
  }
  return stdoutTerminal;
}

/** Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function style(format: Format, text: string, stream?: NodeJS.WriteStream): string {
  // With NO_COLOR nothing asks what stdout is, not even by fstat.
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return text;
  const terminal = stream ? stream.isTTY === true : stdoutIsTerminal();
  // Our own check decides; styleText would otherwise look at process.stdout only.
  return terminal ? styleText(format, text, { validateStream: false }) : text;
}
