import type { Command } from 'commander';
const { parseArgs } = process.getBuiltinModule('node:util');

type ParseArgsConfig = NonNullable<Parameters<typeof parseArgs>[0]>;

/**
 * An option with its help line. The one definition both parsers read: commander builds the
 * help and the errors from its flags (`flagsOf`), node's parseArgs runs the plain calls of
 * `list` and `call` without loading commander. Kept as fields rather than commander's flag
 * string, so the plain run reads them without parsing text.
 */
export interface OptionSpec {
  /** The long name, without dashes: `input-file`. */
  long: string;
  /** A one-letter alias: `y` for `-y`. */
  short?: string;
  /** The name its value has in the help (`ms` in `--timeout <ms>`); without one, a boolean flag. */
  value?: string;
  description: string;
}

/** The option as commander writes it: `-y, --yes`, `--timeout <ms>`. */
export function flagsOf(option: OptionSpec): string {
  return `${option.short === undefined ? '' : `-${option.short}, `}--${option.long}${option.value === undefined ? '' : ` <${option.value}>`}`;
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
    long: 'cwd',
    value: 'dir',
    description:
      'the project root whose plugins to use (default: the nearest folder upward with a package.json, node_modules or toolshed.config.json)',
  },
  { long: 'config', value: 'file', description: 'the config file (default: toolshed.config.json in the project root)' },
];

export interface PlainRun {
  args: string[];
  /** Under commander's names: `--input-file` is `inputFile`. */
  options: Record<string, string | boolean>;
  global: { cwd?: string; config?: string };
}

/** Commander's name for an option's value: `input-file` is `inputFile`. */
const camel = (long: string) =>
  long
    .split('-')
    .map((part, index) => (index === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('');

function parseOptions(specs: OptionSpec[]): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const { long, short, value } of specs)
    options[long] = { type: value === undefined ? 'boolean' : 'string', ...(short === undefined ? {} : { short }) };
  return options;
}

/**
 * `argv` (without node and the script) as a plain run of `spec`: its name, its
 * arguments, only its own and the global options, each well formed. Anything
 * else (help, a typo, a missing argument) is undefined, and commander, which
 * words every usage error and the help, takes the command line instead.
 */
export function parsePlainRun(spec: CommandSpec, argv: string[]): PlainRun | undefined {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: parseOptions([...GLOBAL_OPTIONS, ...spec.options]), allowPositionals: true, strict: true });
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
  for (const option of spec.options) command.option(flagsOf(option), option.description);
  return command;
}
