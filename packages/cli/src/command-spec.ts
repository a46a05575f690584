import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Command } from 'commander';

/**
 * An option as commander writes it (`'-y, --yes'`, `'--timeout <ms>'`) with its help line.
 * The one definition both parsers read: commander builds the help and the errors from it,
 * node's parseArgs runs the plain calls of `list` and `call` without loading commander.
 */
export interface OptionSpec {
  flags: string;
  description: string;
}

export interface CommandSpec {
  name: string;
  description: string;
  /** Commander's argument syntax: `<tool>` required, `[input]` optional. */
  args: { syntax: string; description: string }[];
  options: OptionSpec[];
}

export const GLOBAL_OPTIONS: OptionSpec[] = [
  {
    flags: '--cwd <dir>',
    description:
      'the project root whose plugins to use (default: the nearest folder upward with a package.json, node_modules or toolshed.config.json)',
  },
  { flags: '--config <file>', description: 'the config file (default: toolshed.config.json in the project root)' },
];

export interface PlainRun {
  args: string[];
  /** Under commander's names: `--input-file` is `inputFile`. */
  options: Record<string, string | boolean>;
  global: { cwd?: string; config?: string };
}

const FLAGS = /^(?:-([a-zA-Z]), )?--([a-z][a-z-]*)( <[a-z-]+>)?$/;
const camel = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

function parseOptions(specs: OptionSpec[]): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const { flags } of specs) {
    const match = FLAGS.exec(flags);
    if (!match) throw new Error(`option flags ${JSON.stringify(flags)} are not of the form "-s, --long <value>"`);
    const [, short, long, value] = match;
    options[long!] = { type: value ? 'string' : 'boolean', ...(short ? { short } : {}) };
  }
  return options;
}

/**
 * `argv` (without node and the script) as a plain run of `spec`: its name, its
 * arguments, only its own and the global options, each well formed. Anything
 * else (help, a typo, a missing argument) is undefined, and commander, which
 * words every usage error and the help, takes the command line instead.
 */
export function parsePlainRun(spec: CommandSpec, argv: string[]): PlainRun | undefined {
  const options = parseOptions([...GLOBAL_OPTIONS, ...spec.options]);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch {
    return undefined;
  }
  const [name, ...args] = parsed.positionals;
  const required = spec.args.filter((arg) => arg.syntax.startsWith('<')).length;
  if (name !== spec.name || args.length < required || args.length > spec.args.length) return undefined;
  const { cwd, config, ...rest } = parsed.values as Record<string, string | boolean | undefined>;
  const values: Record<string, string | boolean> = {};
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) values[camel(key)] = value;
  const global: PlainRun['global'] = {};
  if (typeof cwd === 'string') global.cwd = cwd;
  if (typeof config === 'string') global.config = config;
  return { args, options: values, global };
}

/** The commander command for `spec`, for the full program (help, errors, every other command). */
export function commandOf(program: Command, spec: CommandSpec): Command {
  const command = program.command(spec.name).description(spec.description);
  for (const arg of spec.args) command.argument(arg.syntax, arg.description);
  for (const option of spec.options) command.option(option.flags, option.description);
  return command;
}
