import { UsageError } from './usage-error.js';
const { readFileSync } = process.getBuiltinModule('node:fs');

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The call's input from the argument, a file, or stdin (`-`); `{}` when none is given. A file is
 * read synchronously: node:fs/promises would load on every plain list and call for this alone.
 */
export async function readCallInput(tool: string, json: string | undefined, inputFile: string | undefined): Promise<unknown> {
  if (json !== undefined && inputFile !== undefined) {
    throw new UsageError(`give the input for ${tool} either as an argument or with --input-file, not both.`);
  }
  let text: string;
  let source: string;
  if (inputFile !== undefined) {
    source = inputFile === '-' ? 'stdin' : inputFile;
    try {
      text = inputFile === '-' ? await readStdin() : readFileSync(inputFile, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read the input file ${inputFile}: ${(error as Error).message}`);
    }
  } else if (json === '-') {
    source = 'stdin';
    text = await readStdin();
  } else if (json !== undefined) {
    source = 'the input argument';
    text = json;
  } else {
    return {};
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(
      `${source} is not valid JSON (${(error as Error).message}). Pass one JSON object, e.g. toolshed call ${tool} '{"text":"hello"}'.`,
    );
  }
}

/** A flag's number, or a usage error saying what it must be (`--limit must be a whole number of at least 1, got "x".`). */
export function numberFlag(flag: string, value: string | undefined, valid: (n: number) => boolean, must: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!valid(n)) throw new UsageError(`${flag} must be ${must}, got "${value}".`);
  return n;
}
